import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadModelFile } from '../../../core/model/load.js';
import type { ModelFileJson } from '../../../core/model/types.js';
import { Walker } from '../../../core/walker.js';
import { builtinPlugins } from '../../../plugins/index.js';
import { COUNTER_MODELS, counterFile } from '../../support/counter-models.js';
import { unboundedCoverageOptimum, type OracleModel } from '../../support/guard-oracle.js';
import { coversWithClientData, walkCapped } from '../../support/guarded-walks.js';

/**
 * Planning on the fly (docs/planning.md, "Beyond the bound"): models whose counters have no bound, so that no
 * exploration holds every state. The generators are held to the oracle's optimum, found by a breadth-first
 * search over (state, covered edges) that ends at the first full cover; generated models hold the planner
 * to never doing worse than the graph alone, and the load to never calling a goal impossible that a random
 * walk reaches while a client sets data.
 */

let walker: Walker;
beforeAll(async () => {
  walker = await Walker.create(builtinPlugins());
});
afterAll(() => walker.dispose());

/** Below the states of every counter model, so that loads explore little and every walk plans on the fly. */
const PLAN_STATES = 3000;

describe('counter models without bound, planned on the fly', () => {
  it.each(COUNTER_MODELS.map((m) => [m.id, m] as const))('%s: shortest_all_paths walks the optimum, quick_random within 2x, random ends', (_, model) => {
    const optimum = unboundedCoverageOptimum(model) as number;
    expect(optimum).toBeGreaterThan(0);
    const loaded = loadModelFile(counterFile(model));
    const walk = (generator: string, seed: number, cap: number) => {
      const machine = walker.walk(loaded, { generator, seed, planStates: PLAN_STATES });
      try {
        let steps = 0;
        for (; steps < cap && machine.hasNext(); steps++) machine.next();
        return { steps, ended: !machine.hasNext(), planning: machine.planningFigures() };
      } finally {
        machine.dispose();
      }
    };
    for (const seed of [1, 2, 3]) {
      const tour = walk('shortest_all_paths(edge_coverage(100))', seed, 50 * optimum);
      expect({ seed, ended: tour.ended, within: tour.steps <= 1.05 * optimum, boundHit: tour.planning?.boundHit }).toEqual({
        seed,
        ended: true,
        within: true,
        boundHit: expect.stringMatching(/^(states|growth)$/),
      });
      const quick = walk('quick_random(edge_coverage(100))', seed, 50 * optimum);
      expect({ seed, ended: quick.ended, within: quick.steps <= 2 * optimum }).toEqual({ seed, ended: true, within: true });
      expect(walk('random(edge_coverage(100))', seed, 1000 * optimum).ended).toBe(true);
    }
  });
});

describe('a counter that only goes on, beside a guard that a reset closes for good', () => {
  // x0 counts at v0 without end; x1 needs x > 2 at v1, whose own action sets x to 0 (a property test's case).
  // Every state beyond the bound has grown past every number the scripts name, so none is worth going into:
  // before, quick_random and shortest_all_paths walked x0 for ever towards the next bound, looking for x1 open.
  const file = {
    models: [
      {
        id: 'm0',
        name: 'm0',
        startElementId: 'v0',
        actions: ['x = 0;'],
        vertices: [{ id: 'v0', name: 'v0' }, { id: 'v1', name: 'v1', actions: ['x = 0;'] }, { id: 'v2', name: 'v2' }],
        edges: [
          { id: 'r0', name: 'r0', sourceVertexId: 'v0', targetVertexId: 'v1', actions: ['x = x + 1;'] },
          { id: 'r1', name: 'r1', sourceVertexId: 'v1', targetVertexId: 'v2', actions: ['x = x + 1;'] },
          { id: 'r2', name: 'r2', sourceVertexId: 'v2', targetVertexId: 'v0', actions: ['x = x + 1;'] },
          { id: 'x0', name: 'x0', sourceVertexId: 'v0', targetVertexId: 'v0', actions: ['x = x + 1;'] },
          { id: 'x1', name: 'x1', sourceVertexId: 'v1', targetVertexId: 'v0', guard: 'x > 2' },
        ],
      },
    ],
  } as ModelFileJson;

  it.each(['quick_random', 'shortest_all_paths', 'random', 'weighted_random'])('%s ends once every vertex is covered and the walk is at v1', (name) => {
    const loaded = loadModelFile(file);
    for (const seed of [0, 1, 2, 3, 4]) {
      const walked = walkCapped(walker, loaded, `${name}(vertex_coverage(100) and reached_vertex(v1))`, seed, 200);
      expect({ seed, ended: walked.ended }).toEqual({ seed, ended: true });
    }
  });
});

/** A generated model of one counter without bound: a ring of unguarded edges (no dead end), and guarded extras. */
interface Shape {
  readonly vertices: number;
  readonly ring: readonly number[];
  readonly extra: ReadonlyArray<{ from: number; to: number; guard: number; k: number; action: number }>;
}

const RING_ACTIONS = ['', 'c++;', 'c = 0;'];
const ACTIONS = ['', 'c++;', 'c = 0;', 'c += 2;'];
const guardOf = (kind: number, k: number) => ['', `c >= ${k % 7}`, `c % ${2 + (k % 3)} == ${k % 2}`, `c < ${1 + (k % 5)}`][kind];

const shape: fc.Arbitrary<Shape> = fc.integer({ min: 2, max: 3 }).chain((vertices) =>
  fc.record({
    vertices: fc.constant(vertices),
    ring: fc.array(fc.integer({ min: 0, max: 2 }), { minLength: vertices, maxLength: vertices }),
    extra: fc.array(
      fc.record({
        from: fc.integer({ min: 0, max: vertices - 1 }),
        to: fc.integer({ min: 0, max: vertices - 1 }),
        guard: fc.integer({ min: 0, max: 3 }),
        k: fc.integer({ min: 0, max: 100 }),
        action: fc.integer({ min: 0, max: 3 }),
      }),
      { minLength: 2, maxLength: 5 },
    ),
  }),
);

/** With `bounded`, the counter stops at 6: few states, which a load explores whole and judges the guards by. */
function modelOf(s: Shape, bounded = false): OracleModel {
  const capped = (a: string) => (bounded ? a.replace('c++;', 'c = Math.min(c + 1, 6);').replace('c += 2;', 'c = Math.min(c + 2, 6);') : a);
  const action = (a: string) => (a === '' ? [] : [capped(a)]);
  const ring = s.ring.map((a, i) => ({ id: `r${i}`, name: `r${i}`, sourceVertexId: `v${i}`, targetVertexId: `v${(i + 1) % s.vertices}`, actions: action(RING_ACTIONS[a]) }));
  const extra = s.extra.map((e, i) => {
    const guard = guardOf(e.guard, e.k);
    return { id: `e${i}`, name: `e${i}`, sourceVertexId: `v${e.from}`, targetVertexId: `v${e.to}`, ...(guard === '' ? {} : { guard }), actions: action(ACTIONS[e.action]) };
  });
  const vertices = Array.from({ length: s.vertices }, (_, i) => ({ id: `v${i}`, name: `v${i}` }));
  return { id: 'generated', name: 'Generated', startElementId: 'v0', actions: ['c = 0;'], vertices, edges: [...ring, ...extra] };
}

const fileOf = (model: OracleModel): ModelFileJson => ({ models: [{ ...model, generator: 'random(never)' }] }) as unknown as ModelFileJson;

describe('generated models of a counter without bound', () => {
  it('the on-the-fly planner never walks longer than planning by the graph alone, and ends whenever it does', () => {
    const solvable = shape
      .map(modelOf)
      .map((model) => ({ model, optimum: unboundedCoverageOptimum(model, undefined, 20_000) }))
      .filter(({ optimum }) => optimum !== undefined);
    let compared = 0;
    fc.assert(
      fc.property(solvable, fc.integer({ min: 1, max: 1000 }), ({ model, optimum }, seed) => {
        const loaded = loadModelFile(fileOf(model));
        const cap = 50 * (optimum as number);
        const generator = 'shortest_all_paths(edge_coverage(100))';
        // A bound of 40 states: every model here has more, so the walk plans on the fly; 0 plans by the graph alone.
        const onTheFly = walkCapped(walker, loaded, generator, seed, cap, { planStates: 40 });
        const graphAlone = walkCapped(walker, loaded, generator, seed, cap, { planStates: 0 });
        if (graphAlone.ended) compared++;
        expect(onTheFly.ended || !graphAlone.ended).toBe(true);
        if (graphAlone.ended) expect(onTheFly.steps).toBeLessThanOrEqual(graphAlone.steps);
      }),
      { numRuns: 25, seed: 22 },
    );
    expect(compared).toBeGreaterThan(5);
  });

  it('no goal is called impossible that a random walk reaches while a client sets data', () => {
    let reachedAll = 0;
    let refusedOffline = 0;
    fc.assert(
      fc.property(shape.map((s) => modelOf(s, true)), fc.integer({ min: 1, max: 1000 }), fc.array(fc.integer({ min: 0, max: 6 }), { minLength: 50, maxLength: 50 }), (model, seed, data) => {
        const loaded = loadModelFile(fileOf(model));
        // A random walk whose client sets the counter between steps, as a test step may.
        if (!coversWithClientData(walker, loaded, seed, 300, 8, (i) => `c = ${data[i % data.length]};`)) return;
        reachedAll++;
        const goal = { seed, generator: 'random(edge_coverage(100))' };
        walker.walk(loaded, { ...goal, dataWriters: 'client' }).dispose();
        try {
          walker.walk(loaded, goal).dispose();
        } catch {
          // Where only the model writes, the guards may well forbid it: what the client's data lifted.
          refusedOffline++;
        }
      }),
      { numRuns: 40, seed: 22 },
    );
    expect(reachedAll).toBeGreaterThan(10);
    expect(refusedOffline).toBeGreaterThan(0);
  });
});
