import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadModelFile } from '../../../core/model/load.js';
import type { ModelFileJson } from '../../../core/model/types.js';
import type { StateSpace } from '../../../core/planning/state-space.js';
import { planTour } from '../../../core/planning/tour-search.js';
import { createRandom } from '../../../core/random.js';
import { Walker } from '../../../core/walker.js';
import { builtinPlugins } from '../../../plugins/index.js';
import { coverageOptimum, exploreModel, type OracleModel } from '../../support/guard-oracle.js';
import { walkCapped } from '../../support/guarded-walks.js';
import { edgesOf, pickUpGrid, plainStatesOf } from '../../support/planning-models.js';

/**
 * Tours over the states (core/planning/tour-search.ts), held to the brute-force oracle (guard-oracle.ts) on
 * generated guarded models far larger than the fixtures (up to 800 states, and a grid of 3,025): the search's
 * tour is the optimum when it says so, its lower bound is never above the optimum, and its tours, exact or
 * not, are walks of the space that take every edge.
 */

let walker: Walker;
beforeAll(async () => {
  walker = await Walker.create(builtinPlugins());
});

/** The shape of a generated model: a ring of vertices, then edges with a guard and an action each. */
interface Shape {
  readonly vertices: number;
  /** `x` counts 0..max, `y` 0..cycle-1, `on` is a flag. */
  readonly max: number;
  readonly cycle: number;
  readonly ring: readonly number[];
  readonly extra: ReadonlyArray<{ from: number; to: number; guard: number; bound: number; action: number }>;
}

const RING_ACTIONS = (s: Shape) => [`x = Math.min(x + 1, ${s.max});`, `y = (y + 1) % ${s.cycle};`, 'on = !on;'];
const ACTIONS = (s: Shape) => [...RING_ACTIONS(s), '', 'x = Math.max(x - 1, 0);', 'x = 0;'];
const GUARDS = (s: Shape, c: number) => ['', `x < ${1 + (c % s.max)}`, `x == ${c % (s.max + 1)}`, `x > ${c % s.max}`, `y == ${c % s.cycle}`, 'on', '!on', `x >= ${c % (s.max + 1)} && on`];

const shape: fc.Arbitrary<Shape> = fc
  .record({ vertices: fc.integer({ min: 2, max: 4 }), max: fc.integer({ min: 3, max: 24 }), cycle: fc.integer({ min: 1, max: 3 }) })
  .chain((s) =>
    fc.record({
      vertices: fc.constant(s.vertices),
      max: fc.constant(s.max),
      cycle: fc.constant(s.cycle),
      ring: fc.array(fc.integer({ min: 0, max: 2 }), { minLength: s.vertices, maxLength: s.vertices }),
      extra: fc.array(
        fc.record({
          from: fc.integer({ min: 0, max: s.vertices - 1 }),
          to: fc.integer({ min: 0, max: s.vertices - 1 }),
          guard: fc.integer({ min: 0, max: 7 }),
          bound: fc.integer({ min: 0, max: 100 }),
          action: fc.integer({ min: 0, max: 5 }),
        }),
        { minLength: 3, maxLength: 12 - s.vertices },
      ),
    }),
  );

function modelOf(s: Shape): OracleModel {
  const vertices = Array.from({ length: s.vertices }, (_, i) => ({ id: `v${i}`, name: `v${i}` }));
  const action = (a: string) => (a === '' ? [] : [a]);
  const ring = s.ring.map((a, i) => ({
    id: `r${i}`,
    name: `r${i}`,
    sourceVertexId: `v${i}`,
    targetVertexId: `v${(i + 1) % s.vertices}`,
    actions: action(RING_ACTIONS(s)[a]),
  }));
  const extra = s.extra.map((e, i) => {
    const guard = GUARDS(s, e.bound)[e.guard];
    return {
      id: `e${i}`,
      name: `e${i}`,
      sourceVertexId: `v${e.from}`,
      targetVertexId: `v${e.to}`,
      ...(guard === '' ? {} : { guard }),
      actions: action(ACTIONS(s)[e.action]),
    };
  });
  return { id: 'generated', name: 'Generated', startElementId: 'v0', actions: ['x = 0;', 'y = 0;', 'on = false;'], vertices, edges: [...ring, ...extra] };
}

/** Checks that `tour` is a walk of the space from state 0, and answers the edges it takes. */
function walkOf(space: StateSpace, tour: readonly number[]): Set<number> {
  let at = 0;
  const taken = new Set<number>();
  for (const t of tour) {
    expect(t >= space.outStart[at] && t < space.outStart[at + 1], `transition ${t} leaves state ${at}`).toBe(true);
    taken.add(space.edgeOf[t]);
    at = space.to[t];
  }
  return taken;
}

/** Generated models whose edges one walk can all take, with the oracle's optimum in transitions. */
const solvable = shape
  .map((s) => modelOf(s))
  .map((model) => ({ model, optimum: coverageOptimum(exploreModel(model)) }))
  .filter(({ optimum }) => optimum.steps !== undefined)
  .map(({ model, optimum }) => ({ model, moves: ((optimum.steps as number) - 1) / 2 }));

describe('tours over the states of generated guarded models, against the oracle', () => {
  it('are the optimum, found by the search within its budget', () => {
    let states = 0;
    fc.assert(
      fc.property(solvable, ({ model, moves }) => {
        const space = plainStatesOf(model);
        states = Math.max(states, space.size);
        const plan = planTour(space, 0, edgesOf(space), createRandom(1));
        expect({ exact: plan.exact, moves: plan.tour.length }).toEqual({ exact: true, moves });
        expect(walkOf(space, plan.tour)).toEqual(new Set(edgesOf(space)));
      }),
      { numRuns: 25, seed: 13 },
    );
    // The generated models are larger than the fixtures (at most 16 states): the test means what it says.
    expect(states).toBeGreaterThan(200);
  });

  it('beyond the budget, are walks that take every edge, no shorter than the bound the search proved, which is no higher than the optimum', () => {
    let beyond = 0;
    fc.assert(
      fc.property(solvable, ({ model, moves }) => {
        const space = plainStatesOf(model);
        // 64 pairs: far too few for the search, so the beam and nearest-first make the tour.
        const plan = planTour(space, 0, edgesOf(space), createRandom(1), undefined, 64);
        if (!plan.exact) beyond++;
        expect(walkOf(space, plan.tour)).toEqual(new Set(edgesOf(space)));
        // The bound counts steps: two per edge taken.
        expect(plan.lowerBound).toBeLessThanOrEqual(2 * moves);
        expect(plan.tour.length).toBeGreaterThanOrEqual(moves);
      }),
      { numRuns: 25, seed: 17 },
    );
    expect(beyond).toBeGreaterThan(15);
  });

  it('shortest_all_paths walks the optimum of every generated model on every seed', () => {
    fc.assert(
      fc.property(solvable, ({ model, moves }) => {
        const loaded = loadModelFile({ models: [model] } as ModelFileJson);
        // The start vertex, then an edge and its target per move.
        const best = 1 + 2 * moves;
        for (const seed of [1, 2, 3]) {
          expect(walkCapped(walker, loaded, 'shortest_all_paths(edge_coverage(100))', seed, 50 * best)).toEqual({ steps: best, ended: true });
        }
      }),
      { numRuns: 15, seed: 23 },
    );
  });

  it("on a grid of 3,025 states and 11 edges, where nearest-first is a travelling salesman's nearest neighbour", () => {
    const model = pickUpGrid(55, 7, 3);
    const best = coverageOptimum(exploreModel(model)).steps as number;
    const space = plainStatesOf(model);
    const plan = planTour(space, 0, edgesOf(space), createRandom(1));
    expect({ states: space.size, exact: plan.exact, steps: 1 + 2 * plan.tour.length }).toEqual({ states: 55 * 55, exact: true, steps: best });
    const loaded = loadModelFile({ models: [model] } as ModelFileJson);
    expect(walkCapped(walker, loaded, 'shortest_all_paths(edge_coverage(100))', 1, 50 * best)).toEqual({ steps: best, ended: true });
  });
});
