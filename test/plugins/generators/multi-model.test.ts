import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { PathGeneratorFactory } from '../../../core/generator.js';
import { WalkMemoMap } from '../../../core/machine/chain.js';
import { createRandom } from '../../../core/random.js';
import {
  aStarGenerator,
  planCoveringWalk,
  quickRandomGenerator,
  shortestAllPathsGenerator,
} from '../../../plugins/generators/index.js';
import { coveredAllModels, createGenerator, runJoined, TestWalk } from './harness.js';
import { at, hubModels, randomJoinedModels } from './models.js';
import { joinedStepsTo } from './reference.js';

/** The hub file has 14 edges: every one stepped on is 28 steps, plus the jumps between the four models. */
const HUB_EDGES = 14;
const SEEDS = Array.from({ length: 20 }, (_, i) => i + 1);

/** Steps after the start element until every edge of every model is covered, for each seed. */
function coverageSteps(factory: PathGeneratorFactory): number[] {
  const graph = hubModels();
  return SEEDS.map((seed) => {
    const result = runJoined(factory, graph, { seed, until: coveredAllModels(HUB_EDGES), maxSteps: 5000 });
    expect(coveredAllModels(HUB_EDGES)(result.walk)).toBe(true);
    return result.walk.steps - 1;
  });
}

/** Stands a walk of the hub file on `vertex`, with every edge visited but those named. */
function standOn(vertex: string, model: number, unvisited: readonly string[]): { walk: TestWalk; v: number } {
  const graph = hubModels();
  const walk = new TestWalk(graph, 1);
  for (let e = graph.vertexCount; e < graph.size; e++) if (!unvisited.includes(graph.ids[e])) walk.step(e);
  const v = at(graph, vertex, model);
  walk.step(v);
  return { walk, v };
}

describe('planning across the models of a file joined by shared states', () => {
  it('quick_random covers every model, one reachable only through another included, by shortest ways through jumps', () => {
    // Between two edges walked for the first time it walks a shortest way, jumps included, to the nearest edge
    // not walked yet, as exhaustive search over the joined graph (reference.ts) measures it.
    const graph = hubModels();
    for (const seed of SEEDS) {
      const { path, walk } = runJoined(quickRandomGenerator, graph, { seed, until: coveredAllModels(HUB_EDGES), maxSteps: 5000 });
      expect(coveredAllModels(HUB_EDGES)(walk)).toBe(true);
      const walked = new Set<number>();
      let from = 0;
      for (let i = 0; i < path.length; i++) {
        const e = path[i];
        if (graph.isVertex(e) || walked.has(e)) continue;
        const isNew = (x: number) => !graph.isVertex(x) && graph.source[x] >= 0 && !walked.has(x);
        expect(i - from).toBe(joinedStepsTo(graph, path[from], isNew));
        walked.add(e);
        from = i + 1;
      }
    }
  });

  it('shortest_all_paths walks its planned tour through all four models without a step more', () => {
    const graph = hubModels();
    const plan = planCoveringWalk(graph, graph.models[0].startElement, () => true);
    const tourSteps = plan.tour.reduce((steps, m) => steps + (graph.isVertex(m) ? 1 : 2), 0);
    expect(new Set(coverageSteps(shortestAllPathsGenerator))).toEqual(new Set([tourSteps]));
  });

  it('a_star reaches a target in another model by the shortest way, jumps included', () => {
    const graph = hubModels();
    const safe = graph.sharedStateVertices('SAFE');
    const steps = SEEDS.map((seed) => {
      const until = (w: TestWalk) => safe.includes(w.current);
      const result = runJoined(aStarGenerator, graph, { seed, targets: safe, until });
      expect(safe).toContain(result.walk.current);
      return result.walk.steps - 1;
    });
    // a0 → a_hub (2 steps), jump to d_hub (1), → d_safe (2).
    expect(new Set(steps)).toEqual(new Set([5]));
  });

  it('chooseJump: quick_random stays for an unvisited open edge, else jumps towards one; a_star towards a target', () => {
    const graph = hubModels();
    const candidates = (...ids: [string, number][]) => ids.map(([id, model]) => at(graph, id, model));
    const hub = candidates(['a_hub', 0], ['b_hub', 1], ['d_hub', 3]);
    const quick = () => createGenerator(quickRandomGenerator, graph);
    let { walk, v } = standOn('a_hub', 0, ['a_out', 'd_loop']);
    expect(quick().chooseJump!(walk, v, hub)).toBe(v);
    ({ walk, v } = standOn('a_hub', 0, ['d_loop']));
    expect(quick().chooseJump!(walk, v, hub)).toBe(at(graph, 'd_hub', 3));
    // The vault lies behind the wing: jump there, then on through DEEP.
    ({ walk, v } = standOn('a_hub', 0, ['c_on']));
    expect(quick().chooseJump!(walk, v, hub)).toBe(at(graph, 'b_hub', 1));
    ({ walk, v } = standOn('a_hub', 0, []));
    const aStar = createGenerator(aStarGenerator, graph, { targets: graph.sharedStateVertices('SAFE') });
    expect(aStar.chooseJump!(walk, v, hub)).toBe(at(graph, 'd_hub', 3));
    // Through the annex and SAFE into the vault: a jump, an edge and a jump, where the wing takes longer.
    const toVault = createGenerator(aStarGenerator, graph, { targets: [at(graph, 'c_safe', 2)] });
    expect(toVault.chooseJump!(walk, v, hub)).toBe(at(graph, 'd_hub', 3));
    const toLobby = createGenerator(aStarGenerator, graph, { targets: [at(graph, 'a0')] });
    expect(toLobby.chooseJump!(walk, v, hub)).toBe(v);
  });

  it('the models of one walk share one planner, kept in the walk\'s memo: another walk or a restart gets its own', () => {
    const graph = hubModels();
    const random = createRandom(1);
    for (const factory of [quickRandomGenerator, shortestAllPathsGenerator]) {
      const memo = new WalkMemoMap();
      const [first, second] = [0, 1].map((model) => createGenerator(factory, graph, { model }, random, memo));
      expect(second).toBe(first);
      // Same random source, but another memo: another walk, or the machine's fresh memo at a restart.
      expect(createGenerator(factory, graph, {}, random, new WalkMemoMap())).not.toBe(first);
    }
  });

  it('still covers every model when each model plans as if alone (a planner per model)', () => {
    const graph = hubModels();
    for (const factory of [quickRandomGenerator, shortestAllPathsGenerator]) {
      const options = { separateWalks: true, until: coveredAllModels(HUB_EDGES), maxSteps: 2000 };
      const result = runJoined(factory, graph, options);
      expect(coveredAllModels(HUB_EDGES)(result.walk)).toBe(true);
    }
  });

  it('on any joined file, answers a candidate or an open edge, the same for the same seed, and always returns', () => {
    const files = fc.record({ seed: fc.nat(100_000), edges: fc.integer({ min: 0, max: 5 }), walkSeed: fc.nat(1000) });
    fc.assert(
      fc.property(files, ({ seed, edges, walkSeed }) => {
        const graph = randomJoinedModels(seed, edges);
        for (const factory of [quickRandomGenerator, shortestAllPathsGenerator, aStarGenerator]) {
          const options = { seed: walkSeed, maxSteps: 300, targets: [graph.vertexCount - 1] };
          const result = runJoined(factory, graph, options);
          expect(result.deadEnd || result.walk.steps === 300).toBe(true);
          expect(runJoined(factory, graph, options).path).toEqual(result.path);
        }
      }),
      { numRuns: 150 },
    );
  });
});
