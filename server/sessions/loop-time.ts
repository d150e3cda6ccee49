import { isPromiseLike } from '../../core/awaitable.js';
import type { ExecutionSession } from '../../core/session.js';
import { LOOP_LOAD_MS } from './load-placement.js';
import type { LoopTurns } from './loop-turns.js';
import { CPU_SHARE, SlowRequests, type SlowRule } from './slow-requests.js';
import { recentThreadCpuMs, threadCpuMs } from './thread-cpu.js';

/** How old the CPU reading a request starts from may be: what it may count of the work before it. */
const START_READING_STALE_MS = 1;

/** How a session's requests are timed: its slow rule, and the clocks (tests pass fake ones). */
export interface LoopTimeRule extends SlowRule {
  /** Milliseconds clock that times a request's work; default `performance.now`. */
  readonly clock?: () => number;
  /** Milliseconds of CPU time of this thread, for requests in doubt; default {@link threadCpuMs}. */
  readonly cpuClock?: () => number;
}

/** What the first part of a request that went on to wait held the event loop. */
export interface HeldSoFar {
  readonly busyMs: number;
  /** The CPU clock when the request began, read for the slow-request rule ({@link SlowRequests.cpuStart}). */
  readonly cpuStarted: number | undefined;
  /** The CPU clock when the request began, read for the overrun rule; the same reading when both asked for one. */
  readonly overrunCpuStarted: number | undefined;
}

/**
 * What one session's requests cost the event loop (docs/architecture.md, "Sessions"): each request's
 * synchronous work on the walk in this thread is timed, around the work alone, added to the app's
 * {@link LoopTurns}, and judged by {@link SlowRequests}, which says when the walk should move to a thread
 * (`onSlow`). It also remembers whether the last load held the loop long, which sends the next load to a
 * thread first (server/sessions/load-placement.ts).
 */
export class LoopTime {
  /** False once the walk cannot or need not move (no rule, moved, a move failed, or no more requests). */
  movable: boolean;
  private readonly slow: SlowRequests | undefined;
  private readonly clock: () => number;
  private readonly cpuClock: () => number;
  /** The CPU clock at a request's start, `now` by {@link clock}: a recent reading of the thread's, or the rule's clock. */
  private readonly cpuAtStart: (now: number) => number;
  private carried: HeldSoFar | undefined;
  private heavy = false;

  constructor(
    rule: LoopTimeRule | undefined,
    /** The app's, shared by its sessions; without it requests never wait for the loop to turn. */
    private readonly turns: LoopTurns | undefined,
    /**
     * Told when the rule says the walk should move, with what the last request held the loop; answers whether it
     * moves. One that cannot move yet stays movable, to be judged again by the requests after.
     */
    private readonly onSlow: (busyMs: number) => boolean,
    /**
     * A request (not a load) that held the loop this long moves the walk at once, without waiting for a second:
     * a script's time limit, which only a built-in that the limit cannot interrupt (plugins/quickjs/README.md)
     * or a request of several scripts near it passes. It must have run {@link CPU_SHARE} of that on the
     * thread's CPU, as a slow request must: on a busy machine a cheap request may wait for a core longer than
     * a short limit, and moved its walk for nothing. So every request starts from a reading of the CPU clock
     * while this holds, one at most a millisecond old (a reading is a system call, which per request cost the
     * service a sixth of its steps: docs/benchmarks.md, "Reading the CPU clock"). Default never.
     */
    private readonly overrunMs = Number.POSITIVE_INFINITY,
    /**
     * Told when a request of any kind, a load too, held the loop that long by its own work: the app then keeps
     * every walk off the loop for a while (server/sessions/loop-overruns.ts).
     */
    private readonly onOverrun: (busyMs: number) => void = () => undefined,
  ) {
    this.movable = rule !== undefined;
    this.cpuClock = rule?.cpuClock ?? threadCpuMs;
    const given = rule?.cpuClock;
    this.cpuAtStart = given === undefined ? (now) => recentThreadCpuMs(now, START_READING_STALE_MS) : () => given();
    this.slow = rule === undefined ? undefined : new SlowRequests(rule, this.cpuClock);
    this.clock = rule?.clock ?? (() => performance.now());
  }

  /** True when the last load that ran here held the loop {@link LOOP_LOAD_MS} or more. */
  get lastLoadHeavy(): boolean {
    return this.heavy;
  }

  /**
   * Runs synchronous work of the walk in this thread and times it, failed or not: that is what held the event
   * loop. Work that answers a promise (a load or restart waiting for its memory reservation, or a load that
   * went to a thread first) goes on later; the next `measure` of the session, which {@link LocalWalk} calls
   * once reserved, judges the request on both parts.
   */
  measure<T>(session: ExecutionSession, work: () => T, load = false): T {
    const loads = session.loadsAsked;
    const carried = this.take();
    const started = this.clock();
    const cpuStarted = carried === undefined ? (this.movable && this.slow?.asksCpu(load) === true ? this.cpuAtStart(started) : undefined) : carried.cpuStarted;
    const overrunCpuStarted = carried === undefined ? (this.judgesOverrun() ? (cpuStarted ?? this.cpuAtStart(started)) : undefined) : carried.overrunCpuStarted;
    let result: T | undefined;
    try {
      result = work();
      return result;
    } finally {
      const busyMs = (carried?.busyMs ?? 0) + this.clock() - started;
      if (isPromiseLike(result)) this.carried = { busyMs, cpuStarted, overrunCpuStarted };
      else {
        const loaded = session.loadsAsked !== loads;
        if (loaded) this.heavy = busyMs >= LOOP_LOAD_MS;
        this.held({ busyMs, cpuStarted, overrunCpuStarted }, loaded);
      }
    }
  }

  /** Runs work the slow-request rule does not judge (a read of the models' shape); the loop's turns count it. */
  unjudged<T>(work: () => T): T {
    const started = this.clock();
    try {
      return work();
    } finally {
      this.turns?.spent(this.clock() - started);
    }
  }

  /** Takes what a request that went on to wait held the loop so far; the next {@link measure} no longer adds it. */
  take(): HeldSoFar | undefined {
    const { carried } = this;
    this.carried = undefined;
    return carried;
  }

  /** Hands back what {@link take} took, for the next {@link measure} to add: the request's work runs here after all. */
  resume(carried: HeldSoFar | undefined): void {
    this.carried = carried;
  }

  /** A request's work held the loop `busyMs` ({@link SlowRequests.judge} says what the other two are). */
  held({ busyMs, cpuStarted, overrunCpuStarted }: HeldSoFar, load: boolean): void {
    this.turns?.spent(busyMs);
    if (!this.movable) return;
    const slow = this.slow?.judge(busyMs, cpuStarted, load) === true;
    const overrun = busyMs >= this.overrunMs && overrunCpuStarted !== undefined && this.cpuClock() - overrunCpuStarted >= this.overrunMs * CPU_SHARE;
    if (overrun) this.onOverrun(busyMs);
    // A load that overran says nothing of the steps after it; the next load starts in a thread (lastLoadHeavy).
    if ((slow || (overrun && !load)) && this.onSlow(busyMs)) this.movable = false;
  }

  /** Whether requests are judged by the overrun rule, and so read the CPU clock as they begin. */
  private judgesOverrun(): boolean {
    return this.movable && this.slow !== undefined && Number.isFinite(this.overrunMs);
  }
}
