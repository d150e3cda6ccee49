import { stepsOf, type StateSpace } from './state-space.js';

/** Required elements the search takes on at most: a bit each in a positive 31-bit mask. */
export const SEARCH_ELEMENTS = 30;
/** Distances stop counting here: a larger one is stored as this, which keeps the bound a lower bound. */
const FAR = 0xfffe;
/** No way at all. */
export const NEVER = 0xffff;

/**
 * Lower bounds on the steps a tour still needs, counted as the elements it hands out: a transition over an
 * edge is two, a jump through a shared state one ({@link stepsOf}). Per required element, the fewest steps
 * from each state until a walk has stepped on it (`distance`: the element's own transitions, or those into its
 * vertex, cost their own steps, the rest by a shortest-path search over the transitions backwards), and
 * between two elements the fewest from any state right after stepping on one until stepping on the other
 * (`gap`, 0 when one transition steps on both). A tour from state s over the elements left R steps on them in some order, and the stretch
 * that ends on each j costs at least `distance[j][s]` when j comes first, else `gap[i][j]` for the i before
 * it: so at least the sum over j of the least of those, and at least the largest `distance[j][s]`. Both are
 * lower bounds: A* with them finds the optimum, and whatever it has left open when it stops bounds it.
 */
export class TourBounds {
  /** Per required element i, `distance[i][state]`. */
  readonly distance: Uint16Array[];
  /** Per element of the graph, its bit among the required ones (0 when not required). */
  readonly bits: Int32Array;
  readonly full: number;
  /** Per required element j, the others by their gap to j, nearest first, and those gaps. */
  private readonly before: Int32Array[];
  private readonly beforeGap: Int32Array[];

  constructor(
    readonly space: StateSpace,
    readonly required: readonly number[],
  ) {
    const g = space.graph;
    this.bits = new Int32Array(g.size);
    required.forEach((e, i) => (this.bits[e] |= 1 << i));
    if (required.length > SEARCH_ELEMENTS) throw new RangeError(`at most ${SEARCH_ELEMENTS} required elements, got ${required.length}`);
    this.full = (1 << required.length) - 1;
    const into = incoming(space);
    const jumps = space.edgeOf.some((e) => e < g.vertexCount);
    this.distance = required.map((e) => (jumps ? weightedDistancesTo : distancesTo)(space, into, e));
    const gaps = this.gaps();
    this.before = required.map((_, j) => Int32Array.from(required.map((__, i) => i).filter((i) => i !== j && gaps[i][j] !== NEVER)).sort((a, b) => gaps[a][j] - gaps[b][j]));
    this.beforeGap = this.before.map((list, j) => list.map((i) => gaps[i][j]));
  }

  /** The lower bound from `state` with `mask` covered; {@link NEVER} when some element left cannot be reached. */
  bound(state: number, mask: number): number {
    const left = this.full & ~mask;
    let most = 0;
    let sum = 0;
    for (let rest = left; rest !== 0; rest &= rest - 1) {
      const j = 31 - Math.clz32(rest & -rest);
      const d = this.distance[j][state];
      if (d === NEVER) return NEVER;
      if (d > most) most = d;
      let least = d;
      const before = this.before[j];
      for (let k = 0; k < before.length && this.beforeGap[j][k] < least; k++) {
        if ((left & (1 << before[k])) !== 0) {
          least = this.beforeGap[j][k];
          break;
        }
      }
      sum += least;
    }
    return most > sum ? most : sum;
  }

  /** `gap[i][j]`: the fewest steps from a state right after stepping on i until stepping on j. */
  private gaps(): Int32Array[] {
    const space = this.space;
    const k = this.required.length;
    const gap = Array.from({ length: k }, () => new Int32Array(k).fill(NEVER));
    for (let t = 0; t < space.to.length; t++) {
      const c = this.covers(t);
      for (let rest = c; rest !== 0; rest &= rest - 1) {
        const i = 31 - Math.clz32(rest & -rest);
        for (let j = 0; j < k; j++) {
          const d = (c & (1 << j)) !== 0 ? 0 : this.distance[j][space.to[t]];
          if (d < gap[i][j]) gap[i][j] = d;
        }
      }
    }
    return gap;
  }

  /** The bits a transition covers: its edge's and its target vertex's. */
  covers(transition: number): number {
    const s = this.space;
    return this.bits[s.edgeOf[transition]] | this.bits[s.vertexOf[s.to[transition]]];
  }
}

/** Per state, the transitions into it (a CSR of the space reversed). */
function incoming(space: StateSpace): { start: Int32Array; transitions: Int32Array; source: Int32Array } {
  const start = new Int32Array(space.size + 1);
  const count = space.to.length;
  for (let t = 0; t < count; t++) start[space.to[t] + 1]++;
  for (let s = 0; s < space.size; s++) start[s + 1] += start[s];
  const fill = start.slice(0, space.size);
  const transitions = new Int32Array(count);
  const source = new Int32Array(count);
  for (let s = 0; s < space.size; s++) {
    for (let t = space.outStart[s]; t < space.outStart[s + 1]; t++) {
      source[t] = s;
      transitions[fill[space.to[t]]++] = t;
    }
  }
  return { start, transitions, source };
}

/**
 * The fewest steps from each state until `element` is stepped on, where every transition is an edge (two
 * steps): breadth-first over the transitions backwards.
 */
function distancesTo(space: StateSpace, into: ReturnType<typeof incoming>, element: number): Uint16Array {
  const d = new Uint16Array(space.size).fill(NEVER);
  const queue = new Int32Array(space.size);
  let tail = 0;
  const isVertex = space.graph.isVertex(element);
  for (let t = 0; t < space.to.length; t++) {
    const hit = isVertex ? space.vertexOf[space.to[t]] === element : space.edgeOf[t] === element;
    const s = into.source[t];
    if (hit && d[s] === NEVER) {
      d[s] = 2;
      queue[tail++] = s;
    }
  }
  for (let head = 0; head < tail; head++) {
    const s = queue[head];
    const next = Math.min(d[s] + 2, FAR);
    for (let i = into.start[s]; i < into.start[s + 1]; i++) {
      const p = into.source[into.transitions[i]];
      if (d[p] === NEVER) {
        d[p] = next;
        queue[tail++] = p;
      }
    }
  }
  return d;
}

/**
 * {@link distancesTo} where some transitions are jumps (one step): Dial's shortest paths over the transitions
 * backwards, with a bucket per distance.
 */
function weightedDistancesTo(space: StateSpace, into: ReturnType<typeof incoming>, element: number): Uint16Array {
  const d = new Uint16Array(space.size).fill(NEVER);
  const buckets: number[][] = [];
  const reach = (s: number, steps: number): void => {
    if (steps >= d[s]) return;
    d[s] = steps;
    (buckets[steps] ??= []).push(s);
  };
  const isVertex = space.graph.isVertex(element);
  for (let t = 0; t < space.to.length; t++) {
    const hit = isVertex ? space.vertexOf[space.to[t]] === element : space.edgeOf[t] === element;
    if (hit) reach(into.source[t], stepsOf(space, t));
  }
  for (let at = 0; at < buckets.length; at++) {
    const bucket = buckets[at];
    if (bucket === undefined) continue;
    for (const s of bucket) {
      if (d[s] !== at) continue;
      for (let i = into.start[s]; i < into.start[s + 1]; i++) {
        const t = into.transitions[i];
        reach(into.source[t], Math.min(at + stepsOf(space, t), FAR));
      }
    }
  }
  return d;
}
