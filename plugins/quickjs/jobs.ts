import type { QuickJSRuntime } from 'quickjs-emscripten';
import type { GuestLimits } from './runtime.js';

/** Jobs run per call into QuickJS; between two batches the host checks whether a limit stopped them. */
const BATCH = 1000;

/** Thrown when the promise jobs of a stopped script would not stop: the runtime cannot be cleaned up. */
export class RunawayJobsError extends Error {
  override readonly name = 'RunawayJobsError';
}

/**
 * The promise jobs of a runtime: `then` callbacks and what an async function does after an `await`. QuickJS
 * only queues them; left alone they would never run, and memory they hold would never be freed. They run
 * right after the script that queued them, as a part of it: under its deadline, its request's budget and
 * its memory limit, so an async function or a `then` chain cannot escape the limits of the script.
 */
export class PromiseJobs {
  constructor(
    private readonly runtime: QuickJSRuntime,
    private readonly limits: GuestLimits,
    /** How long stopping may take before the runtime is given up. */
    private readonly stopWithinMs: number,
  ) {}

  /** True when jobs are waiting: one call into QuickJS, asked after every script. */
  get pending(): boolean {
    return this.runtime.hasPendingJob();
  }

  /**
   * Runs the waiting jobs, and those they queue, until none is left or a limit stops them; the limits are
   * those armed for the script. An error inside a job only rejects its promise, as in any JavaScript engine.
   * Jobs left when a limit fired are stopped (see {@link stop}).
   */
  run(): void {
    while (this.limits.exceeded === undefined && this.runtime.hasPendingJob()) {
      this.runtime.executePendingJobs(BATCH).error?.dispose();
    }
    if (this.limits.exceeded !== undefined) this.stop();
  }

  /**
   * Stops the jobs left behind by a script that a limit stopped: every poll interrupts, so each job ends at
   * its first one (a job of a few instructions may still finish). An endless supply of such short jobs is a
   * {@link RunawayJobsError}.
   */
  stop(): void {
    if (!this.runtime.hasPendingJob()) return;
    const until = Date.now() + this.stopWithinMs;
    this.limits.stop();
    try {
      while (this.runtime.hasPendingJob()) {
        if (Date.now() > until) throw new RunawayJobsError(`promise jobs did not stop within ${this.stopWithinMs} ms`);
        this.runtime.executePendingJobs(BATCH).error?.dispose();
      }
    } finally {
      this.limits.resume();
    }
  }
}
