/**
 * The requests of one kind the rule looks back over. A walk whose every guard is slow pays for it on every
 * step that leaves a vertex, every second step at least, and a client asks at most three requests a step
 * (hasNext, getNext, getData, as AltWalker does): its slow requests come at most six apart, so two of them
 * always fall within eight.
 */
export const SLOW_WINDOW = 8;

const WINDOW_MASK = (1 << SLOW_WINDOW) - 1;

/**
 * The part of the slow-request time a slow request must have run on its thread's CPU: a quarter, 5 ms by
 * default. A request of a cheap walk that the machine kept waiting ran for next to nothing (a step of
 * Login.json runs for microseconds, tens of them at the 99th percentile); one that does work of its own runs
 * a good part of the time it holds the loop, even when a loaded machine gives its thread an eighth of a core,
 * as long as it held the loop twice the slow-request time. A quarter, not the whole: a script that waits on
 * the real clock (`--real-clock`) runs only what the machine gives it, yet holds the loop all that time.
 */
export const CPU_SHARE = 1 / 4;

/** When a request is slow, and how many slow ones move a walk. */
export interface SlowRule {
  /** A request whose synchronous work held the event loop this many milliseconds or more is slow. */
  readonly slowRequestMs: number;
  /** Slow requests among the last {@link SLOW_WINDOW} of one kind that move the walk. */
  readonly slowRequests: number;
}

/**
 * Judges whether a session's walk costs the event loop enough to move to a thread of its own
 * (docs/architecture.md, "Sessions"), from what its own requests cost rather than from how busy the machine
 * is. A request's cost is the time its synchronous work held the loop, measured around that work alone, so
 * that time spent waiting in the session's queue or behind other sessions never counts.
 *
 * By the wall clock, a request of a cheap walk on a busy machine may take 20 ms too: its thread was waiting
 * for a core. So a slow request makes the session suspect, and while it is, its requests are timed by the
 * thread's CPU clock as well (server/sessions/thread-cpu.ts): one that held the loop long but ran for less
 * than {@link CPU_SHARE} of the slow-request time was kept waiting, and is not slow. The walk moves once
 * `slowRequests` of its last {@link SLOW_WINDOW} requests of one kind were slow and the CPU clock confirmed
 * the last of them. A stall is forgotten after a few requests; the count never piles up over a long walk.
 * Loads are judged apart, in a window of their own: a load parses, checks and plans a whole model, so a large
 * model loads slowly once without saying anything of its steps, while a client that keeps loading models
 * whose scripts run long is moved like any other.
 */
export class SlowRequests {
  /** Bit i: whether the request i places back among the steps (every request but loads) was slow. */
  private steps = 0;
  /** The same for the loads. */
  private loads = 0;

  constructor(
    private readonly rule: SlowRule,
    /** Milliseconds of CPU time of the thread the walk runs in. */
    private readonly cpuClock: () => number,
  ) {}

  /**
   * The CPU clock now, when the next request (a load when `load`) is to be timed by it too: requests of its
   * kind were slow of late. Else undefined: a session whose one slow request was the load of a large model
   * reads no clock on its steps (a reading costs a tenth of a cheap step).
   */
  cpuStart(load = false): number | undefined {
    return this.asksCpu(load) ? this.cpuClock() : undefined;
  }

  /** Whether a request about to start needs a reading of the CPU clock ({@link cpuStart}): one of its kind was slow lately. */
  asksCpu(load = false): boolean {
    return (load ? this.loads : this.steps) !== 0;
  }

  /**
   * A request held the loop `busyMs` by the wall clock; `cpuStarted` is what {@link cpuStart} answered before
   * it, `load` says it was a load. True when the walk should move now.
   */
  judge(busyMs: number, cpuStarted: number | undefined, load: boolean): boolean {
    const limit = this.rule.slowRequestMs;
    const confirmed = busyMs >= limit && cpuStarted !== undefined && this.cpuClock() - cpuStarted >= limit * CPU_SHARE;
    const slow = busyMs >= limit && (cpuStarted === undefined || confirmed) ? 1 : 0;
    const window = (((load ? this.loads : this.steps) << 1) | slow) & WINDOW_MASK;
    if (load) this.loads = window;
    else this.steps = window;
    return confirmed && bitCount(window) >= this.rule.slowRequests;
  }
}

function bitCount(bits: number): number {
  let count = 0;
  for (let rest = bits; rest !== 0; rest &= rest - 1) count++;
  return count;
}

/**
 * Script time of one request after which a walk on the event loop stops its scripts, and runs the request
 * again in a thread of its own (`SandboxOptions.yieldAfterMs`, core/scripting.ts): five slow requests' worth,
 * 100 ms at least. Without it, the first request whose script runs to the time limit (1 s) held every other
 * session that long before the walk moved. Wall-clock time, as the script limits: on a machine so busy that
 * a cheap request's scripts take this long, the walk moves, and walks on in a thread of its own, paced while
 * other sessions are served (walk-pace.ts).
 */
export function loopYieldMs(rule: SlowRule): number {
  return Math.max(100, 5 * rule.slowRequestMs);
}
