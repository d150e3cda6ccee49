import { appendFileSync, readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { Worker } from 'node:worker_threads';
import { afterAll, beforeEach, expect } from 'vitest';

/**
 * Ends the test file whose memory runs away, naming it and the test, while the process still can: a worker
 * that reaches its heap limit dies with no word of the file it ran, and it got there only after minutes of
 * collections on a busy machine (vitest.config.ts also bounds the heap, so that it gets there sooner).
 *
 * The watch runs in a thread of its own, so it also sees a test that allocates in one synchronous loop, which
 * no timer of the test's thread would. It reads the process's resident memory: no test file needs more than a
 * few hundred MB (WebAssembly memories included), and a runaway heap passes the alarm on its way to its limit.
 */
export const ALARM_BYTES = 1200 * 1024 * 1024;

const WATCH = `
const { parentPort, workerData } = require('node:worker_threads');
const { writeSync } = require('node:fs');
const peak = new Float64Array(workerData.peak);
let running = '(before the first test)';
parentPort.on('message', (name) => { running = name; });
setInterval(() => {
  const rss = process.memoryUsage.rss();
  if (rss > peak[0]) peak[0] = rss;
  if (rss < workerData.alarm) return;
  writeSync(2, '\\n[memory guard] ' + running + ': the process holds ' + Math.round(rss / 1048576) +
    ' MB, past the alarm of ' + Math.round(workerData.alarm / 1048576) + ' MB. The test keeps what it no longer needs, or loops past its bound.\\n');
  process.kill(process.pid, 'SIGKILL');
}, 100);
`;

interface Watch {
  readonly worker: Worker;
  /** The highest resident memory the watch saw since the current file began, shared with it. */
  readonly peak: Float64Array;
}

/**
 * One watch per process: a process that runs several test files one after another (vitest.config.ts, the
 * `shared` project) evaluates this file again for each, and must not gain a thread each time.
 */
const WATCH_KEY = Symbol.for('walker.test.memory-watch');
const holder = globalThis as { [WATCH_KEY]?: Watch };
const watch = (holder[WATCH_KEY] ??= ((): Watch => {
  const shared = new SharedArrayBuffer(8);
  const worker = new Worker(WATCH, { eval: true, workerData: { alarm: ALARM_BYTES, peak: shared } });
  worker.unref();
  return { worker, peak: new Float64Array(shared) };
})());

const file = relative(process.cwd(), expect.getState().testPath ?? '(unknown test file)');
watch.peak[0] = 0;
watch.worker.postMessage(`${file} › (before the first test)`);

/**
 * Seconds of CPU this process and the children it has waited for (the services and browsers a test starts and
 * stops) have used, from /proc; undefined elsewhere.
 */
function cpuSeconds(): number | undefined {
  try {
    const stat = readFileSync('/proc/self/stat', 'utf8');
    // Fields after the command's name: utime, stime, cutime and cstime are the 12th to the 15th, in ticks.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return [11, 12, 13, 14].reduce((sum, i) => sum + Number(fields[i]), 0) / 100;
  } catch {
    return undefined;
  }
}

// WALKER_TEST_MEMORY_LOG=<file> appends each test file's peak and CPU seconds, for docs/benchmarks.md's
// record of the suite. A file that shares its process with others counts from its own start.
const log = process.env.WALKER_TEST_MEMORY_LOG;
if (log !== undefined && log !== '') {
  const cpuAtStart = cpuSeconds();
  afterAll(() => {
    const seen = Math.max(watch.peak[0], process.memoryUsage.rss());
    const cpu = cpuAtStart === undefined ? undefined : cpuSeconds()! - cpuAtStart;
    appendFileSync(log, `${Math.round(seen / (1024 * 1024))}\t${cpu?.toFixed(1) ?? ''}\t${file}\n`);
  });
}

beforeEach(() => {
  watch.worker.postMessage(`${file} › ${expect.getState().currentTestName ?? '(unnamed test)'}`);
});
