import { closeSync, existsSync, openSync, readSync } from 'node:fs';
import { isMainThread } from 'node:worker_threads';

/** Linux's account of the calling thread: nanoseconds on a CPU, nanoseconds waiting for one, time slices. */
const SCHEDSTAT = '/proc/thread-self/schedstat';

/** Whether this system tells each thread's CPU time; read once, it does not change while the process runs. */
const PER_THREAD = existsSync(SCHEDSTAT);

/**
 * The main thread's account, opened at its first reading and kept: the main thread reads it for every request
 * of a session that may move (server/sessions/loop-time.ts) and lives as long as the process, and reading a
 * kept file costs a fraction of opening one each time (docs/benchmarks.md, "A moved walk's priority"). It is
 * the thread's, not a session's: every session on the thread reads the same clock. A worker thread opens the
 * file for each reading, which it takes rarely, so that nothing stays open once the worker ends.
 */
let mainThreadFile: number | undefined;
const reading = Buffer.alloc(64);

/**
 * Milliseconds of CPU time the calling thread has run, for telling a request's own work from the time the
 * machine kept it waiting (another process on the core, a thread of this process). Linux tells it per thread,
 * to the nanosecond; elsewhere it is the whole process's (`process.cpuUsage`), which also counts the other
 * threads of the process, so it tells less there, never more than the wall clock. A reading is a system call.
 */
export function threadCpuMs(): number {
  if (!PER_THREAD) {
    const { user, system } = process.cpuUsage();
    return (user + system) / 1000;
  }
  if (isMainThread) {
    mainThreadFile ??= openSync(SCHEDSTAT, 'r');
    return firstNumber(readSync(mainThreadFile, reading, 0, reading.length, 0)) / 1e6;
  }
  const fd = openSync(SCHEDSTAT, 'r');
  try {
    return firstNumber(readSync(fd, reading, 0, reading.length, 0)) / 1e6;
  } finally {
    closeSync(fd);
  }
}

/** The number the first `length` bytes of {@link reading} begin with. */
function firstNumber(length: number): number {
  let value = 0;
  for (let i = 0; i < length; i++) {
    const digit = reading[i] - 48;
    if (digit < 0 || digit > 9) break;
    value = value * 10 + digit;
  }
  return value;
}

/** This thread's last reading by {@link recentThreadCpuMs}, and when (performance.now()) it was taken. */
let recent = { at: Number.NEGATIVE_INFINITY, cpuMs: 0 };

/**
 * The thread's CPU clock as read at most `staleMs` before `now` (performance.now()): a fresh reading only when
 * the last is older. For the start of a request, whose CPU time matters only once the request turns out long:
 * the reading may then count up to `staleMs` of the thread's work before the request as the request's, which
 * is nothing beside the limits it is held to, and the service's many short requests share one system call.
 */
export function recentThreadCpuMs(now: number, staleMs: number): number {
  if (now - recent.at > staleMs || now < recent.at) recent = { at: now, cpuMs: threadCpuMs() };
  return recent.cpuMs;
}
