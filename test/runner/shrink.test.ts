import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { generateModel } from '../../core/model/generate.js';
import { loadModelFile } from '../../core/model/load.js';
import type { Graph } from '../../core/model/graph.js';
import { shrinkPath } from '../../runner/shrink.js';

/** Whether every element of the path follows the one before it in the graph. */
function legal(graph: Graph, path: readonly number[]): boolean {
  return path.every((e, i) => i === 0 || (graph.isVertex(path[i - 1]) ? graph.source[e] === path[i - 1] : graph.target[path[i - 1]] === e));
}

/** A random walk of `length` elements from the start edge, by a seeded choice at each vertex. */
function walk(graph: Graph, length: number, choices: readonly number[]): number[] {
  const path = [graph.models[0].startElement];
  for (let i = 1; i < length; i++) {
    const last = path[i - 1];
    if (graph.isVertex(last)) {
      const out = graph.outEdgesOf(last);
      path.push(out[choices[i % choices.length] % out.length]);
    } else path.push(graph.target[last]);
  }
  return path;
}

describe('shrinkPath', () => {
  it('answers a legal path from the start to the failing element that still fails, no longer than the original, within its run limit', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 3, max: 12 }),
        fc.integer({ min: 0, max: 20 }),
        fc.integer({ min: 1, max: 1000 }),
        fc.array(fc.nat(), { minLength: 1, maxLength: 50 }),
        fc.integer({ min: 5, max: 60 }),
        async (vertices, extra, seed, choices, runLimit) => {
          const { graph } = loadModelFile(generateModel({ vertices, edges: vertices + 1 + extra, seed }));
          const original = walk(graph, 201, choices);
          // The "test" fails at the last element once a chosen element was stepped on before it.
          const failing = original[original.length - 1];
          const needed = original[Math.floor(original.length / 3)];
          const fails = (path: readonly number[]): boolean =>
            legal(graph, path) && path[0] === original[0] && path.at(-1) === failing && path.slice(0, -1).includes(needed);
          fc.pre(fails(original));
          let runs = 0;
          const result = await shrinkPath(graph, original, async (candidate) => {
            runs++;
            return fails(candidate) ? candidate : undefined;
          }, { runs: runLimit, timeMs: 60_000 });
          expect(legal(graph, result.path)).toBe(true);
          expect(fails(result.path)).toBe(true);
          expect(result.path.length).toBeLessThanOrEqual(original.length);
          expect(result.runs).toBe(runs);
          expect(runs).toBeLessThanOrEqual(runLimit);
        },
      ),
      { numRuns: 60 },
    );
  });
});
