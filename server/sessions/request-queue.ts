import type { Awaitable } from '../../core/awaitable.js';
import { SerialQueue } from '../serial-queue.js';

/**
 * The requests of one session, run strictly one at a time in the order they came, until the session takes
 * no more: from then on every request waiting and every one asked later answers the refusal without running.
 * Whichever thread the walk runs in, its requests pass here, so their order holds across a move.
 */
export class RequestQueue {
  private readonly queue = new SerialQueue();
  private refused: Error | undefined;

  /** Requests waiting, and the one under way. */
  get pending(): number {
    return this.queue.pending;
  }

  /** What every request answers once the session takes no more (it was released, or the service is closing). */
  get refusal(): Error | undefined {
    return this.refused;
  }

  /** Runs a request once those before it have finished, unless the session was refused meanwhile. */
  run<T>(request: () => Awaitable<T>): Promise<T> {
    return this.queue.run(() => {
      this.admit();
      return request();
    });
  }

  /** Runs work of the session's own (a move to a thread) in the requests' order; it checks the refusal itself. */
  enqueue(work: () => Awaitable<void>): Promise<void> {
    return this.queue.run(work);
  }

  /** Throws the refusal, if any: a request that waited (for the event loop to turn) checks again before it runs. */
  admit(): void {
    if (this.refused !== undefined) throw this.refused;
  }

  /** Takes no more requests; the first refusal is the one every request answers. */
  refuse(error: Error): Error {
    this.refused ??= error;
    return this.refused;
  }
}
