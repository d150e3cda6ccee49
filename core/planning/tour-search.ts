import { stepsOf, tourSteps, type StateSpace } from './state-space.js';
import { ANY_FIRST, greedyTour, type FirstMoves } from './state-tours.js';
import { NEVER, SEARCH_ELEMENTS, TourBounds } from './tour-bounds.js';
import { beamTour, improveOrder, takesAll } from './tour-order.js';
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
/** What {@link searchTour} found. */
export type TourSearch =
  | { readonly kind: 'exact'; readonly tour: number[] }
  /** No walk from there steps on every required element. */
  | { readonly kind: 'none' }
  /** The budget ran out: no tour hands out fewer than `lowerBound` elements (steps). */
  | { readonly kind: 'cut'; readonly lowerBound: number };

/** A tour to walk, and what is known of how good it is. */
export interface PlannedTour {
  readonly tour: number[];
  /** True when no tour is shorter. */
  readonly exact: boolean;
  /**
   * Steps (elements handed out, {@link stepsOf}) no tour steps on them all in fewer of: the tour is within
   * `tourSteps(space, tour) / lowerBound` of the best.
   */
  readonly lowerBound: number;
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
      const gt = g + stepsOf(space, t);
      let n = nodes.find(next, m);
      if (n >= 0 && nodes.g[n] <= gt) continue;
      // A shorter way to a pair already expanded opens it again: the bound is a lower bound, but may fall
      // by more than a transition's steps, and the optimum must not be missed for it.
      if (n < 0) n = nodes.insert(next, m, parent, t, gt);
      else nodes.update(n, parent, t, gt);
      nodes.expanded[n] = 0;
      open.push(gt + h, n);
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
  if (found.kind === 'exact') return { tour: found.tour, exact: true, lowerBound: tourSteps(space, found.tour) };
  const greedy = greedyTour(space, from, required, random, first);
  if (found.kind === 'none') return { tour: greedy, exact: false, lowerBound: 0 };
  const beam = beamTour(bounds, from, first);
  // Nearest-first may strand itself where an element left is out of reach; the beam's tours take them all.
  const tour = beam !== undefined && (tourSteps(space, beam) <= tourSteps(space, greedy) || !takesAll(bounds, from, greedy)) ? beam : greedy;
  return { tour: takesAll(bounds, from, tour) ? improveOrder(bounds, from, tour, first) : tour, exact: false, lowerBound: found.lowerBound };
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
