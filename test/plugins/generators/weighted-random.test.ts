import { describe, expect, it } from 'vitest';
import type { Graph } from '../../../core/model/graph.js';
import { weightedRandomGenerator, weightedShares } from '../../../plugins/generators/index.js';
import { createGenerator, run, TestWalk, type Guard } from './harness.js';
import { graphOf, model } from './models.js';

/** A vertex with one out-edge per weight (undefined: no weight), each leading back. */
function fan(weights: readonly (number | undefined)[]): Graph {
  const targets = weights.map((_, i) => `t${i}`);
  return graphOf(
    model(
      ['v', ...targets],
      weights.flatMap((w, i) => [
        [`e${i}`, 'v', `t${i}`, w === undefined ? {} : { weight: w }] as const,
        [`back${i}`, `t${i}`, 'v'] as const,
      ]),
    ),
  );
}

function shares(weights: readonly (number | undefined)[]): number[] {
  const graph = fan(weights);
  return weightedShares(graph.weight, [...graph.outEdgesOf(0)]);
}

/** How often each out-edge of v is drawn, over many draws. */
function frequencies(graph: Graph, draws: number, guard?: Guard): number[] {
  const walk = new TestWalk(graph, 3, guard);
  const generator = createGenerator(weightedRandomGenerator, graph);
  const out = [...graph.outEdgesOf(0)];
  const counts = out.map(() => 0);
  for (let i = 0; i < draws; i++) counts[out.indexOf(generator.nextEdge(walk, 0))]++;
  return counts.map((n) => n / draws);
}

describe('weighted_random', () => {
  it("gives unweighted edges equal parts of what the weights leave of 1.0 (GraphWalker's test vector)", () => {
    const expected = [0.5, 0.25, 0.15, 0.05, 0.05];
    shares([0.5, 0.25, 0.15, undefined, undefined]).forEach((p, i) => expect(p).toBeCloseTo(expected[i], 12));
  });

  it('treats weight 0 as no weight, as GraphWalker files do', () => {
    shares([0.6, 0]).forEach((p, i) => expect(p).toBeCloseTo([0.6, 0.4][i], 12));
  });

  it('scales weights that sum below 1 up when no edge is unweighted', () => {
    shares([0.1, 0.3]).forEach((p, i) => expect(p).toBeCloseTo([0.25, 0.75][i], 12));
  });

  it('scales weights that sum above 1 down, leaving nothing to unweighted edges', () => {
    shares([0.8, 0.6]).forEach((p, i) => expect(p).toBeCloseTo([4 / 7, 3 / 7][i], 12));
    shares([0.8, 0.6, undefined]).forEach((p, i) => expect(p).toBeCloseTo([4 / 7, 3 / 7, 0][i], 12));
  });

  it('is uniform when nothing is weighted', () => {
    expect(shares([undefined, undefined, undefined, undefined])).toEqual([0.25, 0.25, 0.25, 0.25]);
  });

  // The tolerances are about five standard deviations of a frequency over these draws (for p = 0.5 and 40,000
  // draws σ = √(p(1−p)/n) = 0.0025; for p = 0.25 or 0.75 and 20,000 draws σ ≈ 0.0031), so a correct draw
  // misses them about once in a million seeds; the seed is fixed, so the outcome is too.
  it('draws edges with those probabilities', () => {
    const observed = frequencies(fan([0.5, 0.25, 0.15, undefined, undefined]), 40_000);
    [0.5, 0.25, 0.15, 0.05, 0.05].forEach((p, i) => expect(Math.abs(observed[i] - p)).toBeLessThan(0.012));
  });

  it('shares among the open edges only when guards close some', () => {
    const graph = fan([0.5, 0.25, undefined]);
    const heaviest = graph.outEdgesOf(0)[0];
    const observed = frequencies(graph, 20_000, (e) => e !== heaviest);
    expect(observed[0]).toBe(0);
    expect(Math.abs(observed[1] - 0.25)).toBeLessThan(0.015);
    expect(Math.abs(observed[2] - 0.75)).toBeLessThan(0.015);
  });

  it('gives the same path for the same seed and another for another seed', () => {
    const graph = fan([0.4, 0.3, undefined]);
    const first = run(weightedRandomGenerator, graph, { seed: 11, maxSteps: 200 }).path;
    expect(run(weightedRandomGenerator, graph, { seed: 11, maxSteps: 200 }).path).toEqual(first);
    expect(run(weightedRandomGenerator, graph, { seed: 12, maxSteps: 200 }).path).not.toEqual(first);
  });
});
