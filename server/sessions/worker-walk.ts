import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { WalkStatistics } from '../../core/machine/statistics.js';
import type { SessionLoadOptions, SessionLoadResult, SessionWalk, StepAnswer, WalkSummary, WalkView } from '../../core/session.js';
import { ErrorCodes, WalkerError } from '../../core/errors.js';
import { rebuiltError } from './thrown-data.js';
import type { WalkOperation, WalkReply, WorkerReady, WorkerSetup } from './worker-protocol.js';

/**
 * The worker's entry beside this module. Node runs JavaScript only in a worker thread, so when this module
 * runs from the TypeScript sources (the test runner), the built one under `dist/` is taken: `npm test` builds
 * before it runs.
 */
function workerEntry(): URL {
  const beside = new URL('./walk-worker.js', import.meta.url);
  if (existsSync(fileURLToPath(beside))) return beside;
  return new URL('../../dist/server/sessions/walk-worker.js', import.meta.url);
}

/** What a request of a session deleted or expired under it answers. */
export const SESSION_CLOSED_MESSAGE = 'The session was closed.';

/** A failure of the worker itself (it exited, or could not rebuild the walk). */
export class WorkerWalkError extends WalkerError {
  override readonly name = 'WorkerWalkError';
  constructor(message: string) {
    super(ErrorCodes.SESSION, message);
  }
}

interface Pending {
  resolve(value: unknown): void;
  reject(error: Error): void;
}

/**
 * One session's walk in a worker thread of its own: what it is asked crosses to the worker and back as
 * messages, so scripts that take long stall only this walk, never the event loop that serves the others.
 * The session's queue keeps one request at a time, and the worker answers in order.
 */
export class WorkerWalk implements SessionWalk {
  private readonly pending = new Map<number, Pending>();
  private nextId = 0;
  private stopped: Error | undefined;

  private constructor(private readonly worker: Worker) {
    worker.on('message', (reply: WalkReply) => this.settle(reply));
    worker.on('error', (error) => this.stop(new WorkerWalkError(`The walk's thread failed: ${error.message}`)));
    worker.on('exit', (code) => this.stop(new WorkerWalkError(`The walk's thread stopped (exit code ${code}).`)));
  }

  /**
   * Starts a worker that rebuilds the journal's walk, and answers it once the replay arrived where the
   * original walk is (the fingerprints agree); otherwise stops the worker and rejects, saying why. Aborting
   * `signal` stops the worker before it is ready, and the start rejects.
   */
  static async start(setup: WorkerSetup, signal?: AbortSignal): Promise<WorkerWalk> {
    const worker = new Worker(workerEntry(), { workerData: setup });
    const stop = (): void => void worker.terminate();
    signal?.addEventListener('abort', stop, { once: true });
    const listeners: Array<[string, (...args: any[]) => void]> = [];
    const ready = await new Promise<WorkerReady>((resolve, reject) => {
      const onExit = (code: number) => reject(new WorkerWalkError(`The walk's thread stopped before it was ready (exit code ${code}).`));
      listeners.push(['message', resolve], ['error', reject], ['exit', onExit]);
      for (const [event, listener] of listeners) worker.once(event, listener);
    })
      .catch(async (error: unknown) => {
        await worker.terminate();
        throw error;
      })
      .finally(() => signal?.removeEventListener('abort', stop));
    // Only these: a Worker keeps listeners of its own on itself.
    for (const [event, listener] of listeners) worker.off(event, listener);
    if (!ready.ready || ready.fingerprint !== setup.journal.fingerprint) {
      await worker.terminate();
      const why = ready.ready ? 'its replay did not arrive where the walk is' : rebuiltError(ready.error).message;
      throw new WorkerWalkError(`The walk could not be rebuilt in a thread of its own: ${why}.`);
    }
    return new WorkerWalk(worker);
  }

  load(text: string, options?: SessionLoadOptions): Promise<SessionLoadResult> {
    return this.call('load', [text, options]);
  }

  hasNext(): Promise<boolean> {
    return this.call('hasNext', []);
  }

  next(): Promise<StepAnswer> {
    return this.call('next', []);
  }

  variables(): Promise<Array<[string, string]>> {
    return this.call('variables', []);
  }

  setData(script: string): Promise<void> {
    return this.call('setData', [script]);
  }

  restart(): Promise<void> {
    return this.call('restart', []);
  }

  fail(reason: string): Promise<void> {
    return this.call('fail', [reason]);
  }

  stepCount(): Promise<number> {
    return this.call('stepCount', []);
  }

  statistics(): Promise<WalkStatistics> {
    return this.call('statistics', []);
  }

  describe(): Promise<WalkSummary> {
    return this.call('describe', []);
  }

  view(knownLoad?: number): Promise<WalkView> {
    return this.call('view', [knownLoad]);
  }

  /** Stops the thread; the walk answers no more: a call under way, and any later, rejects with `error`. */
  async close(error: Error = new WorkerWalkError(SESSION_CLOSED_MESSAGE)): Promise<void> {
    this.stop(error);
    await this.worker.terminate();
  }

  private call<T>(op: WalkOperation, args: readonly unknown[]): Promise<T> {
    if (this.stopped !== undefined) return Promise.reject(this.stopped);
    const id = this.nextId++;
    return new Promise<T>((resolve, reject) => {
      this.pending.set(id, { resolve: resolve as (value: unknown) => void, reject });
      this.worker.postMessage({ id, op, args });
    });
  }

  private settle(reply: WalkReply): void {
    const pending = this.pending.get(reply.id);
    if (pending === undefined) return;
    this.pending.delete(reply.id);
    if ('error' in reply) pending.reject(rebuiltError(reply.error));
    else pending.resolve(reply.value);
  }

  private stop(error: Error): void {
    this.stopped ??= error;
    for (const pending of this.pending.values()) pending.reject(this.stopped);
    this.pending.clear();
  }
}
