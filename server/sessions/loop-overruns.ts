/**
 * How long walks keep off the event loop after a request held it past every script limit, in ms: long enough
 * that a client making new sessions to repeat such a request holds the loop once, not once a session.
 */
export const WARY_MS = 10 * 60_000;

/**
 * Remembers, for one app, when a request last held the event loop past every script limit
 * (docs/architecture.md, "Sessions"). The yield stops a walk's scripts on the loop after 100 ms, so only
 * work that no limit interrupts gets that far: a built-in such as `JSON.stringify` of a large array
 * (plugins/quickjs/README.md), or a load's own work. Each such request moves its own session's walk; this
 * keeps the next ones from doing it once more each. Until {@link WARY_MS} pass without another, every
 * session's walk leaves the loop before its next request (HostedSession), so no walk runs on the loop.
 */
export class LoopOverruns {
  private lastAt = Number.NEGATIVE_INFINITY;

  constructor(
    /** Told once each time walks begin to keep off the loop, for the log. */
    private readonly note: (message: string) => void,
    /** Milliseconds clock; default `performance.now`. */
    private readonly now: () => number = () => performance.now(),
  ) {}

  /** True while walks keep off the event loop. */
  get wary(): boolean {
    return this.now() - this.lastAt < WARY_MS;
  }

  /** A request of session `sessionId` held the loop `busyMs`, past every script limit. */
  record(sessionId: string, busyMs: number): void {
    if (!this.wary) {
      this.note(
        `Session ${sessionId} held the event loop for ${Math.round(busyMs)} ms, past every script limit: every walk ` +
          `runs in a thread of its own until ${WARY_MS / 60_000} minutes pass without another such request.`,
      );
    }
    this.lastAt = this.now();
  }
}
