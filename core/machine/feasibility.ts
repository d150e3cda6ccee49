import type { StepDemand, StopCondition } from '../condition.js';
import type { Graph } from '../model/graph.js';
import type { BestWalk, OneWalk } from '../model/one-walk.js';
import type { WalkScope } from '../walk-state.js';
import { abbreviate } from '../text.js';
import { AllOf, AnyOf, OnVertex, whyNever } from './conditions.js';

/** How many element ids a message lists before it says how many more there are. */
const LISTED_IDS = 5;

/**
 * Why a condition can never be fulfilled from the start (guards ignored), or undefined when some walk may
 * fulfil it: the condition's own `unreachable` (an element no walk reaches), else its {@link StepDemand}
 * against what one walk can cover ({@link OneWalk}). Under `and` one such operand is enough, and the demands
 * of all operands must also fit one walk together; under `or` every operand must fail. `walks` is asked only
 * when a demand needs it, so that conditions without one cost nothing.
 */
export function whyNeverFulfilled(condition: StopCondition, scope: WalkScope, walks: () => OneWalk): string | undefined {
  const leaf = (c: StopCondition): string | undefined => {
    const why = c.unreachable?.(scope);
    if (why !== undefined || c.demand === undefined) return why;
    return shortfall(scope.graph, walks(), c.demand);
  };
  return whyNever(condition, leaf, (all) => {
    const demands = demandsOf(all);
    return demands.length < 2 ? undefined : jointShortfall(scope.graph, walks(), demands);
  });
}

/** The demands of the operands of an `and`, nested `and`s included; an `or` asks nothing certain. */
function demandsOf(condition: StopCondition): StepDemand[] {
  if (condition instanceof OnVertex) return demandsOf(condition.inner);
  if (condition instanceof AllOf) return condition.operands.flatMap(demandsOf);
  if (condition instanceof AnyOf) return [];
  return condition.demand === undefined ? [] : [condition.demand];
}

function shortfall(graph: Graph, walks: OneWalk, demand: StepDemand): string | undefined {
  const best = walks.best(demand);
  if (best.primary >= demand.least) return undefined;
  return (
    `${demand.label} can never be fulfilled: one walk covers at most ${best.primary} of the ` +
    `${totalOf(demand)} ${demand.what}, and ${demand.least} are needed (guards ignored). ` +
    explain(graph, walks, best, demand.elements, demand.elements)
  );
}

/**
 * The demands of an `and` on one walk: those that need all their elements (`least` = total) are joined into
 * one set that the walk must cover whole, and each other demand is checked against a walk that covers that set
 * (the most it can collect while doing so). Exact for one partial demand; with several it checks each against
 * the whole set, which refuses only what is certainly impossible.
 */
function jointShortfall(graph: Graph, walks: OneWalk, demands: readonly StepDemand[]): string | undefined {
  const whole = demands.filter((d) => d.least >= totalOf(d));
  const all = { elements: [...new Set(whole.flatMap((d) => d.elements))] };
  const start = (parts: readonly StepDemand[]) =>
    `${parts.map((d) => d.label).join(' and ')} can never be fulfilled together: no one walk covers what they ` +
    'need (guards ignored). ';
  const best = walks.best(all);
  if (best.primary < all.elements.length) return start(whole) + explain(graph, walks, best, all.elements, all.elements);
  for (const d of demands.filter((x) => !whole.includes(x))) {
    const both = walks.best(all, d);
    if (both.secondary >= d.least) continue;
    return start(demands.filter((x) => x === d || whole.includes(x))) + explain(graph, walks, both, d.elements, [...all.elements, ...d.elements]);
  }
  return undefined;
}

/**
 * Names two elements no walk can both step on, one of `wanted` that the best walk leaves out and one it
 * covers (one always exists when the best walk falls short), and lists what the best walk leaves out.
 */
function explain(graph: Graph, walks: OneWalk, best: BestWalk, wanted: readonly number[], counted: readonly number[]): string {
  const onWalk = new Set(best.components);
  const left = wanted.filter((e) => !onWalk.has(walks.componentOf(e)));
  const covered = counted.filter((e) => onWalk.has(walks.componentOf(e)));
  // An element no walk reaches at all has no rival; the pair is about one the best walk could have had.
  const missed = left.find((e) => walks.componentOf(e) >= 0);
  const rival = missed === undefined ? -1 : walks.rival(missed, covered);
  const pair =
    rival < 0
      ? ''
      : `No walk steps on both ${graph.ids[rival]} and ${graph.ids[missed!]}, since neither can be reached from ` +
        'the other; ';
  const ids = left.map((e) => graph.ids[e]);
  return `${pair}the best walk leaves out ${abbreviate(ids, LISTED_IDS)}`;
}

function totalOf(demand: StepDemand): number {
  return demand.weights === undefined ? demand.elements.length : demand.weights.reduce((sum, w) => sum + w, 0);
}
