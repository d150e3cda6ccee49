import { describe, expect, it } from 'vitest';
import { SerialQueue } from '../../server/serial-queue.js';

describe('SerialQueue', () => {
  it('runs tasks one at a time, in the order they were queued', async () => {
    const s = new SerialQueue();
    const log: string[] = [];
    const slow = s.run(async () => {
      log.push('slow start');
      await new Promise((resolve) => setTimeout(resolve, 20));
      log.push('slow end');
      return 1;
    });
    const quick = s.run(() => {
      log.push('quick');
      return 2;
    });
    const failing = s.run(() => {
      throw new Error('boom');
    });
    const last = s.run(async () => {
      log.push('last');
      return 3;
    });
    await expect(Promise.all([slow, quick, last])).resolves.toEqual([1, 2, 3]);
    await expect(failing).rejects.toThrow('boom');
    expect(log).toEqual(['slow start', 'slow end', 'quick', 'last']);
  });

  it('runs a synchronous task at once when idle', async () => {
    const s = new SerialQueue();
    let ran = false;
    const done = s.run(() => (ran = true));
    expect(ran).toBe(true);
    await expect(done).resolves.toBe(true);
  });

  it('drains a long queue without growing the stack', async () => {
    const s = new SerialQueue();
    let release: () => void = () => {};
    const gate = s.run(() => new Promise<void>((resolve) => (release = resolve)));
    const tasks = Array.from({ length: 20_000 }, (_, i) => s.run(() => i));
    release();
    await gate;
    const results = await Promise.all(tasks);
    expect(results[19_999]).toBe(19_999);
  });

  it('goes on after an asynchronous task fails', async () => {
    const s = new SerialQueue();
    const failed = s.run(async () => {
      throw new Error('async boom');
    });
    await expect(failed).rejects.toThrow('async boom');
    await expect(s.run(() => 'next')).resolves.toBe('next');
  });
});
