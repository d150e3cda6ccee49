import { Worker } from 'node:worker_threads';
import { rebuiltError } from '../sessions/thrown-data.js';
import { workerEntryOf } from '../thread-plugins.js';
import type { ConversionAnswers, ConversionJob, ConversionReady, ConversionReply, ConversionRequest, ConversionSetup } from './conversion-protocol.js';

interface Pending {
  resolve(value: unknown): void;
  reject(error: Error): void;
}

/** Why the thread is not there to convert: it could not start (`unstarted`), it died, or the service closed it. */
export class ConversionThreadError extends Error {
  override readonly name = 'ConversionThreadError';
  constructor(
    message: string,
    readonly unstarted = false,
  ) {
    super(message);
  }
}

/**
 * The service's one conversion thread, started on the first conversion sent to it and kept for the next ones:
 * conversions queue in it and run one at a time, on another core than the event loop's. A thread that dies
 * fails the conversions it held, and the next conversion starts a new one.
 */
export class ConversionThread {
  private starting: Promise<Worker> | undefined;
  private current: Worker | undefined;
  private readonly pending = new Map<number, Pending>();
  private nextId = 0;
  private closed: Error | undefined;

  /** `onStart` is told each time a thread has started, for the log. */
  constructor(
    private readonly setup: ConversionSetup,
    private readonly onStart: () => void = () => {},
  ) {}

  /** Conversions sent and not yet answered, the one under way included. */
  get size(): number {
    return this.pending.size;
  }

  /** Runs `job` in the thread; rejects with what the conversion threw there, or a {@link ConversionThreadError}. */
  async run<J extends ConversionJob>(job: J): Promise<ConversionAnswers[J['op']]> {
    if (this.closed !== undefined) throw this.closed;
    const id = this.nextId++;
    const answer = new Promise<unknown>((resolve, reject) => this.pending.set(id, { resolve, reject }));
    // Failed while the thread starts (a close), it is still answered once returned: not an unhandled rejection.
    answer.catch(() => undefined);
    try {
      const worker = await this.started();
      // Not pending any more: the thread was closed, or died, while it started.
      if (this.pending.has(id)) worker.postMessage({ id, job } satisfies ConversionRequest);
    } catch (error) {
      this.pending.get(id)?.reject(error as Error);
      this.pending.delete(id);
    }
    return answer as Promise<ConversionAnswers[J['op']]>;
  }

  /** Stops the thread; what it held, and every later conversion, fails with `error`. */
  async close(error: Error): Promise<void> {
    this.closed ??= error;
    const starting = this.starting;
    this.starting = undefined;
    this.current = undefined;
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
    const worker = new Worker(workerEntryOf('conversion/conversion-worker.js'), { workerData: this.setup });
    // The thread holds no process open: the app's close ends it, and a command that is done needs no close.
    worker.unref();
    const listeners: Array<[string, Parameters<Worker['once']>[1]]> = [];
    const ready = await new Promise<ConversionReady>((resolve, reject) => {
      const onExit = (code: number) => reject(new Error(`it stopped before it was ready (exit code ${code})`));
      listeners.push(['message', resolve], ['error', reject], ['exit', onExit]);
      for (const [event, listener] of listeners) worker.once(event, listener);
    }).catch(async (error: unknown) => {
      await worker.terminate();
      throw new ConversionThreadError(`The conversion thread could not start: ${(error as Error).message}`, true);
    });
    // Only these: a Worker keeps listeners of its own on itself.
    for (const [event, listener] of listeners) worker.off(event, listener);
    if (!ready.ready) {
      await worker.terminate();
      throw new ConversionThreadError(`The conversion thread could not load the service's plugins: ${rebuiltError(ready.error).message}`, true);
    }
    if (this.closed !== undefined) {
      await worker.terminate();
      throw this.closed;
    }
    this.current = worker;
    this.onStart();
    worker.on('message', (reply: ConversionReply) => this.settle(reply));
    worker.on('error', (error) => this.died(worker, `The conversion thread failed: ${error.message}`));
    worker.on('exit', (code) => this.died(worker, `The conversion thread stopped (exit code ${code}).`));
    return worker;
  }

  /** A thread that is gone fails what it held; the next conversion starts another. */
  private died(worker: Worker, why: string): void {
    if (this.current !== worker) return;
    this.current = undefined;
    this.starting = undefined;
    this.failAll(new ConversionThreadError(why));
  }

  private settle(reply: ConversionReply): void {
    const pending = this.pending.get(reply.id);
    if (pending === undefined) return;
    this.pending.delete(reply.id);
    if ('error' in reply) pending.reject(rebuiltError(reply.error));
    else pending.resolve(reply.value);
  }

  private failAll(error: Error): void {
    for (const pending of this.pending.values()) pending.reject(error);
    this.pending.clear();
  }
}
