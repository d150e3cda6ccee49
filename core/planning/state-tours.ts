import type { RandomSource } from '../random.js';
import type { StateSpace } from './state-space.js';

/**
 * Largest (states × 2^required edges) the exact tour search takes on: its two arrays of that many entries
 * cost 8 bytes each, 32 MiB at this bound, and a search visits each pair at most once.
 */
const EXACT_LIMIT = 1 << 22;
/** Required edges the exact search takes on at most (a bit each in a 32-bit mask). */
const EXACT_EDGES = 24;

/**
 * Tours and routes over a {@link StateSpace}: lists of transitions, each leaving the state the one before it
 * led to. Every transition is one edge and its target vertex, two steps, so fewest transitions is fewest
 * steps.
 */

/**
 * The edges (graph indices) among `wanted` that some transition reachable from `from` takes: what a tour from
 * there can cover.
 */
export function coverableFrom(space: StateSpace, from: number, wanted: (edge: number) => boolean): number[] {
  const seen = new Uint8Array(space.size);
  const found = new Set<number>();
  const queue = [from];
  seen[from] = 1;
  for (let h = 0; h < queue.length; h++) {
    const s = queue[h];
    for (let t = space.outStart[s]; t < space.outStart[s + 1]; t++) {
      const e = space.edgeOf[t];
      if (wanted(e)) found.add(e);
      const next = space.to[t];
      if (seen[next] === 0) {
        seen[next] = 1;
        queue.push(next);
      }
    }
  }
  return [...found].sort((a, b) => a - b);
}

/**
 * The shortest tour from `from` that steps on every element of `required` (edges, and vertices, which the
 * start state stands on already) at least once, each reachable from there: breadth-first over pairs of a
 * state and the set of required elements stepped on so far, which finds the optimum. Null when no walk from
 * there steps on them all; undefined when the pairs would be too many ({@link EXACT_LIMIT}) to know.
 */
export function exactTour(space: StateSpace, from: number, required: readonly number[]): number[] | null | undefined {
  const k = required.length;
  if (k === 0) return [];
  if (k > EXACT_EDGES || space.size * 2 ** k > EXACT_LIMIT) return undefined;
  const bits = new Int32Array(space.graph.size);
  required.forEach((e, i) => (bits[e] |= 1 << i));
  const full = (1 << k) - 1;
  const width = 2 ** k;
  const node = (s: number, mask: number) => s * width + (mask >>> 0);
  const count = space.size * width;
  // Per pair: the transition that first reached it (-1: not reached), and the mask it came from.
  const via = new Int32Array(count).fill(-1);
  const fromMask = new Int32Array(count);
  const queue = new Int32Array(count);
  let tail = 0;
  const start = node(from, bits[space.vertexOf[from]]);
  if ((bits[space.vertexOf[from]] & full) === full) return [];
  queue[tail++] = start;
  via[start] = -2;
  for (let head = 0; head < tail; head++) {
    const n = queue[head];
    const s = Math.floor(n / width);
    const mask = n - s * width;
    for (let t = space.outStart[s]; t < space.outStart[s + 1]; t++) {
      const next = space.to[t];
      const m = mask | bits[space.edgeOf[t]] | bits[space.vertexOf[next]];
      const id = node(next, m);
      if (via[id] !== -1) continue;
      via[id] = t;
      fromMask[id] = mask;
      if ((m & full) === full) return unwind(space, via, fromMask, width, id);
      queue[tail++] = id;
    }
  }
  return null;
}

function unwind(space: StateSpace, via: Int32Array, fromMask: Int32Array, width: number, end: number): number[] {
  const tour: number[] = [];
  for (let id = end; via[id] !== -2; ) {
    const t = via[id];
    tour.push(t);
    id = sourceOf(space, t) * width + fromMask[id];
  }
  return tour.reverse();
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
): number[] | undefined {
  const via = new Int32Array(space.size).fill(-1);
  const depth = new Int32Array(space.size);
  via[from] = -2;
  let layer = [from];
  const found: number[] = [];
  while (layer.length > 0 && found.length === 0) {
    const next: number[] = [];
    for (const s of layer) {
      for (let t = space.outStart[s]; t < space.outStart[s + 1]; t++) {
        if (wanted(t)) {
          found.push(t);
          continue;
        }
        const w = space.to[t];
        if (via[w] !== -1) continue;
        via[w] = t;
        depth[w] = depth[s] + 1;
        next.push(w);
      }
    }
    layer = next;
  }
  if (found.length === 0) return undefined;
  const last = found[random.int(found.length)];
  const route = [last];
  for (let s = sourceOf(space, last); via[s] !== -2; s = sourceOf(space, via[s])) route.push(via[s]);
  return route.reverse();
}

/**
 * A tour from `from` over `required` made by heading for the nearest edge not yet taken, again and again:
 * for spaces too large for {@link exactTour}.
 */
export function greedyTour(space: StateSpace, from: number, required: readonly number[], random: RandomSource): number[] {
  const left = new Set(required);
  const tour: number[] = [];
  let at = from;
  while (left.size > 0) {
    const route = nearestRoute(space, at, (t) => left.has(space.edgeOf[t]), random);
    if (route === undefined) break;
    for (const t of route) {
      left.delete(space.edgeOf[t]);
      tour.push(t);
    }
    at = space.to[route[route.length - 1]];
  }
  return tour;
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
