import { afterEach, describe, expect, it, vi } from 'vitest';
import { RequestBudget } from '../../../plugins/quickjs/budget.js';
import type { MemoryGate } from '../../../plugins/quickjs/memory.js';
import { GuestLimits } from '../../../plugins/quickjs/runtime.js';

/** The handler's readings of the clock, driven by a clock the test sets: what each call is charged. */
describe('GuestLimits', () => {
  let now = 1_000_000;
  afterEach(() => {
    vi.restoreAllMocks();
  });

  function limitsWith(budgetMs: number, timeoutMs = 10_000, yieldAfterMs: () => number | undefined = () => undefined): GuestLimits {
    vi.spyOn(Date, 'now').mockImplementation(() => now);
    const gate = { limitBytes: Number.POSITIVE_INFINITY, refused: false, refusals: 0 } as unknown as MemoryGate;
    const limits = { timeoutMs, budgetMs, memoryBytes: 64 << 20, realClock: true };
    return new GuestLimits(limits, new RequestBudget(budgetMs, () => 0, yieldAfterMs), gate, 0);
  }

  /** One call of model code: armed, polled at `polls` (ms after it began), returned at `returns`. */
  function call(limits: GuestLimits, polls: number[], returns: number): boolean {
    const start = now;
    limits.arm();
    let stopped = false;
    for (const at of polls) {
      now = start + at;
      stopped ||= limits.shouldInterrupt();
    }
    now = start + returns;
    limits.finish();
    return stopped || limits.exceeded !== undefined;
  }

  it('charges a call up to its return, not only to its last poll', () => {
    // Each call polls 5 ms in and again 60 ms in, and returns 40 ms later: 95 ms charged per call, 55 ms
    // if its last stretch went uncharged. Four such calls of one request pass the budget of 300 ms only
    // when the last stretches count.
    const limits = limitsWith(300);
    const stopped = [0, 1, 2, 3].map(() => call(limits, [5, 60], 100));
    expect(stopped).toEqual([false, false, false, true]);
    expect(limits.exceeded).toBe('budget');
  });

  it('stops the next call at its first poll when the last stretch of the one before spent the budget', () => {
    const limits = limitsWith(100);
    // Polled at 5 ms, returned at 110 ms: the return's reading passes the budget and fails this call.
    expect(call(limits, [5], 110)).toBe(true);
    expect(limits.exceeded).toBe('budget');
    // Within the same request the budget stays spent: the next call stops at its first poll.
    expect(call(limits, [1], 2)).toBe(true);
  });

  it('reads no clock for a call that never polled', () => {
    const limits = limitsWith(100);
    const reads = vi.mocked(Date.now);
    reads.mockClear();
    limits.arm();
    now += 500;
    limits.finish();
    expect(reads).not.toHaveBeenCalled();
    expect(limits.exceeded).toBeUndefined();
  });

  it('holds a call to its time limit at its return', () => {
    const limits = limitsWith(10_000, 50);
    expect(call(limits, [1], 80)).toBe(true);
    expect(limits.exceeded).toBe('time');
  });

  describe("the host's yield", () => {
    it('stops a request whose calls together ran past it, each well within its time limit', () => {
      const limits = limitsWith(10_000, 1000, () => 100);
      expect(call(limits, [5, 40], 60)).toBe(false);
      expect(call(limits, [5, 30], 70)).toBe(true);
      expect(limits.exceeded).toBe('yield');
    });

    it('reads the host\'s answer once per request: none, and the request runs to its limits', async () => {
      let yieldMs: number | undefined = 100;
      const limits = limitsWith(10_000, 1000, () => yieldMs);
      expect(call(limits, [5, 150], 160)).toBe(true);
      expect(limits.exceeded).toBe('yield');
      // The request ends with the turn of the event loop; the next one asks again.
      await Promise.resolve();
      yieldMs = undefined;
      expect(call(limits, [5, 150, 900], 950)).toBe(false);
      await Promise.resolve();
      expect(call(limits, [5, 1100], 1100)).toBe(true);
      expect(limits.exceeded).toBe('time');
    });

    it('wins over the budget and the time limit passed at the same reading: the request runs again under them whole', () => {
      // A thread kept from its core between two polls passes everything at once.
      const budget = limitsWith(100, 1000, () => 100);
      expect(call(budget, [5, 150], 160)).toBe(true);
      expect(budget.exceeded).toBe('yield');
      const time = limitsWith(10_000, 300, () => 100);
      expect(call(time, [5, 900], 910)).toBe(true);
      expect(time.exceeded).toBe('yield');
    });
  });
});
