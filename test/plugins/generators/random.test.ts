import { describe, expect, it } from 'vitest';
import { randomGenerator } from '../../../plugins/generators/index.js';
import { createGenerator, run, TestWalk } from './harness.js';
import { at, graphOf, model } from './models.js';

/** v0 with four spokes out and back. */
const star = graphOf(
  model(
    ['v0', 'a', 'b', 'c', 'd'],
    ['a', 'b', 'c', 'd'].flatMap((x) => [[`to_${x}`, 'v0', x] as const, [`from_${x}`, x, 'v0'] as const]),
  ),
);

describe('random', () => {
  it('picks uniformly among the open out-edges', () => {
    const walk = new TestWalk(star, 42);
    const generator = createGenerator(randomGenerator, star);
    const counts = new Map<number, number>();
    for (let i = 0; i < 8000; i++) {
      const e = generator.nextEdge(walk, 0);
      counts.set(e, (counts.get(e) ?? 0) + 1);
    }
    expect(counts.size).toBe(4);
    // Each count is binomial(8000, 1/4): σ = √(8000 · 1/4 · 3/4) ≈ 39, so 200 is five σ; the seed is fixed.
    for (const n of counts.values()) expect(Math.abs(n - 2000)).toBeLessThan(200);
  });

  it('gives the same path for the same seed and another path for another seed', () => {
    const first = run(randomGenerator, star, { seed: 7, maxSteps: 200 }).path;
    expect(run(randomGenerator, star, { seed: 7, maxSteps: 200 }).path).toEqual(first);
    expect(run(randomGenerator, star, { seed: 8, maxSteps: 200 }).path).not.toEqual(first);
  });

  it('takes only open edges, and answers -1 when none is open', () => {
    const toA = at(star, 'to_a');
    const onlyA = run(randomGenerator, star, { guard: (e) => e === toA || star.source[e] !== 0, maxSteps: 100 });
    expect(onlyA.path.filter((e) => star.source[e] === 0).every((e) => e === toA)).toBe(true);
    const closed = run(randomGenerator, star, { guard: () => false });
    expect(closed.deadEnd).toBe(true);
    expect(closed.path).toEqual([0]);
  });
});
