import { isPromiseLike } from '../core/awaitable.js';

/**
 * Runs tasks strictly one at a time, in the order they came. A task that returns synchronously while the queue
 * is idle runs at once (no queueing cost on the hot path); an asynchronous one holds the queue until its promise
 * settles. It is what keeps the requests of one walk in order, whichever thread the walk runs in.
 */
export class SerialQueue {
  private readonly waiting: Array<() => void> = [];
  /** True while an asynchronous task holds the queue. */
  private busy = false;
  /** True while {@link drain} runs the waiting tasks, so that a finished task does not start a nested drain. */
  private draining = false;

  /** Tasks waiting, and the one under way. */
  get pending(): number {
    return this.waiting.length + (this.busy ? 1 : 0);
  }

  /** Runs a task once every task queued before it has finished, and answers its result. */
  run<T>(task: () => T | Promise<T>): Promise<T> {
    if (this.busy || this.waiting.length > 0) {
      return new Promise<T>((resolve, reject) => {
        this.waiting.push(() => this.start(task).then(resolve, reject));
      });
    }
    return this.start(task);
  }

  private start<T>(task: () => T | Promise<T>): Promise<T> {
    let result: T | Promise<T>;
    try {
      result = task();
    } catch (error) {
      this.drain();
      return Promise.reject(error);
    }
    if (!isPromiseLike(result)) {
      this.drain();
      return Promise.resolve(result);
    }
    this.busy = true;
    return Promise.resolve(result).finally(() => {
      this.busy = false;
      this.drain();
    });
  }

  /** Starts waiting tasks while the queue is free: a loop, not recursion, however long the queue is. */
  private drain(): void {
    if (this.draining) return;
    this.draining = true;
    try {
      while (!this.busy && this.waiting.length > 0) this.waiting.shift()?.();
    } finally {
      this.draining = false;
    }
  }
}
