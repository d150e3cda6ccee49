import { readlinkSync } from 'node:fs';
import { setPriority } from 'node:os';

/**
 * Linux niceness of a worker thread that must not slow the event loop: a tenth of the loop's share of a core
 * they both want (weights 110 and 1024), and still a share when other processes keep every core busy
 * (docs/architecture.md, "Sessions").
 */
export const YIELDING_NICENESS = 10;

/**
 * Lowers the calling thread's priority to {@link YIELDING_NICENESS}, so that the event loop, which serves every
 * other client, goes first when both want a core. On Linux a thread has a priority of its own, set through its
 * thread id (read from /proc/thread-self); an unprivileged process can lower it but never raise it again.
 * Elsewhere, or without /proc, the thread keeps the process's priority.
 */
export function yieldToTheEventLoop(): void {
  try {
    const threadId = Number(readlinkSync('/proc/thread-self').split('/').pop());
    if (!Number.isSafeInteger(threadId) || threadId <= 0) return;
    setPriority(threadId, YIELDING_NICENESS);
  } catch {
    // No /proc, or a system that sets priorities per process only: the default priority it is.
  }
}
