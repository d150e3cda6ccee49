import { threadCpuMs } from './thread-cpu.js';

/**
 * Counts the requests that the sessions of one app start, so that a session can tell whether any other's
 * started since its own last one: then a walk that keeps a thread busy is paced ({@link WalkPace}). A count
 * rather than a clock: a request pays one addition.
 */
export class SessionActivity {
  private count = 0;

  /** A request starts; answers its number, which the session keeps for {@link othersBetween}. */
  started(): number {
    return ++this.count;
  }

  /** Whether another session's request started between the request numbered `previous` and the one numbered `now`. */
  static othersBetween(previous: number, now: number): boolean {
    return now - previous > 1;
  }
}

/**
 * The pace of a walk in a thread of its own that its scripts keep busy: while other sessions are served, each
 * request waits, before it runs, until as long has passed since the last one ended as that one took of the
 * thread's CPU. So such a walk takes at most about half of a core's time from the event loop that serves the
 * others, however long its scripts run, and alone it runs at its full pace.
 *
 * Why a pace rather than a lower priority for the thread: a thread of lower priority that the machine's other
 * work keeps off the cores may hold a lock the event loop needs (Node's platform task queue, which every
 * thread of the process posts its garbage collector's and compiler's tasks to), and the loop then waits until
 * that thread gets a core again: hundreds of milliseconds on a busy machine (docs/benchmarks.md, "A moved
 * walk's pace"). A wait between requests holds no lock.
 */
export class WalkPace {
  /** The thread's CPU the last request took, and when it ended (performance.now()). */
  private lastCpuMs = 0;
  private lastEnded = 0;

  constructor(private readonly cpuClock: () => number = threadCpuMs) {}

  /** Milliseconds a request that arrives now waits before it runs; `paced` says whether others are served. */
  owed(paced: boolean, now: number): number {
    if (!paced) return 0;
    const owed = this.lastCpuMs - (now - this.lastEnded);
    return owed > 1 ? owed : 0;
  }

  /** Starts timing a request: what {@link ran} takes back. */
  begin(): number {
    return this.cpuClock();
  }

  /** A request timed from `cpuStarted` ended at `now`. */
  ran(cpuStarted: number, now: number): void {
    this.lastCpuMs = this.cpuClock() - cpuStarted;
    this.lastEnded = now;
  }
}
