import type { ChildProcess } from 'node:child_process';
import { afterAll, expect } from 'vitest';

/**
 * The `walker` processes a test file started and has not seen end. A file's own afterAll stops what it started;
 * what is still running after it (a start that outlived the hook that awaited it, on a busy machine, so that the
 * file never got the service to stop) would outlive the file's worker and keep a core busy for the files after
 * it. Ended here, and named, so that the file fails for it.
 */
const running = new Set<ChildProcess>();

/** Tracks `child` until it exits; answers it. */
export function tracked<T extends ChildProcess>(child: T): T {
  running.add(child);
  child.once('exit', () => running.delete(child));
  return child;
}

// A setup file's afterAll runs after the test file's own (vitest runs after-hooks in reverse order).
afterAll(async () => {
  const left = [...running].filter((child) => child.exitCode === null && child.signalCode === null);
  await Promise.all(
    left.map((child) => {
      const ended = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGKILL');
      return ended;
    }),
  );
  expect(left.map((child) => child.spawnargs.slice(1).join(' ')), 'processes the test file left running (ended now)').toEqual([]);
});
