import { closeSync, existsSync, openSync, readSync } from 'node:fs';

/** Linux's account of the calling thread: nanoseconds on a CPU, nanoseconds waiting for one, time slices. */
const SCHEDSTAT = '/proc/thread-self/schedstat';

/** Whether this system tells each thread's CPU time; read once, it does not change while the process runs. */
const PER_THREAD = existsSync(SCHEDSTAT);

/**
 * Milliseconds of CPU time the calling thread has run, for telling a request's own work from the time the
 * machine kept it waiting (another process on the core, a thread of this process). Linux tells it per thread,
 * to the nanosecond; elsewhere it is the whole process's (`process.cpuUsage`), which also counts the other
 * threads of the process, so it tells less there, never more than the wall clock. A reading is a system call:
 * read it for a request in doubt, not for every request.
 */
export function threadCpuMs(): number {
  if (!PER_THREAD) {
    const { user, system } = process.cpuUsage();
    return (user + system) / 1000;
  }
  const buffer = Buffer.alloc(64);
  const fd = openSync(SCHEDSTAT, 'r');
  try {
    const length = readSync(fd, buffer, 0, buffer.length, 0);
    return Number.parseInt(buffer.toString('latin1', 0, length), 10) / 1e6;
  } finally {
    closeSync(fd);
  }
}
