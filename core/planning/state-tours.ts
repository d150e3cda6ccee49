import type { Graph } from '../model/graph.js';
import type { RandomSource } from '../random.js';
import type { StateSpace } from './state-space.js';

/**
 * Tours and routes over a {@link StateSpace}: lists of transitions, each leaving the state the one before it
 * led to. Every transition is one edge and its target vertex, two steps, so fewest transitions is fewest
 * steps.
 */

/**
 * Which transitions of the state a plan starts from it may begin with: the walk stands there, its guards are
 * asked, and a transition chance closed this time cannot be taken now (it may be later).
 */
export type FirstMoves = (transition: number) => boolean;

/** Every transition may begin a plan. */
export const ANY_FIRST: FirstMoves = () => true;

/**
 * The edges (graph indices) among `wanted` that some transition reachable from `from` takes: what a tour from
 * there can cover.
 */
export function coverableFrom(space: StateSpace, from: number, wanted: (edge: number) => boolean, first: FirstMoves = ANY_FIRST): number[] {
  const found = new Set<number>();
  reachableTransitions(space, from, first, (t) => {
    const e = space.edgeOf[t];
    if (wanted(e)) found.add(e);
  });
  return [...found].sort((a, b) => a - b);
}

/**
 * Per state, whether a walk from it can still take every edge of `needed` but the one a transition into it
 * just took: that taking it does not close the way to the others for good (a counter that only grows past a
 * guard's threshold, say). A state from which an unexplored state is reachable (unknown, or beyond the bound)
 * is taken to keep them, since what lies beyond is not known. Answers are kept per state.
 */
export function keepsCoverable(space: StateSpace, needed: readonly number[]): (state: number, taken: number) => boolean {
  const answers = new Map<number, Set<number> | null>();
  const reachableFrom = (from: number): Set<number> | null => {
    const edges = new Set<number>();
    const whole = reachableTransitions(space, from, ANY_FIRST, (t) => edges.add(space.edgeOf[t]), (s) => space.expanded[s] === 0);
    return whole ? edges : null;
  };
  return (state, taken) => {
    if (!answers.has(state)) answers.set(state, reachableFrom(state));
    const edges = answers.get(state)!;
    return edges === null || needed.every((e) => e === taken || edges.has(e));
  };
}

/**
 * Visits every transition reachable from `from`, breadth-first, the first moves only those `first` accepts;
 * false when `stop` answered true for a state reached, which ends the visit.
 */
function reachableTransitions(
  space: StateSpace,
  from: number,
  first: FirstMoves,
  visit: (transition: number) => void,
  stop: (state: number) => boolean = () => false,
): boolean {
  const seen = new Uint8Array(space.size);
  const queue = [from];
  seen[from] = 1;
  for (let h = 0; h < queue.length; h++) {
    const s = queue[h];
    if (stop(s)) return false;
    for (let t = space.outStart[s]; t < space.outStart[s + 1]; t++) {
      if (h === 0 && !first(t)) continue;
      visit(t);
      const next = space.to[t];
      if (seen[next] === 0) {
        seen[next] = 1;
        queue.push(next);
      }
    }
  }
  return true;
}

/** Whether `first` rules out some transition of `state`. */
function closesAny(space: StateSpace, state: number, first: FirstMoves): boolean {
  for (let t = space.outStart[state]; t < space.outStart[state + 1]; t++) if (!first(t)) return true;
  return false;
}

/**
 * The shortest route from `from` whose last transition is one `wanted` accepts (`wanted(t)` for transition
 * t); among the equally short ones, one drawn from the seed. Undefined when none is reachable.
 */
export function nearestRoute(
  space: StateSpace,
  from: number,
  wanted: (transition: number) => boolean,
  random: RandomSource,
  first: FirstMoves = ANY_FIRST,
): number[] | undefined {
  // The first moves leave `from` as a root of their own: `from` may be come back to, when `first` ruled out
  // a move (a guard chance closed now may open then); otherwise it counts as reached.
  const via = new Int32Array(space.size).fill(-1);
  if (!closesAny(space, from, first)) via[from] = -2;
  let layer = [from];
  const found: number[] = [];
  let depth = 0;
  for (; layer.length > 0; depth++) {
    const next: number[] = [];
    for (const s of layer) {
      for (let t = space.outStart[s]; t < space.outStart[s + 1]; t++) {
        if (depth === 0 && !first(t)) continue;
        if (wanted(t)) {
          found.push(t);
          continue;
        }
        const w = space.to[t];
        if (via[w] !== -1) continue;
        via[w] = t;
        next.push(w);
      }
    }
    if (found.length > 0) break;
    layer = next;
  }
  if (found.length === 0) return undefined;
  const last = found[random.int(found.length)];
  const route = [last];
  // Every state of a layer was first reached from the layer before: `depth` steps back lead to the root.
  for (let s = sourceOf(space, last), d = depth; d > 0; d--) {
    route.push(via[s]);
    s = sourceOf(space, via[s]);
  }
  return route.reverse();
}

/**
 * A tour from `from` over `required` made by heading for the nearest edge not yet taken, again and again:
 * for spaces too large for the search of tour-search.ts.
 */
export function greedyTour(space: StateSpace, from: number, required: readonly number[], random: RandomSource, first: FirstMoves = ANY_FIRST): number[] {
  const left = new Set(required);
  const tour: number[] = [];
  let at = from;
  while (left.size > 0) {
    const route = nearestRoute(space, at, (t) => left.has(space.edgeOf[t]), random, tour.length === 0 ? first : ANY_FIRST);
    if (route === undefined) break;
    for (const t of route) {
      left.delete(space.edgeOf[t]);
      tour.push(t);
    }
    at = space.to[route[route.length - 1]];
  }
  return tour;
}

/**
 * The shortest route from `from` into a state not explored — an unknown one (docs/planning.md: actions that
 * read chance or time lead there), or, on the fly, one beyond the decision's bound — whose vertex leads, by
 * the graph, to something `worth` wants: where the walk learns more when the states it knows hold nothing
 * left to do. Undefined when no such route is known. A state at the bound whose numbers grew past every
 * threshold the scripts name ({@link StateSpace.grown}) is no such state: past it a counter only goes on, and
 * heading there would go on for ever (a self-loop that counts, beside a guard that a reset closes for good).
 */
export function frontierRoute(
  space: StateSpace,
  from: number,
  worth: (vertex: number) => boolean,
  random: RandomSource,
  first: FirstMoves = ANY_FIRST,
): number[] | undefined {
  const answers = new Map<number, boolean>();
  const worthAt = (v: number): boolean => {
    let answer = answers.get(v);
    if (answer === undefined) answers.set(v, (answer = worth(v)));
    return answer;
  };
  const learns = (s: number): boolean =>
    space.expanded[s] === 0 && (space.unknown[s] === 1 || space.grown === undefined || !space.grown(space.variablesOf[s]));
  return nearestRoute(space, from, (t) => learns(space.to[t]) && worthAt(space.vertexOf[space.to[t]]), random, first);
}

/**
 * Visits every element the graph leads to from `vertices` (out-edges and their targets, guards ignored),
 * vertices included, until `visit` answers true: then true. What may lie beyond an unknown state.
 */
export function graphLeadsTo(g: Graph, vertices: readonly number[], visit: (element: number) => boolean): boolean {
  const seen = new Uint8Array(g.vertexCount);
  const queue = [...vertices];
  for (const v of queue) seen[v] = 1;
  for (let h = 0; h < queue.length; h++) {
    const v = queue[h];
    if (visit(v)) return true;
    for (const e of g.outEdgesOf(v)) {
      if (visit(e)) return true;
      const next = g.target[e];
      if (seen[next] === 0) {
        seen[next] = 1;
        queue.push(next);
      }
    }
  }
  return false;
}

/** The state a transition leaves from. */
export function sourceOf(space: StateSpace, transition: number): number {
  let lo = 0;
  let hi = space.size - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (space.outStart[mid] <= transition) lo = mid;
    else hi = mid - 1;
  }
  // The last state whose transitions start at or before it: a state without transitions starts where the
  // next one does, so it is never the last such.
  return lo;
}
