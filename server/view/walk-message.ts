import type { GraphShape, VariablesSeen, WalkProgress } from '../../core/machine/walk-view.js';
import type { StepSeen, WalkState } from './messages.js';

/** A walk as it stands at one moment, whole: what every message about it is made from. */
export interface WalkSnapshot {
  /** `default`, or the session's id. */
  readonly session: string;
  readonly load: number;
  /** Null before the first load. */
  readonly graph: GraphShape | null;
  /** Undefined before the first load. */
  readonly progress: (WalkProgress & VariablesSeen) | undefined;
  readonly lastSteps: readonly StepSeen[];
}

/**
 * Where the walk of a snapshot stands: with every visit count, or, for a reader that has the counts
 * `before`, with only those that changed. Null before the first load.
 */
export function walkState(snapshot: WalkSnapshot, before?: Uint32Array): WalkState | null {
  const { progress } = snapshot;
  if (progress === undefined) return null;
  const { visits, steps, current, statuses, statistics, variables, variablesUnavailable, failure } = progress;
  const counts = before === undefined || before.length !== visits.length ? { visits: Array.from(visits) } : { visitChanges: changes(before, visits) };
  return {
    steps,
    current,
    statuses,
    statistics,
    variables,
    ...(variablesUnavailable === undefined ? {} : { variablesUnavailable }),
    ...(failure === undefined ? {} : { failure }),
    lastSteps: snapshot.lastSteps,
    ...counts,
  };
}

/** Element index and new count of every count that differs, in pairs. */
function changes(before: Uint32Array, after: Uint32Array): number[] {
  const out: number[] = [];
  for (let e = 0; e < after.length; e++) if (before[e] !== after[e]) out.push(e, after[e]);
  return out;
}
