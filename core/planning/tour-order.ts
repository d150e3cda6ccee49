import { ANY_FIRST, type FirstMoves } from './state-tours.js';
import { stepsOf, tourSteps } from './state-space.js';
import type { TourBounds } from './tour-bounds.js';

/**
 * Tours over a state space where the exact search of tour-search.ts does not fit its budget: a beam search
 * over the order in which the required elements are covered, and a local search that mends an order.
 */

/** Partial tours the beam keeps per round. */
const BEAM_WIDTH = 64;
/** Orders of the elements the local search walks out at most: each is a route per element. */
const ORDER_TRIALS = 2000;
/**
 * Local search over the order in which a tour first steps on the required elements: moves one element to
 * another place in the order, or reverses a stretch of it, walks the order out (the shortest route to each
 * element not yet stepped on, in turn), and keeps the change when the tour is shorter, until no change
 * shortens it or {@link ORDER_TRIALS} orders were walked out. Where nearest-first and the beam choose well
 * one step at a time, this mends what their choices cost later.
 */
export function improveOrder(bounds: TourBounds, from: number, tour: number[], first: FirstMoves): number[] {
  let order = orderOf(bounds, from, tour);
  let best = tour;
  let bestSteps = tourSteps(bounds.space, tour);
  let trials = 0;
  const tryOrder = (changed: number[]): boolean => {
    trials++;
    const walked = walkOrder(bounds, from, changed, first);
    if (walked === undefined) return false;
    const steps = tourSteps(bounds.space, walked);
    if (steps >= bestSteps) return false;
    [best, order, bestSteps] = [walked, changed, steps];
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
export function takesAll(bounds: TourBounds, from: number, tour: readonly number[]): boolean {
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
        const child: Partial = { state: route.state, mask: route.mask, g: p.g + tourSteps(bounds.space, route.transitions), parent: p, route: route.transitions };
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
 * state the first transition on a shortest way, preferring one that covers another element not yet covered.
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
      const steps = stepsOf(space, t);
      const closer = (c & bit) !== 0 ? steps === d[at] : d[space.to[t]] + steps === d[at];
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
