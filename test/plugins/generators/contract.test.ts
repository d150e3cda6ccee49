import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { PathGeneratorFactory } from '../../../core/generator.js';
import type { Graph } from '../../../core/model/graph.js';
import type { ModelJson } from '../../../core/model/types.js';
import { builtinGenerators } from '../../../plugins/generators/index.js';
import { run, type Guard, type RunOptions } from './harness.js';
import { graphOf, model, type EdgeSpec } from './models.js';

/** What each generator needs from the model and condition to be created at all. */
function optionsFor(factory: PathGeneratorFactory, graph: Graph): RunOptions {
  if (factory.name === 'a_star') return { targets: [graph.models[0].vertices.at(-1)!] };
  if (factory.name === 'predefined_path') return { conditionName: 'predefined_path' };
  return {};
}

/** A walk of up to six edges from v0 over the static graph: a predefined path that fits the model. */
function somePath(m: ModelJson): string[] {
  const path: string[] = [];
  let at = 'v0';
  for (let i = 0; i < 6; i++) {
    const out = m.edges.filter((e) => e.sourceVertexId === at);
    if (out.length === 0) break;
    const e = out[(i * 7) % out.length];
    path.push(e.id);
    at = e.targetVertexId;
  }
  return path;
}

const randomModels = fc
  .record({
    n: fc.integer({ min: 1, max: 8 }),
    pairs: fc.array(fc.tuple(fc.nat(7), fc.nat(7)), { maxLength: 20 }),
    guardSeed: fc.option(fc.nat(1000), { nil: undefined }),
    seed: fc.nat(1_000_000),
  })
  .map(({ n, pairs, guardSeed, seed }) => {
    const vertices = Array.from({ length: n }, (_, i) => `v${i}`);
    const edges: EdgeSpec[] = pairs.map(([a, b], i) => [`e${i}`, `v${a % n}`, `v${b % n}`]);
    const m = model(vertices, edges);
    const path = somePath(m);
    return { graph: graphOf(path.length > 0 ? { ...m, predefinedPathEdgeIds: path } : m), guardSeed, seed };
  });

/** Guards that open and close as the walk goes on, the same way for the same walk. */
function flickeringGuard(guardSeed: number): Guard {
  return (e, walk) => ((e * 7919 + walk.steps * 104729 + guardSeed) >>> 0) % 3 !== 0;
}

describe.each(builtinGenerators.map((f) => [f.name, f] as const))('%s (the contract every generator keeps)', (_, factory) => {
  it('on any model, with or without guards, answers an open edge or -1, and always returns', () => {
    fc.assert(
      fc.property(randomModels, ({ graph, guardSeed, seed }) => {
        if (factory.name === 'predefined_path' && graph.models[0].predefinedPath.length === 0) return;
        const guard = guardSeed === undefined ? undefined : flickeringGuard(guardSeed);
        const result = run(factory, graph, { ...optionsFor(factory, graph), seed, guard, maxSteps: 400 });
        expect(result.deadEnd || result.walk.steps === 400).toBe(true);
      }),
      { numRuns: 150 },
    );
  });

  it('gives the same path for the same seed', () => {
    fc.assert(
      fc.property(randomModels, ({ graph, guardSeed, seed }) => {
        if (factory.name === 'predefined_path' && graph.models[0].predefinedPath.length === 0) return;
        const guard = guardSeed === undefined ? undefined : flickeringGuard(guardSeed);
        const options = { ...optionsFor(factory, graph), seed, guard, maxSteps: 200 };
        expect(run(factory, graph, options).path).toEqual(run(factory, graph, options).path);
      }),
      { numRuns: 50 },
    );
  });
});
