import type { Writable } from 'node:stream';
import { setImmediate as yieldToEvents } from 'node:timers/promises';

/** Text gathered before one write: large enough that a write per step does not cost more than the step. */
const CHUNK_CHARS = 16 * 1024;
/** Longest a line waits in the buffer, so that a slow walk still shows its steps as they come. */
const MAX_DELAY_MS = 50;

/** The output stream failed for another reason than its reader leaving. */
export class OutputError extends Error {
  override readonly name = 'OutputError';
}

/**
 * Lines written to a stream (the steps of `walker offline` on stdout) the way a pipe wants them: gathered into
 * chunks, and after each chunk the walk waits until the stream has taken it in (`write()` false → 'drain'),
 * so a slow reader slows the walk instead of filling memory. A reader that leaves (EPIPE, `| head`) closes the
 * output quietly: {@link open} turns false and the walk stops.
 */
export class LineOutput {
  private buffer = '';
  private lastFlush: number;
  private failure: Error | undefined;
  private gone = false;
  private readonly onError = (error: NodeJS.ErrnoException): void => {
    this.gone = true;
    if (error.code !== 'EPIPE' && error.code !== 'ERR_STREAM_DESTROYED') this.failure ??= error;
  };
  private readonly onClose = (): void => void (this.gone = true);

  constructor(
    private readonly stream: Writable,
    private readonly clock: () => number = () => performance.now(),
  ) {
    this.lastFlush = clock();
    stream.on('error', this.onError);
    stream.on('close', this.onClose);
  }

  /** False once the reader has gone or the stream failed: nothing written now would arrive. */
  get open(): boolean {
    return !this.gone && !this.stream.destroyed;
  }

  /** Adds a line (with its newline); true when the caller should {@link flush} now. */
  add(line: string): boolean {
    this.buffer += line;
    return this.buffer.length >= CHUNK_CHARS || this.clock() - this.lastFlush >= MAX_DELAY_MS;
  }

  /**
   * Writes the gathered lines and waits until the stream wants more. Even when it wants more at once, the walk
   * yields to the event loop here, so a closed pipe, a signal or a timer is noticed during an endless walk.
   */
  async flush(): Promise<void> {
    this.lastFlush = this.clock();
    if (this.buffer === '' || !this.open) return;
    const ready = this.stream.write(this.buffer);
    this.buffer = '';
    if (ready) await yieldToEvents();
    else await this.drained();
  }

  /**
   * Writes what is left and waits until the stream has taken it; throws an {@link OutputError} when writing
   * failed. The error listener stays: a reader that leaves while the last chunk is still on its way must end
   * the process quietly too, not as an unhandled 'error' event.
   */
  async finish(): Promise<void> {
    if (this.buffer !== '' && this.open) {
      const last = this.buffer;
      this.buffer = '';
      await new Promise<void>((resolve) => this.stream.write(last, () => resolve()));
    }
    if (this.failure !== undefined) throw new OutputError(`Could not write the output: ${this.failure.message}`);
  }

  private drained(): Promise<void> {
    return new Promise((resolve) => {
      const done = (): void => {
        for (const event of ['drain', 'close', 'error']) this.stream.off(event, done);
        resolve();
      };
      for (const event of ['drain', 'close', 'error']) this.stream.once(event, done);
    });
  }
}
