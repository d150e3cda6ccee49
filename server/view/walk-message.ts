import type { GraphShape, VariablesSeen, WalkProgress } from '../../core/machine/walk-view.js';
import type { StepSeen, WalkMessage, WalkState } from './messages.js';

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

/** What a reader was sent last: the load it has the graph of, and the visit counts it has. */
export interface SentWalk {
  readonly load: number;
  readonly visits: Uint32Array;
}

/**
 * The message of a snapshot for a reader that has `sent` (nothing, for a reader's first message): the graph
 * when the reader has not got this load's, the visit counts whole then, else only the counts that changed.
 */
export function walkMessage(snapshot: WalkSnapshot, sent?: SentWalk): WalkMessage {
  const { session, load, graph, progress } = snapshot;
  const fresh = sent === undefined || sent.load !== load;
  const base = { kind: 'walk' as const, session, load, ...(fresh ? { graph } : {}) };
  if (progress === undefined) return { ...base, walk: null };
  const { visits, steps, current, statuses, statistics, variables, variablesUnavailable, failure } = progress;
  const counts = fresh || sent.visits.length !== visits.length ? { visits: Array.from(visits) } : { visitChanges: changes(sent.visits, visits) };
  const walk: WalkState = {
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
  return { ...base, walk };
}

/** Element index and new count of every count that differs, in pairs. */
function changes(before: Uint32Array, after: Uint32Array): number[] {
  const out: number[] = [];
  for (let e = 0; e < after.length; e++) if (before[e] !== after[e]) out.push(e, after[e]);
  return out;
}
