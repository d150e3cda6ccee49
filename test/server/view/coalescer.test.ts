import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Coalescer, pushInterval } from '../../../server/view/coalescer.js';

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

  it('spaces pushes by the interval it is given at each, so that many readers get fewer pushes each', async () => {
    let readers = 10;
    const pushes: number[] = [];
    const c = new Coalescer(async () => void pushes.push(Date.now()), () => {}, () => pushInterval(readers), () => Date.now());
    const start = Date.now();
    for (let t = 0; t < 1500; t++) {
      if (t === 500) readers = 2000;
      c.changed();
      await vi.advanceTimersByTimeAsync(1);
    }
    const times = pushes.map((time) => time - start);
    const gaps = (from: number, to: number): number[] => times.slice(1).flatMap((time, i) => (times[i] >= from && time < to ? [time - times[i]] : []));
    // Ten readers: twenty pushes a second. Two thousand: two and a half, 5,000 messages a second in all.
    expect(gaps(0, 500).length).toBeGreaterThanOrEqual(8);
    expect(gaps(0, 500).every((gap) => gap >= 50 && gap <= 52)).toBe(true);
    expect(gaps(500, 1400).length).toBeGreaterThanOrEqual(1);
    expect(gaps(500, 1400).every((gap) => gap >= 400 && gap <= 402)).toBe(true);
    expect([pushInterval(1), pushInterval(250), pushInterval(1000)]).toEqual([50, 50, 200]);
  });
});
