/** Pushes a second at most, per source: enough to watch a walk, little enough to cost it nothing. */
export const PUSHES_PER_SECOND = 20;

/**
 * Messages a second that the readers of one session or draft get together, at most: each write to a reader
 * is a system call of the event loop, and thousands of readers at twenty a second would take it whole
 * (docs/benchmarks.md, "The view's event streams"). Twenty a second each up to 250 readers, fewer each beyond.
 */
export const MESSAGES_PER_SECOND = 5_000;

/** The time between two pushes to `readers` readers, in ms: 50, longer beyond 250 readers. */
export function pushInterval(readers: number): number {
  return Math.max(1000 / PUSHES_PER_SECOND, (1000 * readers) / MESSAGES_PER_SECOND);
}

/**
 * Turns "something changed" into pushes: at most one per `intervalMs`, never two at once, and always one
 * after the last change, so that what is pushed last is what there is. A walk at thousands of steps a second
 * is read twenty times a second, each time whole, so the counters it shows are exact.
 */
export class Coalescer {
  private timer: NodeJS.Timeout | undefined;
  private pushing = false;
  /** A change came while a push was under way: push again after it. */
  private again = false;
  private lastPush = -Infinity;
  private stopped = false;

  /** `onError` hears what a push throws; the pushes go on. `intervalMs` is read before each push is timed. */
  constructor(
    private readonly push: () => Promise<void>,
    private readonly onError: (error: unknown) => void,
    private readonly intervalMs: number | (() => number) = 1000 / PUSHES_PER_SECOND,
    private readonly clock: () => number = () => performance.now(),
  ) {}

  /** Something changed: a push will follow, within `intervalMs` of the last one. */
  changed(): void {
    if (this.stopped || this.timer !== undefined) return;
    if (this.pushing) {
      this.again = true;
      return;
    }
    // Whole milliseconds, rounded up: a timer may fire up to a millisecond before the clock says it is due.
    const interval = typeof this.intervalMs === 'number' ? this.intervalMs : this.intervalMs();
    const wait = Math.max(0, Math.ceil(this.lastPush + interval - this.clock()) + 1);
    this.timer = setTimeout(() => void this.run(), wait);
  }

  /** No more pushes. */
  stop(): void {
    this.stopped = true;
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  private async run(): Promise<void> {
    this.timer = undefined;
    this.pushing = true;
    this.lastPush = this.clock();
    try {
      await this.push();
    } catch (error) {
      this.onError(error);
    } finally {
      this.pushing = false;
      if (this.again) {
        this.again = false;
        this.changed();
      }
    }
  }
}
