import { Worker } from 'node:worker_threads';
import type { ConversionLimits } from '../options.js';
import { rebuiltError } from '../sessions/thrown-data.js';
import { workerEntryOf } from '../thread-plugins.js';
import type { ConversionAnswers, ConversionJob, ConversionReady, ConversionReply, ConversionRequest, ConversionSetup } from './conversion-protocol.js';

interface Pending {
  readonly job: ConversionJob;
  /** Sent to the thread that runs now; false while a thread starts. */
  sent: boolean;
  resolve(value: unknown): void;
  reject(error: Error): void;
}

/** The thread could not start, or could not load the service's plugins: conversions go on on the event loop. */
export class ConversionThreadError extends Error {
  override readonly name = 'ConversionThreadError';
}

/** A conversion stopped for what it took of the thread: more time or memory than the limits give one. */
export class ConversionLimitError extends Error {
  override readonly name = 'ConversionLimitError';
}

/**
 * The service's one conversion thread, started on the first conversion sent to it and kept for the next ones:
 * conversions queue in it and run one at a time, on another core than the event loop's. The one under way is
 * the oldest sent. When it runs past its time limit, the thread is stopped (the only way to stop synchronous
 * work, a format's endless loop included); when the thread dies (out of its memory, or a crash), the one under
 * way caused it. Either way that conversion fails, and the others start again in a new thread.
 */
export class ConversionThread {
  private starting: Promise<Worker> | undefined;
  private current: Worker | undefined;
  private readonly pending = new Map<number, Pending>();
  private nextId = 0;
  private closed: Error | undefined;
  /** The conversion whose time runs, and its timer. */
  private timed: { readonly id: number; readonly timer: NodeJS.Timeout } | undefined;

  /** `onStart` is told each time a thread has started, for the log. */
  constructor(
    private readonly setup: ConversionSetup,
    private readonly limits: ConversionLimits,
    private readonly onStart: () => void = () => {},
  ) {}

  /** Conversions sent and not yet answered, the one under way included. */
  get size(): number {
    return this.pending.size;
  }

  /**
   * Runs `job` in the thread; rejects with what the conversion threw there, a {@link ConversionLimitError}, or a
   * {@link ConversionThreadError}.
   */
  async run<J extends ConversionJob>(job: J): Promise<ConversionAnswers[J['op']]> {
    if (this.closed !== undefined) throw this.closed;
    const id = this.nextId++;
    const answer = new Promise<unknown>((resolve, reject) => this.pending.set(id, { job, sent: false, resolve, reject }));
    // Failed while the thread starts (a close), it is still answered once returned: not an unhandled rejection.
    answer.catch(() => undefined);
    await this.sendPending();
    return answer as Promise<ConversionAnswers[J['op']]>;
  }

  /** Sends what waits to the thread, starting one if there is none; what cannot start fails. */
  private async sendPending(): Promise<void> {
    let worker: Worker;
    try {
      worker = await this.started();
    } catch (error) {
      for (const [id, pending] of this.pending) {
        if (pending.sent) continue;
        pending.reject(error as Error);
        this.pending.delete(id);
      }
      return;
    }
    // A thread that was stopped while this one started has its conversions sent again by whoever stopped it.
    if (worker !== this.current) return;
    for (const [id, pending] of this.pending) {
      if (pending.sent) continue;
      pending.sent = true;
      worker.postMessage({ id, job: pending.job } satisfies ConversionRequest);
    }
    this.timeOldest();
  }

  /** Starts the clock of the conversion under way (the oldest sent) when it is not running yet. */
  private timeOldest(): void {
    const [oldest] = this.pending;
    if (oldest !== undefined && this.timed?.id === oldest[0]) return;
    this.stopClock();
    if (oldest === undefined || !oldest[1].sent) return;
    const id = oldest[0];
    const timer = setTimeout(() => this.stopOldest(id, `ran past its time limit of ${this.limits.timeLimitMs} ms (--conversion-timeout)`), this.limits.timeLimitMs);
    timer.unref();
    this.timed = { id, timer };
  }

  private stopClock(): void {
    if (this.timed !== undefined) clearTimeout(this.timed.timer);
    this.timed = undefined;
  }

  /**
   * Fails the conversion under way, which caused `why`, stops its thread if it still runs, and sends the others
   * to a new one.
   */
  private stopOldest(id: number, why: string): void {
    const worker = this.current;
    this.current = undefined;
    this.starting = undefined;
    this.stopClock();
    const oldest = this.pending.get(id);
    this.pending.delete(id);
    oldest?.reject(new ConversionLimitError(`The model conversion ${why}, and was stopped; a smaller model, or the limit raised, converts.`));
    void worker?.terminate();
    for (const pending of this.pending.values()) pending.sent = false;
    if (this.pending.size > 0) void this.sendPending();
  }

  /** Stops the thread; what it held, and every later conversion, fails with `error`. */
  async close(error: Error): Promise<void> {
    this.closed ??= error;
    const starting = this.starting;
    this.starting = undefined;
    this.current = undefined;
    this.stopClock();
    this.failAll(this.closed);
    if (starting !== undefined) await starting.then((worker) => worker.terminate(), () => undefined);
  }

  private started(): Promise<Worker> {
    if (this.starting === undefined) {
      const starting = this.start();
      this.starting = starting;
      starting.catch(() => {
        if (this.starting === starting) this.starting = undefined;
      });
    }
    return this.starting;
  }

  private async start(): Promise<Worker> {
    const worker = new Worker(workerEntryOf('conversion/conversion-worker.js'), {
      workerData: this.setup,
      // Past it, Node stops the thread (ERR_WORKER_OUT_OF_MEMORY) rather than the process.
      resourceLimits: { maxOldGenerationSizeMb: this.limits.memoryMiB },
    });
    // The thread holds no process open: the app's close ends it, and a command that is done needs no close.
    worker.unref();
    const listeners: Array<[string, Parameters<Worker['once']>[1]]> = [];
    const ready = await new Promise<ConversionReady>((resolve, reject) => {
      const onExit = (code: number) => reject(new Error(`it stopped before it was ready (exit code ${code})`));
      listeners.push(['message', resolve], ['error', reject], ['exit', onExit]);
      for (const [event, listener] of listeners) worker.once(event, listener);
    }).catch(async (error: unknown) => {
      await worker.terminate();
      throw new ConversionThreadError(`The conversion thread could not start: ${(error as Error).message}`);
    });
    // Only these: a Worker keeps listeners of its own on itself.
    for (const [event, listener] of listeners) worker.off(event, listener);
    if (!ready.ready) {
      await worker.terminate();
      throw new ConversionThreadError(`The conversion thread could not load the service's plugins: ${rebuiltError(ready.error).message}`);
    }
    if (this.closed !== undefined) {
      await worker.terminate();
      throw this.closed;
    }
    this.current = worker;
    this.onStart();
    worker.on('message', (reply: ConversionReply) => this.settle(reply));
    worker.on('error', (error: Error & { code?: string }) =>
      this.died(
        worker,
        error.code === 'ERR_WORKER_OUT_OF_MEMORY'
          ? `needed more than the conversion thread's ${this.limits.memoryMiB} MiB of memory (--conversion-memory)`
          : `ended its thread: ${error.message}`,
      ),
    );
    worker.on('exit', (code) => this.died(worker, `ended its thread (exit code ${code})`));
    return worker;
  }

  /** A thread that is gone took the conversion under way with it: that one fails, the others go to a new thread. */
  private died(worker: Worker, why: string): void {
    if (this.current !== worker) return;
    const [oldest] = this.pending;
    if (oldest !== undefined && oldest[1].sent) this.stopOldest(oldest[0], why);
    else {
      this.current = undefined;
      this.starting = undefined;
      if (this.pending.size > 0) void this.sendPending();
    }
  }

  private settle(reply: ConversionReply): void {
    const pending = this.pending.get(reply.id);
    if (pending === undefined) return;
    this.pending.delete(reply.id);
    this.timeOldest();
    if ('error' in reply) pending.reject(rebuiltError(reply.error));
    else pending.resolve(reply.value);
  }

  private failAll(error: Error): void {
    for (const pending of this.pending.values()) pending.reject(error);
    this.pending.clear();
  }
}
