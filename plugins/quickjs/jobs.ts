import type { QuickJSRuntime } from 'quickjs-emscripten';
import type { GuestLimits, LimitKind } from './runtime.js';

/** Jobs run per call into QuickJS; between two batches the host reads the clock and checks the limits. */
const BATCH = 64;

/**
 * Thrown when promise jobs left the runtime in a state it cannot be freed from, so that it must be abandoned,
 * never disposed: jobs of a stopped script that would not stop, or a job that passed the memory limit (QuickJS
 * loses track of objects when an allocation fails inside a job, and freeing the runtime then aborts the whole
 * WebAssembly module on an assertion).
 */
export class LostJobsError extends Error {
  override readonly name = 'LostJobsError';

  constructor(
    /** What happened, as the sandbox's later errors say it: `…discarded after <why>`. */
    readonly why: string,
    /** The limit the script passed. */
    readonly limit: LimitKind,
  ) {
    super(why);
  }
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
   * Jobs left when a limit fired are stopped (see {@link stop}). A job that passed the memory limit is a
   * {@link LostJobsError}.
   */
  run(): void {
    const refusals = this.limits.memoryRefusals;
    while (this.limits.exceeded === undefined && this.runtime.hasPendingJob()) {
      this.runtime.executePendingJobs(BATCH).error?.dispose();
      this.limits.checkpoint();
    }
    if (this.limits.exceeded !== undefined) this.stop(refusals);
  }

  /**
   * Stops the jobs left behind by a script that a limit stopped: every poll interrupts, so each job ends at
   * its first one (a job of a few instructions may still finish). An endless supply of such short jobs is a
   * {@link LostJobsError}, as is a job that passed the memory limit since the memory refused `refusals` times.
   */
  private stop(refusals: number): void {
    if (this.runtime.hasPendingJob()) {
      const until = Date.now() + this.stopWithinMs;
      this.limits.stop();
      try {
        while (this.runtime.hasPendingJob()) {
          if (Date.now() > until) throw new LostJobsError('promise jobs that would not stop', this.limits.exceeded ?? 'time');
          this.runtime.executePendingJobs(BATCH).error?.dispose();
        }
      } finally {
        this.limits.resume();
      }
    }
    if (this.limits.memoryRefusals !== refusals) throw new LostJobsError('a promise job that passed the memory limit', 'memory');
  }
}
