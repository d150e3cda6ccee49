import { describe, expect, it } from 'vitest';
import { recentThreadCpuMs, threadCpuMs } from '../../server/sessions/thread-cpu.js';

/** Runs on this thread's CPU for about `ms`. */
function spin(ms: number): void {
  const until = threadCpuMs() + ms;
  while (threadCpuMs() < until);
}

describe("the thread's CPU clock", () => {
  it('advances with the work of this thread', () => {
    const before = threadCpuMs();
    spin(5);
    expect(threadCpuMs() - before).toBeGreaterThanOrEqual(5);
  });

  it('is read afresh for the start of a request only once the last reading is older than allowed', () => {
    const first = recentThreadCpuMs(1_000_000, 1);
    spin(3);
    // Within a millisecond of the last reading: the same reading, however much the thread ran since.
    expect(recentThreadCpuMs(1_000_000.5, 1)).toBe(first);
    expect(recentThreadCpuMs(1_000_001, 1)).toBe(first);
    // Older than that, or a clock that went back: read again.
    expect(recentThreadCpuMs(1_000_001.5, 1)).toBeGreaterThanOrEqual(first + 3);
    spin(3);
    expect(recentThreadCpuMs(10, 1)).toBeGreaterThanOrEqual(first + 6);
  });
});
