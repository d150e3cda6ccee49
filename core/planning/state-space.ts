import { ScriptError } from '../errors.js';
import type { Graph } from '../model/graph.js';

/**
 * The states a walk can reach from where it stands: a state is a vertex together with the variables as they
 * are when the walk stands there (after the vertex's actions), and a transition is an out-edge its guard
 * lets through in that state, leading to the edge's target with the variables after the edge's and the
 * target's actions (docs/planning.md). At a vertex with a shared state, a transition is also a jump to a
 * vertex of another model with the same shared state, leading there with the variables after that vertex's
 * actions: its {@link StateSpace.edgeOf} is the vertex jumped to, and it is one step where an edge is two
 * ({@link stepsOf}). States are numbered in breadth-first order from 0, the start; the transitions of a state
 * are `outStart[s] .. outStart[s+1]-1`, its out-edges in the vertex's declaration order, then its jumps.
 *
 * Chance and time (`Math.random`, `Date`) are not decided by the variables, so the space holds what they may
 * do rather than one draw of it: a guard that reads either may let its edge through, and its transition is
 * kept ({@link unsure}); actions that read either lead to an {@link unknown} state of the target vertex,
 * whose variables cannot be known ahead and which is not explored. Every walk's way is therefore a way of
 * the space, up to its unknown states: what the space says no walk does, none does.
 */
export interface StateSpace {
  readonly graph: Graph;
  /** Number of states found: those left unexplored at the bound, and the unknown ones, included. */
  readonly size: number;
  readonly vertexOf: Int32Array;
  /** Per state: its variables, as the script engine copies them; `''` for an {@link unknown} state. */
  readonly variablesOf: readonly string[];
  readonly outStart: Int32Array;
  /** Per transition: the graph edge taken, or for a jump the vertex jumped to. */
  readonly edgeOf: Int32Array;
  /** Per transition: the state it leads to. */
  readonly to: Int32Array;
  /**
   * Per transition, 1 when its guard read chance or time: the edge may be open or closed when the walk comes,
   * whatever the variables; taken, it leads where {@link to} says.
   */
  readonly unsure: Uint8Array;
  /**
   * Per state, 1 when actions that read chance or time lead to it: one such state per vertex stands for every
   * value they may give. It has no transitions, and a walk that comes to it must be looked at again.
   */
  readonly unknown: Uint8Array;
  /** Per state, 1 when its transitions were explored; 0 for unknown states and states left at the bound. */
  readonly expanded: Uint8Array;
  /**
   * Why the exploration stopped before every state it found was explored, if it did: its bound of states
   * (which the seed fixes), or the clock's safety stop (which it does not: {@link ExplorationBound.stop}).
   */
  readonly cut: ExplorationCut | undefined;
  /** True when every state found, but the unknown ones, was explored: nothing was cut off by the bound. */
  readonly complete: boolean;
  /**
   * Whether a state's variables grew past every threshold the scripts name (endless-growth.ts): beyond such a
   * state left at the bound, the states differ by a counter that goes on, not by a way still to open. Undefined
   * when the scripts name no number.
   */
  readonly grown: ((variables: string) => boolean) | undefined;
  /** The state of `vertex` with `variables`, or -1 when there is none (an unknown state is never answered). */
  stateOf(vertex: number, variables: string): number;
}

/** Whether a transition is a jump through a shared state rather than an edge. */
export function isJump(space: StateSpace, transition: number): boolean {
  return space.edgeOf[transition] < space.graph.vertexCount;
}

/** The elements a transition hands out: an edge and its target are two, a jump's vertex is one. */
export function stepsOf(space: StateSpace, transition: number): number {
  return space.edgeOf[transition] < space.graph.vertexCount ? 1 : 2;
}

/** The elements a list of transitions hands out: two per edge, one per jump. */
export function tourSteps(space: StateSpace, tour: readonly number[]): number {
  let steps = 0;
  for (const t of tour) steps += stepsOf(space, t);
  return steps;
}

/**
 * The bound an exploration stopped at: its number of states, the states found to grow without end
 * ({@link ExplorationBound.endless}), or the clock's safety stop.
 */
export type ExplorationCut = 'states' | 'growth' | 'time';

/** What a guard answers in one state, for planning: closed, open, or open or not as chance or time decide. */
export const CLOSED = 0;
export const OPEN = 1;
export const MAYBE = 2;

/** What {@link StateStepper.take} answers when a script read chance or time: the state it leads to is unknown. */
export const UNPREDICTABLE = 'unpredictable';

/** What the exploration asks of the scripts; it runs them on copies of the variables, never on the walk's. */
export interface StateStepper {
  /** Sets the variables to a copy. */
  load(variables: string): void;
  /**
   * Writes, for each out-edge of `vertex` in declaration order, whether its guard lets it through with the
   * loaded variables: {@link OPEN}, {@link CLOSED} or {@link MAYBE} (it read chance or time). May change the
   * loaded variables (a guard may assign).
   */
  guards(vertex: number, out: Uint8Array): void;
  /**
   * Runs the actions of `edge` and of its target (of a vertex jumped to: its own) on the loaded variables and
   * answers the key of the result
   * (equal variables, equal keys; {@link copy} makes the copy itself); {@link UNPREDICTABLE} when a script
   * read chance or time (whether or not it then failed); undefined when the variables have no faithful copy
   * (which ends the exploration).
   */
  take(edge: number): string | typeof UNPREDICTABLE | undefined;
  /** The copy of the variables {@link take} left, asked right after it. */
  copy(): string;
  /** The key of a copy's variables (it may load them). */
  keyOf(variables: string): string;
}

/**
 * A {@link StateStepper} that a script engine offers for exploring in the host, without a sandbox
 * (`ScriptEngine.hostStepper`): it also runs the actions of the element a walk starts on, answering the copy
 * of the variables after them, or {@link UNPREDICTABLE} when one read chance or time.
 */
export interface HostStepper extends StateStepper {
  enter(element: number): string | typeof UNPREDICTABLE;
}

/**
 * Thrown by a {@link HostStepper} for variables or results it does not compute exactly as the engine's
 * sandbox would: the exploration is made again in the sandbox.
 */
export class HostStepperDeclined extends Error {}

/** Why an exploration was given up: the scripts hold a value that has no faithful copy. */
export const NO_COPY = 'no-copy';

/**
 * How far one exploration may go. Its states bound what it explores, so that the same walk explores the same
 * states on every machine and a seed fixes every plan; the clock only stops an exploration that would
 * otherwise hold the walk's thread far too long, and a walk it stops may not replay (docs/planning.md, "The bound").
 */
export interface ExplorationBound {
  /** States explored at most. */
  readonly states: number;
  /** A safety stop: after `ms` milliseconds by `clock`, the exploration ends wherever it is. */
  readonly stop?: { readonly ms: number; readonly clock: () => number };
  /**
   * Every `every` states explored, whether the variables of the next state show that the states grow without
   * end (endless-growth.ts): the exploration then stops there, as at its bound.
   */
  readonly endless?: { readonly every: number; readonly test: (variables: string) => boolean };
  /** Whether variables grew past every threshold the scripts name (endless-growth.ts): kept as {@link StateSpace.grown}. */
  readonly grown?: (variables: string) => boolean;
}

/**
 * Explores breadth-first from `vertex` with `variables` until every reachable state is explored or the bound
 * stops it. A guard that throws closes every guarded edge of its state, an action that throws its edge (the
 * walk would fail there, and a plan should not lead there); a script stopped by a limit ends the
 * exploration, thrown. Returns {@link NO_COPY} when some variable has no faithful copy.
 *
 * `entries` are start elements the machine may put the walk on from wherever it stands (those of the later
 * models of a file, entered once the models before them are done): with them, every state also leads to
 * each, as a jump leads to its vertex (an edge's transition is the edge, to its target). No generator can
 * take such a transition, so a space explored with entries is for judging what no walk steps on, not for
 * planning.
 */
export function exploreStates(
  graph: Graph,
  stepper: StateStepper,
  vertex: number,
  variables: string,
  bound: ExplorationBound,
  entries: readonly number[] = [],
): StateSpace | typeof NO_COPY {
  // Per vertex, its states by their variables: keyed by the copy itself, which is hashed once, rather than
  // by a string joining vertex and copy, which would be made and hashed afresh at every lookup.
  const index: Array<Map<string, number> | undefined> = new Array(graph.vertexCount);
  const vertexOf: number[] = [];
  const variablesOf: string[] = [];
  const keys: string[] = [];
  const unknown: number[] = [];
  const unknownAt = new Int32Array(graph.vertexCount).fill(-1);
  const outStart: number[] = [];
  const edgeOf: number[] = [];
  const to: number[] = [];
  const unsure: number[] = [];
  const add = (v: number, key: string, vars: string, isUnknown: number): number => {
    vertexOf.push(v);
    keys.push(key);
    variablesOf.push(vars);
    unknown.push(isUnknown);
    return vertexOf.length - 1;
  };
  /** The state of `v` with the variables of `key`; `copy` makes their copy when the state is new. */
  const stateOf = (v: number, key: string, copy: () => string): number => {
    const states = (index[v] ??= new Map());
    let s = states.get(key);
    if (s === undefined) states.set(key, (s = add(v, key, copy(), 0)));
    return s;
  };
  const unknownOf = (v: number): number => (unknownAt[v] >= 0 ? unknownAt[v] : (unknownAt[v] = add(v, '', '', 1)));
  const copied = () => stepper.copy();
  let loaded: string | undefined;
  /**
   * The state that `element` (an edge whose target is `target`, or a vertex jumped to, its own target) leads to
   * from a state with `vars` and `key`; -1 when its actions fail (the walk would fail there).
   */
  const follow = (element: number, target: number, vars: string, key: string): number | typeof NO_COPY => {
    if (graph.actions[element].length === 0 && graph.actions[target].length === 0) return stateOf(target, key, () => vars);
    if (loaded !== vars) stepper.load(vars);
    loaded = undefined;
    let taken: string | typeof UNPREDICTABLE | undefined;
    try {
      taken = stepper.take(element);
    } catch (error) {
      if (!(error instanceof ScriptError) || error.limit !== undefined) throw error;
      return -1;
    }
    if (taken === undefined) return NO_COPY;
    return taken === UNPREDICTABLE ? unknownOf(target) : stateOf(target, taken, copied);
  };
  stateOf(vertex, stepper.keyOf(variables), () => variables);
  const answers = new Uint8Array(maxOutDegree(graph));
  const guarded = guardedVertices(graph);
  const jumps = new JumpTargets(graph, stepper, guarded, answers.length);
  const { stop, endless } = bound;
  const deadline = stop === undefined ? Infinity : stop.clock() + stop.ms;
  let explored = 0;
  let cut: ExplorationCut | undefined;
  let s = 0;
  for (; s < vertexOf.length; s++) {
    if (unknown[s] === 1) {
      outStart.push(edgeOf.length);
      continue;
    }
    if (explored >= bound.states) {
      cut = 'states';
      break;
    }
    // Every state: one may take a script's time in the sandbox, and a look at the clock costs little.
    if (stop !== undefined && explored > 0 && stop.clock() > deadline) {
      cut = 'time';
      break;
    }
    if (endless !== undefined && explored > 0 && explored % endless.every === 0 && endless.test(variablesOf[s])) {
      cut = 'growth';
      break;
    }
    explored++;
    outStart.push(edgeOf.length);
    const here = vertexOf[s];
    const vars = variablesOf[s];
    const key = keys[s];
    if (guarded[here] === 1) {
      if (loaded !== vars) stepper.load((loaded = vars));
      judgeGuards(graph, stepper, here, answers);
    } else {
      answers.fill(OPEN);
    }
    for (let i = graph.outOffsets[here], k = 0, end = graph.outOffsets[here + 1]; i < end; i++, k++) {
      if (answers[k] === CLOSED) continue;
      const edge = graph.outEdges[i];
      const next = follow(edge, graph.target[edge], vars, key);
      if (next === NO_COPY) return NO_COPY;
      if (next < 0) continue;
      edgeOf.push(edge);
      to.push(next);
      unsure.push(answers[k] === MAYBE ? 1 : 0);
    }
    if (graph.sharedState[here] !== undefined) {
      loaded = undefined;
      for (const w of jumps.from(here, vars)) {
        const next = follow(w, w, vars, key);
        if (next === NO_COPY) return NO_COPY;
        if (next < 0) continue;
        edgeOf.push(w);
        to.push(next);
        unsure.push(0);
      }
    }
    for (const entry of entries) {
      const next = follow(entry, graph.isVertex(entry) ? entry : graph.target[entry], vars, key);
      if (next === NO_COPY) return NO_COPY;
      if (next < 0) continue;
      edgeOf.push(entry);
      to.push(next);
      unsure.push(0);
    }
  }
  const size = vertexOf.length;
  while (outStart.length <= size) outStart.push(edgeOf.length);
  const expanded = new Uint8Array(size);
  for (let e = 0; e < s; e++) expanded[e] = unknown[e] === 1 ? 0 : 1;
  return {
    graph,
    size,
    vertexOf: Int32Array.from(vertexOf),
    variablesOf,
    outStart: Int32Array.from(outStart),
    edgeOf: Int32Array.from(edgeOf),
    to: Int32Array.from(to),
    unsure: Uint8Array.from(unsure),
    unknown: Uint8Array.from(unknown),
    expanded,
    cut,
    complete: cut === undefined,
    grown: bound.grown,
    stateOf: (v, vars) => {
      const states = index[v];
      if (states === undefined) return -1;
      try {
        return states.get(stepper.keyOf(vars)) ?? -1;
      } catch (error) {
        // Variables a host stepper cannot hold are of no state it found.
        if (error instanceof HostStepperDeclined) return -1;
        throw error;
      }
    },
  };
}

/**
 * The guards' answers for the out-edges of `vertex`; when they fail (not by a limit), every guarded edge is
 * closed, as the walk would fail there rather than take one.
 */
function judgeGuards(graph: Graph, stepper: StateStepper, vertex: number, answers: Uint8Array): void {
  try {
    stepper.guards(vertex, answers);
  } catch (error) {
    if (!(error instanceof ScriptError) || error.limit !== undefined) throw error;
    for (let i = graph.outOffsets[vertex], k = 0, end = graph.outOffsets[vertex + 1]; i < end; i++, k++) {
      answers[k] = graph.guard[graph.outEdges[i]] === undefined ? OPEN : CLOSED;
    }
  }
}

/**
 * The vertices a walk may jump to from a vertex with a shared state, by the machine's rule
 * (core/machine/shared-states.ts): each vertex of another model with the same shared state that has a name, or
 * an out-edge open with the variables as they are. The machine also keeps a walk from jumping straight back
 * to the vertex it just jumped from while it can stay; a state does not remember where the walk came from, so
 * the space keeps that jump (more ways than walks take, never fewer), and a plan that leads through it is made
 * again where the machine does not offer it.
 */
class JumpTargets {
  private readonly found: number[] = [];
  private readonly answers: Uint8Array;

  constructor(
    private readonly graph: Graph,
    private readonly stepper: StateStepper,
    private readonly guarded: Uint8Array,
    degree: number,
  ) {
    this.answers = new Uint8Array(Math.max(degree, 1));
  }

  /** The vertices to jump to from `vertex` with `variables`; the stepper may be left with other variables loaded. */
  from(vertex: number, variables: string): readonly number[] {
    const g = this.graph;
    const found = this.found;
    found.length = 0;
    const model = g.modelOf[vertex];
    for (const w of g.sharedStateVertices(g.sharedState[vertex]!)) {
      if (g.modelOf[w] === model) continue;
      if (g.names[w] || this.anyOpen(w, variables)) found.push(w);
    }
    return found;
  }

  private anyOpen(vertex: number, variables: string): boolean {
    const g = this.graph;
    const degree = g.outOffsets[vertex + 1] - g.outOffsets[vertex];
    if (degree === 0) return false;
    if (this.guarded[vertex] === 0) return true;
    this.stepper.load(variables);
    judgeGuards(g, this.stepper, vertex, this.answers);
    for (let k = 0; k < degree; k++) if (this.answers[k] !== CLOSED) return true;
    return false;
  }
}

/** Per vertex, 1 when some out-edge has a guard: only there are the variables needed to open the way on. */
function guardedVertices(graph: Graph): Uint8Array {
  const guarded = new Uint8Array(graph.vertexCount);
  for (let e = graph.vertexCount; e < graph.size; e++) if (graph.guard[e] !== undefined && graph.source[e] >= 0) guarded[graph.source[e]] = 1;
  return guarded;
}

function maxOutDegree(graph: Graph): number {
  let most = 0;
  for (let v = 0; v < graph.vertexCount; v++) most = Math.max(most, graph.outOffsets[v + 1] - graph.outOffsets[v]);
  return most;
}
