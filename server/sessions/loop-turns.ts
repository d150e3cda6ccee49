/**
 * Work of sessions' requests held the event loop for this long in all since it last had to turn: the next
 * request's work waits for a turn. 50 ms keeps a signal waiting at most that long beyond the request under
 * way, and costs one deferral of one request per 50 ms of work, a loop turn of microseconds when idle.
 */
export const LOOP_TURN_AFTER_MS = 50;

/**
 * Makes the event loop turn between the synchronous work of the requests of an app's sessions, once that
 * work has held it for {@link LOOP_TURN_AFTER_MS} in all (docs/architecture.md, "Sessions").
 *
 * Node reads every socket that is ready in one pass of its loop (libuv's poll phase) and runs each request's
 * handler as it reads it; signal handlers run only at the end of the pass. Requests whose scripts run for
 * seconds, on several connections at once, would all run in one pass, and a SIGTERM sent during the first
 * would be seen only after the last (four clients and a 5 s script budget: 20 s). Past the limit, the next
 * request's work waits until the loop has completed a pass, which runs the signal handlers: a service told
 * to stop has begun to close by then and refuses that work. One per app: its sessions share one loop.
 */
export class LoopTurns {
  private spentMs = 0;
  private turning: Promise<void> | undefined;
  private waiters = 0;

  constructor(private readonly limitMs = LOOP_TURN_AFTER_MS) {}

  /** While work must wait, a promise that settles once the loop has turned; otherwise undefined. */
  get pending(): Promise<void> | undefined {
    return this.turning;
  }

  /**
   * While work must wait, runs `work` once the loop has turned, and answers what it answers; otherwise
   * undefined. It counts among the waiters until it runs: after a turn they run one after the other, so each
   * sees those still behind it.
   */
  afterTurn<T>(work: () => T): Promise<Awaited<T>> | undefined {
    const turning = this.turning;
    if (turning === undefined) return undefined;
    this.waiters++;
    return turning.then(() => {
      this.waiters--;
      return work();
    }) as Promise<Awaited<T>>;
  }

  /** True while other work waits for the loop to turn: the work that runs now delays all of it. */
  get contended(): boolean {
    return this.waiters > 0;
  }

  /** A request's synchronous work held the loop for `ms`. */
  spent(ms: number): void {
    this.spentMs += ms;
    if (this.spentMs < this.limitMs || this.turning !== undefined) return;
    this.spentMs = 0;
    this.turning = afterNextPoll().then(() => {
      this.turning = undefined;
    });
  }
}

/**
 * Settles after the event loop's next poll phase, and the signal handlers at its end, have run: an immediate
 * queued by an immediate runs in the check phase of the loop's next turn, which follows that turn's poll.
 */
function afterNextPoll(): Promise<void> {
  return new Promise((resolve) => setImmediate(() => setImmediate(resolve)));
}
