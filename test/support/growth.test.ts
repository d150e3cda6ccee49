import { describe, expect, it } from 'vitest';
import { LINEAR_RATIO, timeGrowth } from './growth.js';

/** Work of about `units` steps that keeps V8 from optimising it away. */
function spin(units: number): number {
  let sum = 0;
  for (let i = 0; i < units; i++) sum = (sum + i * 7) % 1_000_003;
  return sum;
}

describe('timeGrowth', () => {
  it('fails a cost that grows with the square of its input, in both doublings', () => {
    // One attempt of three rounds: a square never comes under the bound, so more attempts only take longer.
    const timing = timeGrowth((n) => n, (n) => spin(n * n), 300, { rounds: 3, attempts: 1 });
    expect(timing.ratio).toBeGreaterThan(LINEAR_RATIO);
  });

  it('passes a linear cost that steps up once, past a size between n and 2n, at the next doubling', () => {
    // Eight times the cost per unit from 1,500 on: the step alone makes the first doubling's ratio 16.
    const timing = timeGrowth((n) => n, (n) => spin(n < 1_500 ? 20 * n : 160 * n), 1_000, { rounds: 3, attempts: 1 });
    expect(timing).toMatchObject({ n: 2_000 });
    expect(timing.ratio).toBeLessThan(LINEAR_RATIO);
  });

  it('passes a linear cost at the first doubling', () => {
    const timing = timeGrowth((n) => n, (n) => spin(20 * n), 1_000);
    expect(timing).toMatchObject({ n: 1_000 });
    expect(timing.ratio).toBeLessThan(LINEAR_RATIO);
  });
});
