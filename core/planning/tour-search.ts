import type { StateSpace } from './state-space.js';
import { ANY_FIRST, greedyTour, type FirstMoves } from './state-tours.js';
import type { RandomSource } from '../random.js';

/**
 * The shortest tour over a {@link StateSpace} that steps on every required element (docs/planning.md,
 * "Plans"): A* over pairs of a state and the set of required elements stepped on so far, guided by a lower
 * bound on the transitions still to take ({@link TourBounds}). Where the search would hold more pairs than
 * its budget, it stops with the best lower bound it proved, and a beam search over the order in which the
 * elements are covered makes the tour; the tour is then within (its length / that bound) of the optimum.
 */

/**
 * Pairs the search holds at most: about 30 bytes each, so 4 MiB at this budget, and one or two tenths of a
 * second of search on the 2-core CI machine. It proves the optimum of the 11-edge pick-up grid of
 * bench/planning.ts (3,025 states), which takes more than 2^16 pairs; each doubling about doubles the time,
 * and on the 25-edge grid, where no budget near this one proves the optimum, more pairs shortened no tour.
 */
export const SEARCH_NODES = 1 << 17;
/** Required elements the search takes on at most: a bit each in a positive 31-bit mask. */
const SEARCH_ELEMENTS = 30;
/** Partial tours the beam keeps per round. */
const BEAM_WIDTH = 64;
/** Orders of the elements the local search walks out at most: each is a route per element. */
const ORDER_TRIALS = 2000;
/** Distances stop counting here: a larger one is stored as this, which keeps the bound a lower bound. */
const FAR = 0xfffe;
/** No way at all. */
const NEVER = 0xffff;

/** What {@link searchTour} found. */
export type TourSearch =
  | { readonly kind: 'exact'; readonly tour: number[] }
  /** No walk from there steps on every required element. */
  | { readonly kind: 'none' }
  /** The budget ran out: no tour is shorter than `lowerBound` transitions. */
  | { readonly kind: 'cut'; readonly lowerBound: number };

/** A tour to walk, and what is known of how good it is. */
export interface PlannedTour {
  readonly tour: number[];
  /** True when no tour is shorter. */
  readonly exact: boolean;
  /** Transitions no tour steps on them all in fewer of: the tour is within `tour.length / lowerBound` of the best. */
  readonly lowerBound: number;
}

/**
 * Lower bounds on the transitions a tour still needs. Per required element, the fewest transitions from each
 * state until a walk has stepped on it (`distance`: the element's own transitions, or those into its vertex,
 * are at 1, the rest by breadth-first search over the transitions backwards), and between two elements the
 * fewest from any state right after stepping on one until stepping on the other (`gap`, 0 when one transition
 * steps on both). A tour from state s over the elements left R steps on them in some order, and the stretch
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
    this.distance = required.map((e) => distancesTo(space, into, e));
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

  /** `gap[i][j]`: the fewest transitions from a state right after stepping on i until stepping on j. */
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

function distancesTo(space: StateSpace, into: ReturnType<typeof incoming>, element: number): Uint16Array {
  const d = new Uint16Array(space.size).fill(NEVER);
  const queue = new Int32Array(space.size);
  let tail = 0;
  const isVertex = space.graph.isVertex(element);
  for (let t = 0; t < space.to.length; t++) {
    const hit = isVertex ? space.vertexOf[space.to[t]] === element : space.edgeOf[t] === element;
    const s = into.source[t];
    if (hit && d[s] === NEVER) {
      d[s] = 1;
      queue[tail++] = s;
    }
  }
  for (let head = 0; head < tail; head++) {
    const s = queue[head];
    const next = Math.min(d[s] + 1, FAR);
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
 * The shortest tour from `from` that steps on every element of `required` (edges, and vertices, which the
 * start state stands on already), or that none does, as far as {@link SEARCH_NODES} pairs tell; past
 * {@link SEARCH_ELEMENTS} elements nothing is searched.
 */
export function shortestTour(space: StateSpace, from: number, required: readonly number[], first: FirstMoves = ANY_FIRST): TourSearch {
  if (required.length > SEARCH_ELEMENTS) return { kind: 'cut', lowerBound: 0 };
  return searchTour(new TourBounds(space, required), from, first, SEARCH_NODES);
}

/**
 * A* from `from` over (state, covered) pairs. `first` says which transitions of `from` the tour may begin
 * with; when it rules one out, `from` may be come back to (a guard chance closed now may open then).
 */
function searchTour(bounds: TourBounds, from: number, first: FirstMoves, budget: number): TourSearch {
  const space = bounds.space;
  const full = bounds.full;
  const start = bounds.bits[space.vertexOf[from]] & full;
  if (start === full) return { kind: 'exact', tour: [] };
  const h0 = bounds.bound(from, start);
  if (h0 === NEVER) return { kind: 'none' };
  const nodes = new NodeTable();
  const open = new Buckets();
  let reentry = false;
  for (let t = space.outStart[from]; t < space.outStart[from + 1]; t++) if (!first(t)) reentry = true;
  // The root: expanded once, with `first`; unless it may be come back to, its pair counts as reached.
  if (!reentry) nodes.expanded[nodes.insert(from, start, -1, -1, 0)] = 1;
  const relax = (parent: number, state: number, mask: number, g: number): void => {
    for (let t = space.outStart[state]; t < space.outStart[state + 1]; t++) {
      if (parent < 0 && !first(t)) continue;
      const next = space.to[t];
      const m = mask | bounds.covers(t);
      const h = bounds.bound(next, m);
      if (h === NEVER) continue;
      let n = nodes.find(next, m);
      if (n >= 0 && nodes.g[n] <= g + 1) continue;
      // A shorter way to a pair already expanded opens it again: the bound is a lower bound, but may fall
      // by more than one per transition, and the optimum must not be missed for it.
      if (n < 0) n = nodes.insert(next, m, parent, t, g + 1);
      else nodes.update(n, parent, t, g + 1);
      nodes.expanded[n] = 0;
      open.push(g + 1 + h, n);
    }
  };
  relax(-1, from, start, 0);
  for (;;) {
    const n = open.pop();
    if (n < 0) return { kind: 'none' };
    const state = nodes.state[n];
    const mask = nodes.mask[n];
    const g = nodes.g[n];
    if (nodes.expanded[n] === 1 || g + bounds.bound(state, mask) !== open.current) continue;
    if (mask === full) return { kind: 'exact', tour: nodes.path(n) };
    if (nodes.count > budget) return { kind: 'cut', lowerBound: open.current };
    nodes.expanded[n] = 1;
    relax(n, state, mask, g);
  }
}

/**
 * The tour to walk from `from` over `required`: the optimum where the search finds it within `budget` pairs,
 * else the shorter of a beam search and heading for the nearest element again and again, with the bound the
 * search proved. When no walk from there steps on them all, the nearest-first tour covers what it can.
 */
export function planTour(
  space: StateSpace,
  from: number,
  required: readonly number[],
  random: RandomSource,
  first: FirstMoves = ANY_FIRST,
  budget = SEARCH_NODES,
): PlannedTour {
  if (required.length > SEARCH_ELEMENTS) return { tour: greedyTour(space, from, required, random, first), exact: false, lowerBound: 0 };
  const bounds = new TourBounds(space, required);
  const found = searchTour(bounds, from, first, budget);
  if (found.kind === 'exact') return { tour: found.tour, exact: true, lowerBound: found.tour.length };
  const greedy = greedyTour(space, from, required, random, first);
  if (found.kind === 'none') return { tour: greedy, exact: false, lowerBound: 0 };
  const beam = beamTour(bounds, from, first);
  // Nearest-first may strand itself where an element left is out of reach; the beam's tours take them all.
  const tour = beam !== undefined && (beam.length <= greedy.length || !takesAll(bounds, from, greedy)) ? beam : greedy;
  return { tour: takesAll(bounds, from, tour) ? improveOrder(bounds, from, tour, first) : tour, exact: false, lowerBound: found.lowerBound };
}

/**
 * Local search over the order in which a tour first steps on the required elements: moves one element to
 * another place in the order, or reverses a stretch of it, walks the order out (the shortest route to each
 * element not yet stepped on, in turn), and keeps the change when the tour is shorter, until no change
 * shortens it or {@link ORDER_TRIALS} orders were walked out. Where nearest-first and the beam choose well
 * one step at a time, this mends what their choices cost later.
 */
function improveOrder(bounds: TourBounds, from: number, tour: number[], first: FirstMoves): number[] {
  let order = orderOf(bounds, from, tour);
  let best = tour;
  let trials = 0;
  const tryOrder = (changed: number[]): boolean => {
    trials++;
    const walked = walkOrder(bounds, from, changed, first);
    if (walked === undefined || walked.length >= best.length) return false;
    [best, order] = [walked, changed];
    return true;
  };
  for (let improved = true; improved && trials < ORDER_TRIALS; ) {
    improved = false;
    for (let a = 0; a < order.length && !improved && trials < ORDER_TRIALS; a++) {
      for (let b = 0; b < order.length && !improved && trials < ORDER_TRIALS; b++) {
        if (a === b) continue;
        const moved = [...order];
        moved.splice(b, 0, ...moved.splice(a, 1));
        improved = tryOrder(moved) || (a < b && tryOrder([...order.slice(0, a), ...order.slice(a, b + 1).reverse(), ...order.slice(b + 1)]));
      }
    }
  }
  return best;
}

/** The required elements in the order a tour first steps on them. */
function orderOf(bounds: TourBounds, from: number, tour: readonly number[]): number[] {
  const order: number[] = [];
  let mask = bounds.bits[bounds.space.vertexOf[from]];
  for (const t of tour) {
    for (let fresh = bounds.covers(t) & ~mask; fresh !== 0; fresh &= fresh - 1) order.push(31 - Math.clz32(fresh & -fresh));
    mask |= bounds.covers(t);
  }
  return order;
}

/** The tour that heads for each element of `order` in turn, skipping those stepped on by the way; undefined when one cannot be reached. */
function walkOrder(bounds: TourBounds, from: number, order: readonly number[], first: FirstMoves): number[] | undefined {
  const tour: number[] = [];
  let state = from;
  let mask = bounds.bits[bounds.space.vertexOf[from]];
  for (const i of order) {
    if ((mask & (1 << i)) !== 0) continue;
    const route = routeTo(bounds, i, state, mask, tour.length === 0 ? first : ANY_FIRST);
    if (route === undefined) return undefined;
    for (const t of route.transitions) tour.push(t);
    [state, mask] = [route.state, route.mask];
  }
  return tour;
}

/** Whether `tour` from `from` steps on every required element. */
function takesAll(bounds: TourBounds, from: number, tour: readonly number[]): boolean {
  let mask = bounds.bits[bounds.space.vertexOf[from]];
  for (const t of tour) mask |= bounds.covers(t);
  return (mask & bounds.full) === bounds.full;
}

/** A partial tour of the beam: where it stands, what it covered, its length, and how it got there. */
interface Partial {
  readonly state: number;
  readonly mask: number;
  readonly g: number;
  readonly parent: Partial | undefined;
  readonly route: readonly number[];
}

/**
 * A beam search over the order in which the required elements are covered: each round extends every
 * partial tour kept by the shortest route to each element it has not covered (taking the others it passes
 * on the way), and keeps the {@link BEAM_WIDTH} whose length plus lower bound is least. Undefined when no
 * partial tour covers them all.
 */
export function beamTour(bounds: TourBounds, from: number, first: FirstMoves = ANY_FIRST): number[] | undefined {
  const space = bounds.space;
  const full = bounds.full;
  let beam: Partial[] = [{ state: from, mask: bounds.bits[space.vertexOf[from]] & full, g: 0, parent: undefined, route: [] }];
  let best: Partial | undefined;
  while (beam.length > 0) {
    const next = new Map<string, { p: Partial; f: number }>();
    for (const p of beam) {
      if (p.mask === full) {
        if (best === undefined || p.g < best.g) best = p;
        continue;
      }
      for (let left = full & ~p.mask; left !== 0; left &= left - 1) {
        const i = 31 - Math.clz32(left & -left);
        const route = routeTo(bounds, i, p.state, p.mask, p.parent === undefined ? first : ANY_FIRST);
        if (route === undefined) continue;
        const child: Partial = { state: route.state, mask: route.mask, g: p.g + route.transitions.length, parent: p, route: route.transitions };
        const key = `${child.state},${child.mask}`;
        const seen = next.get(key);
        if (seen === undefined || child.g < seen.p.g) next.set(key, { p: child, f: child.g + bounds.bound(child.state, child.mask) });
      }
    }
    beam = [...next.values()]
      .filter(({ p }) => best === undefined || p.g < best.g)
      .sort((a, b) => a.f - b.f || b.p.mask - a.p.mask)
      .slice(0, BEAM_WIDTH)
      .map(({ p }) => p);
  }
  if (best === undefined) return undefined;
  const tour: number[] = [];
  for (let p: Partial | undefined = best; p !== undefined; p = p.parent) tour.unshift(...p.route);
  return tour;
}

/**
 * The shortest route from `state` until element `i` is stepped on, following its distances down: at each
 * state the first transition that gets closer, preferring one that covers another element not yet covered.
 */
function routeTo(
  bounds: TourBounds,
  i: number,
  state: number,
  mask: number,
  first: FirstMoves,
): { transitions: number[]; state: number; mask: number } | undefined {
  const space = bounds.space;
  const d = bounds.distance[i];
  const bit = 1 << i;
  const transitions: number[] = [];
  let at = state;
  let covered = mask;
  while ((covered & bit) === 0) {
    let pick = -1;
    let pickCovers = false;
    for (let t = space.outStart[at]; t < space.outStart[at + 1]; t++) {
      if (transitions.length === 0 && !first(t)) continue;
      const c = bounds.covers(t);
      const closer = (c & bit) !== 0 || d[space.to[t]] < d[at];
      if (!closer) continue;
      const more = (c & ~covered) !== 0;
      if (pick < 0 || (more && !pickCovers)) [pick, pickCovers] = [t, more];
    }
    if (pick < 0) return undefined;
    transitions.push(pick);
    covered |= bounds.covers(pick);
    at = space.to[pick];
  }
  return { transitions, state: at, mask: covered };
}

/** The pairs of the search, in growable arrays, and an open-addressing index of them by (state, mask). */
class NodeTable {
  count = 0;
  state = new Int32Array(1024);
  mask = new Int32Array(1024);
  parent = new Int32Array(1024);
  via = new Int32Array(1024);
  g = new Int32Array(1024);
  expanded = new Uint8Array(1024);
  private slots = new Int32Array(2048).fill(-1);

  find(state: number, mask: number): number {
    const m = this.slots.length - 1;
    for (let i = hash(state, mask) & m; ; i = (i + 1) & m) {
      const n = this.slots[i];
      if (n < 0 || (this.state[n] === state && this.mask[n] === mask)) return n;
    }
  }

  insert(state: number, mask: number, parent: number, via: number, g: number): number {
    if (this.count === this.state.length) this.grow();
    const n = this.count++;
    this.state[n] = state;
    this.mask[n] = mask;
    this.update(n, parent, via, g);
    this.place(n);
    if (this.count * 2 > this.slots.length) this.rehash();
    return n;
  }

  update(n: number, parent: number, via: number, g: number): void {
    this.parent[n] = parent;
    this.via[n] = via;
    this.g[n] = g;
  }

  /** The transitions from the root to pair `n`. */
  path(n: number): number[] {
    const tour: number[] = [];
    for (let at = n; at >= 0 && this.via[at] >= 0; at = this.parent[at]) tour.push(this.via[at]);
    return tour.reverse();
  }

  private place(n: number): void {
    const m = this.slots.length - 1;
    let i = hash(this.state[n], this.mask[n]) & m;
    while (this.slots[i] >= 0) i = (i + 1) & m;
    this.slots[i] = n;
  }

  private grow(): void {
    const size = this.state.length * 2;
    const grown = <T extends Int32Array | Uint8Array>(a: T): T => {
      const b = new (a.constructor as new (n: number) => T)(size);
      b.set(a);
      return b;
    };
    [this.state, this.mask, this.parent, this.via, this.g] = [this.state, this.mask, this.parent, this.via, this.g].map(grown);
    this.expanded = grown(this.expanded);
  }

  private rehash(): void {
    this.slots = new Int32Array(this.slots.length * 2).fill(-1);
    for (let n = 0; n < this.count; n++) this.place(n);
  }
}

function hash(state: number, mask: number): number {
  return (Math.imul(state, 0x9e3779b1) ^ Math.imul(mask, 0x85ebca6b)) >>> 0;
}

/** Pairs by their f (length so far plus lower bound), popped least f first, last in first out within one. */
class Buckets {
  /** The f of the bucket last popped from: no pair left has a smaller one. */
  current = 0;
  private readonly buckets: number[][] = [];

  push(f: number, n: number): void {
    (this.buckets[f] ??= []).push(n);
    if (f < this.current) this.current = f;
  }

  pop(): number {
    for (; this.current < this.buckets.length; this.current++) {
      const bucket = this.buckets[this.current];
      if (bucket !== undefined && bucket.length > 0) return bucket.pop()!;
    }
    return -1;
  }
}
