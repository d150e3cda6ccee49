import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Coalescer } from '../../../server/view/coalescer.js';

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

/** A coalescer on the fake clock, with the times its pushes started. */
function coalescer(pushMs = 0): { coalescer: Coalescer; pushes: number[]; errors: unknown[] } {
  const pushes: number[] = [];
  const errors: unknown[] = [];
  const c = new Coalescer(
    async () => {
      pushes.push(Date.now());
      if (pushMs > 0) await new Promise((resolve) => setTimeout(resolve, pushMs));
    },
    (error) => errors.push(error),
    50,
    () => Date.now(),
  );
  return { coalescer: c, pushes, errors };
}

describe('Coalescer', () => {
  it('pushes once for a burst of changes, at once when nothing was pushed lately', async () => {
    const { coalescer: c, pushes } = coalescer();
    const start = Date.now();
    for (let i = 0; i < 1000; i++) c.changed();
    await vi.advanceTimersByTimeAsync(200);
    // Nothing pushed before: the first push waits only for the timer's turn. A thousand changes, one push.
    expect(pushes).toHaveLength(1);
    expect(pushes[0] - start).toBeLessThanOrEqual(1);
  });

  it('keeps pushes at least 50 ms apart under changes every millisecond, and pushes after the last change', async () => {
    const { coalescer: c, pushes } = coalescer();
    const start = Date.now();
    for (let t = 0; t < 500; t++) {
      c.changed();
      await vi.advanceTimersByTimeAsync(1);
    }
    await vi.advanceTimersByTimeAsync(200);
    const gaps = pushes.slice(1).map((time, i) => time - pushes[i]);
    expect(gaps.every((gap) => gap >= 50)).toBe(true);
    // 500 ms of changes: a push per 50 ms at most, and the last one after the last change (at 499 ms).
    expect(pushes.length).toBeLessThanOrEqual(Math.ceil(500 / 50) + 1);
    expect(pushes.at(-1)).toBeGreaterThanOrEqual(start + 499);
  });

  it('never runs two pushes at once: a change during a push brings one more push after it', async () => {
    const { coalescer: c, pushes } = coalescer(120);
    c.changed();
    await vi.advanceTimersByTimeAsync(10);
    c.changed();
    c.changed();
    await vi.advanceTimersByTimeAsync(500);
    expect(pushes).toHaveLength(2);
    // The second starts once the first has ended, 120 ms after it began.
    expect(pushes[1] - pushes[0]).toBeGreaterThanOrEqual(120);
  });

  it('hands what a push throws to onError and goes on pushing', async () => {
    const errors: unknown[] = [];
    let calls = 0;
    const c = new Coalescer(
      async () => {
        calls++;
        if (calls === 1) throw new Error('broken');
      },
      (error) => errors.push(error),
      50,
      () => Date.now(),
    );
    c.changed();
    await vi.advanceTimersByTimeAsync(10);
    c.changed();
    await vi.advanceTimersByTimeAsync(100);
    expect(calls).toBe(2);
    expect(errors).toEqual([new Error('broken')]);
  });

  it('pushes nothing once stopped', async () => {
    const { coalescer: c, pushes } = coalescer();
    c.changed();
    c.stop();
    c.changed();
    await vi.advanceTimersByTimeAsync(200);
    expect(pushes).toEqual([]);
  });
});
