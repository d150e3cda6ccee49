import { ScriptError } from '../errors.js';
import type { Graph } from '../model/graph.js';

/**
 * The states a walk can reach from where it stands: a state is a vertex together with the variables as they
 * are when the walk stands there (after the vertex's actions), and a transition is an out-edge its guard
 * lets through in that state, leading to the edge's target with the variables after the edge's and the
 * target's actions (docs/planning.md). States are numbered in breadth-first order from 0, the start; the
 * transitions of a state are `outStart[s] .. outStart[s+1]-1`, in the vertex's declaration order.
 */
export interface StateSpace {
  readonly graph: Graph;
  /** Number of states found, those left unexpanded at the bound included. */
  readonly size: number;
  readonly vertexOf: Int32Array;
  /** Per state: its variables, as the script engine copies them. */
  readonly variablesOf: readonly string[];
  readonly outStart: Int32Array;
  /** Per transition: the graph edge taken. */
  readonly edgeOf: Int32Array;
  /** Per transition: the state it leads to. */
  readonly to: Int32Array;
  /**
   * Per transition, 1 when a script on the way read chance or time (`Math.random`, `Date`): the walk may
   * come out elsewhere, or find the edge closed. The guards of a state that read either make all its
   * transitions unsure.
   */
  readonly unsure: Uint8Array;
  /** Per state, 1 when its transitions were explored; 0 for states found at the bound and left. */
  readonly expanded: Uint8Array;
  /** True when every state found was explored: the space holds every state the walk can reach. */
  readonly complete: boolean;
  /** True when no transition is unsure: the space is exactly where the walk can go. */
  readonly certain: boolean;
  /** The state of `vertex` with `variables`, or -1 when there is none. */
  stateOf(vertex: number, variables: string): number;
}

/** What the exploration asks of the scripts; it runs them on copies of the variables, never on the walk's. */
export interface StateStepper {
  /** Sets the variables to a copy. */
  load(variables: string): void;
  /** The out-edges of `vertex` its guards let through with the loaded variables, in declaration order. */
  open(vertex: number): readonly number[];
  /**
   * Runs the actions of `edge` and of its target on the loaded variables and answers the copy of the result,
   * or undefined when the variables have no faithful copy (which ends the exploration).
   */
  take(edge: number): string | undefined;
  /** Whether a script read chance or time since the last call of this method. */
  takeUnpredictable(): boolean;
}

/** Why an exploration was given up: the scripts hold a value that has no faithful copy. */
export const NO_COPY = 'no-copy';

/**
 * Explores breadth-first from `vertex` with `variables` until every reachable state is expanded or `bound`
 * states are. A guard or action that throws closes its edge in that state (the walk would fail there, and a
 * plan should not lead there); a script stopped by a limit ends the exploration, thrown. Returns
 * {@link NO_COPY} when some variable has no faithful copy.
 */
export function exploreStates(
  graph: Graph,
  stepper: StateStepper,
  vertex: number,
  variables: string,
  bound: number,
): StateSpace | typeof NO_COPY {
  const index = new Map<string, number>();
  const vertexOf: number[] = [];
  const variablesOf: string[] = [];
  const outStart: number[] = [];
  const edgeOf: number[] = [];
  const to: number[] = [];
  const unsure: number[] = [];
  const stateOf = (v: number, vars: string): number => {
    const key = `${v}\u0002${vars}`;
    let s = index.get(key);
    if (s === undefined) {
      s = vertexOf.length;
      index.set(key, s);
      vertexOf.push(v);
      variablesOf.push(vars);
    }
    return s;
  };
  stateOf(vertex, variables);
  let loaded: string | undefined;
  let expanded = 0;
  for (; expanded < vertexOf.length && expanded < bound; expanded++) {
    const here = vertexOf[expanded];
    const vars = variablesOf[expanded];
    outStart.push(edgeOf.length);
    if (loaded !== vars) stepper.load((loaded = vars));
    stepper.takeUnpredictable();
    let open: readonly number[];
    try {
      open = [...stepper.open(here)];
    } catch (error) {
      if (!(error instanceof ScriptError) || error.limit !== undefined) throw error;
      open = Array.from(graph.outEdgesOf(here)).filter((e) => graph.guard[e] === undefined);
    }
    const guardsUnsure = stepper.takeUnpredictable();
    for (const edge of open) {
      const target = graph.target[edge];
      let next = vars;
      let chance = guardsUnsure;
      if (graph.actions[edge].length > 0 || graph.actions[target].length > 0) {
        if (loaded !== vars) stepper.load((loaded = vars));
        let copy: string | undefined;
        try {
          copy = stepper.take(edge);
        } catch (error) {
          if (!(error instanceof ScriptError) || error.limit !== undefined) throw error;
          loaded = undefined;
          stepper.takeUnpredictable();
          continue;
        }
        if (copy === undefined) return NO_COPY;
        next = loaded = copy;
        chance = stepper.takeUnpredictable() || chance;
      }
      edgeOf.push(edge);
      to.push(stateOf(target, next));
      unsure.push(chance ? 1 : 0);
    }
  }
  const size = vertexOf.length;
  while (outStart.length <= size) outStart.push(edgeOf.length);
  const expandedFlags = new Uint8Array(size);
  expandedFlags.fill(1, 0, expanded);
  const unsureFlags = Uint8Array.from(unsure);
  return {
    graph,
    size,
    vertexOf: Int32Array.from(vertexOf),
    variablesOf,
    outStart: Int32Array.from(outStart),
    edgeOf: Int32Array.from(edgeOf),
    to: Int32Array.from(to),
    unsure: unsureFlags,
    expanded: expandedFlags,
    complete: expanded === size,
    certain: !unsureFlags.includes(1),
    stateOf: (v, vars) => index.get(`${v}\u0002${vars}`) ?? -1,
  };
}
