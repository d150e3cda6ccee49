import { ModelIssueCodes, type ModelIssue } from '../model/issue-reporter.js';
import type { Machine } from './machine.js';
import type { PlanningFigures } from './statistics.js';
import { DECISION_STATES } from '../planning/walk-planning.js';

/**
 * What planning with guards found at the start of a walk, as warnings (docs/planning.md): that an exploration
 * stopped at its bound (`plan_bound`), goals the guards close that only a client's data may open
 * (`goal_needs_data`, when a client may write the variables), and every edge that no state the walk can reach lets through
 * (`closed_edge`). `walker check` prints them and a load answers them, so that both say the same. With
 * `explore` false, the closed edges come only from an exploration the walk made already (a load's, for a
 * goal that needs elements), none is made for them.
 */
export function planningIssues(machine: Machine, explore = true): ModelIssue[] {
  const closed = machine.closedEdges(explore);
  const issues: ModelIssue[] = [];
  const bound = boundIssue(machine);
  if (bound !== undefined) issues.push(bound);
  const g = machine.graph;
  for (const { model, message } of machine.guardedGoals()) {
    issues.push({ code: ModelIssueCodes.GOAL_NEEDS_DATA, severity: 'warning', message, modelId: g.models[model].id, elementId: null, field: null });
  }
  for (const { edge, words } of closed) {
    const model = g.models[g.modelOf[edge]];
    issues.push({
      code: ModelIssueCodes.CLOSED_EDGE,
      severity: 'warning',
      message: `Model '${model.name ?? model.id}': edge ${words}: no walk gets through it`,
      modelId: model.id,
      elementId: g.ids[edge],
      field: g.guard[edge] === undefined ? null : 'guard',
    });
  }
  return issues;
}

function boundIssue(machine: Machine): ModelIssue | undefined {
  const figures = machine.planningFigures();
  if (figures?.boundHit === undefined) return undefined;
  const found = {
    states: `The walk reaches more than ${figures.stateBound.toLocaleString('en-US')} states (vertices with the values of the variables)`,
    growth:
      `The walk's states grow without end: after ${figures.exploredStates.toLocaleString('en-US')} states, a variable has grown ` +
      'past twice every number its scripts name',
    time:
      `Exploring the walk's states was stopped by its safety stop of ${figures.timeBoundMs.toLocaleString('en-US')} ms ` +
      `(${figures.exploredStates.toLocaleString('en-US')} states found by then; a stop by the clock depends on the machine, ` +
      `so this walk may not replay from its seed)`,
  }[figures.boundHit];
  const raise = { states: ' Raise --plan-states to explore them all.', growth: '', time: ' Raise --plan-time to explore them all.' }[figures.boundHit];
  const message =
    `${found}: edges the guards keep closed are not known, goals they make impossible are not refused, and ` +
    `plans are made on the fly from where the walk stands, each over the nearest ${decisionStates(figures).toLocaleString('en-US')} ` +
    `states at most.${raise}`;
  return { code: ModelIssueCodes.PLAN_BOUND, severity: 'warning', message, modelId: null, elementId: null, field: null };
}

/** States one decision on the fly explores at most: {@link DECISION_STATES}, or fewer under a lower `--plan-states`. */
function decisionStates(figures: PlanningFigures): number {
  return Math.min(figures.stateBound, DECISION_STATES);
}
