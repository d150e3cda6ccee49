import { Worker } from 'node:worker_threads';
import type { SessionLoadOptions, SessionLoadResult, SessionWalk, WalkView } from '../../core/session.js';
import { walkForwarder, type AsyncWalk, type WalkOperationName } from '../../core/walk-proxy.js';
import { ErrorCodes, WalkerError } from '../../core/errors.js';
import { workerEntryOf } from '../thread-plugins.js';
import { rebuiltError } from './thrown-data.js';
import type { LoadSource } from './load-placement.js';
import type { WalkReply, WalkRequest, WorkerReady, WorkerSetup } from './worker-protocol.js';

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
  readonly timed: boolean;
}

/**
 * One session's walk in a worker thread of its own: what it is asked crosses to the worker and back as
 * messages, so scripts that take long stall only this walk, never the event loop that serves the others.
 * The session's queue keeps one request at a time, and the worker answers in order.
 */
export class WorkerWalk extends walkForwarder<AsyncWalk>() implements SessionWalk {
  private readonly pending = new Map<number, Pending>();
  private nextId = 0;
  private stopped: Error | undefined;
  /** Loads of the session before its walk came here, so that the count a view shows goes on growing. */
  private loadsBefore = 0;
  /** Set by the session before each request: other sessions are served, so a busy walk keeps its pace (walk-pace.ts). */
  pace = false;

  private constructor(private readonly worker: Worker) {
    super();
    worker.on('message', (reply: WalkReply) => this.settle(reply));
    worker.on('error', (error) => this.stop(new WorkerWalkError(`The walk's thread failed: ${error.message}`)));
    worker.on('exit', (code) => this.stop(new WorkerWalkError(`The walk's thread stopped (exit code ${code}).`)));
  }

  /**
   * Starts a worker that rebuilds the journal's walk, and answers it once the replay arrived where the
   * original walk is (the fingerprints agree); otherwise stops the worker and rejects, saying why. Without a
   * journal, the worker is ready with no model, for a first load. Aborting `signal` stops the worker before
   * it is ready, and the start rejects.
   */
  static async start(setup: WorkerSetup, signal?: AbortSignal): Promise<WorkerWalk> {
    const worker = new Worker(workerEntryOf('sessions/walk-worker.js'), { workerData: setup });
    const stop = (): void => void worker.terminate();
    signal?.addEventListener('abort', stop, { once: true });
    const listeners: Array<[string, Parameters<Worker['once']>[1]]> = [];
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
    if (!ready.ready || ready.fingerprint !== (setup.journal?.fingerprint ?? 0)) {
      await worker.terminate();
      const why = ready.ready ? 'its replay did not arrive where the walk is' : rebuiltError(ready.error).message;
      throw new WorkerWalkError(`The walk could not be rebuilt in a thread of its own: ${why}.`);
    }
    return new WorkerWalk(worker);
  }

  /** Every operation but {@link view} crosses to the thread as it is asked (core/walk-proxy.ts). */
  override forward(op: WalkOperationName, first: unknown, second: unknown): Promise<unknown> {
    return this.call(op, second === undefined ? (first === undefined ? [] : [first]) : [first, second]);
  }

  /** A load, with the milliseconds of the thread's CPU it took. */
  timedLoad(source: LoadSource, options?: SessionLoadOptions): Promise<{ readonly result: SessionLoadResult; readonly cpuMs: number }> {
    const [op, arg] = 'text' in source ? (['load', source.text] as const) : (['loadModel', source.value] as const);
    return this.call(op, [arg, options], true);
  }

  /** A field, since the forwarder's operations are typed as fields: the thread's count of loads goes on from the session's. */
  override readonly view = (knownLoad?: number): Promise<WalkView> => {
    const known = knownLoad === undefined ? undefined : knownLoad - this.loadsBefore;
    return this.call<WalkView>('view', [known]).then((view) => ({ ...view, load: view.load + this.loadsBefore }));
  };

  /**
   * The thread counts the loads of its walk from its own first; the session had counted `loads` before that
   * one, which views (docs/view.md) go on from: a watcher sends a graph again when the count moves.
   */
  countLoadsAfter(loads: number): void {
    this.loadsBefore = loads;
  }

  /** Stops the thread; the walk answers no more: a call under way, and any later, rejects with `error`. */
  async close(error: Error = new WorkerWalkError(SESSION_CLOSED_MESSAGE)): Promise<void> {
    this.stop(error);
    await this.worker.terminate();
  }

  /** Asks the worker; a timed call answers `{result, cpuMs}` rather than the value alone. */
  private call<T>(op: WalkOperationName, args: readonly unknown[], timed = false): Promise<T> {
    if (this.stopped !== undefined) return Promise.reject(this.stopped);
    const id = this.nextId++;
    return new Promise<T>((resolve, reject) => {
      this.pending.set(id, { resolve: resolve as (value: unknown) => void, reject, timed });
      this.worker.postMessage({ id, op, args, ...(timed ? { timed } : {}), ...(this.pace ? { pace: true } : {}) } satisfies WalkRequest);
    });
  }

  private settle(reply: WalkReply): void {
    const pending = this.pending.get(reply.id);
    if (pending === undefined) return;
    this.pending.delete(reply.id);
    if ('error' in reply) pending.reject(rebuiltError(reply.error));
    else pending.resolve(pending.timed ? { result: reply.value, cpuMs: reply.cpuMs ?? 0 } : reply.value);
  }

  private stop(error: Error): void {
    this.stopped ??= error;
    for (const pending of this.pending.values()) pending.reject(this.stopped);
    this.pending.clear();
  }
}
