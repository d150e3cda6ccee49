import { closeSync, openSync, readdirSync, readFileSync, readSync } from 'node:fs';
import { WALK_THREAD_PREFIX, walkThreadName } from '../../server/sessions/thread-name.js';

/** How long a thread has run on a core, and how long it has waited for one, in ms. */
export interface ThreadTimes {
  readonly ranMs: number;
  readonly waitedMs: number;
}

const NONE: ThreadTimes = { ranMs: 0, waitedMs: 0 };

/** How often the helper threads are listed again: a service starts them once, and walk threads are left out. */
const RELIST_MS = 100;

/**
 * The thread of process `pid` that walks session `id`, found by its name; undefined while the walk runs on the
 * event loop. A request of a walk in a thread crosses it: that thread's wait for a core is the machine's too.
 */
export function walkThreadOf(pid: number, id: string): number | undefined {
  const name = walkThreadName(id);
  try {
    for (const tid of readdirSync(`/proc/${pid}/task`)) {
      if (readFileSync(`/proc/${pid}/task/${tid}/comm`, 'utf8').trim() === name) return Number(tid);
    }
  } catch {
    // The process ended, or the system has no /proc.
  }
  return undefined;
}

/**
 * What Linux tells of the threads of process `pid` (/proc/<pid>/task/<tid>/schedstat): the time each ran and
 * waited for a core, which on two cores shared with other test files may be hundreds of ms a request. Tests
 * read it around every request, so each file stays open once read: a reading is then one system call a
 * thread, where opening the files of a service's thirteen threads twice a request took 40 % of a core from a
 * client of seven sessions on a busy machine. Where there is no /proc, every time reads as 0.
 */
export class ThreadAccounts {
  private readonly files = new Map<number, number>();
  private readonly reading = Buffer.alloc(128);
  private helpers: number[] = [];
  private listedAt = Number.NEGATIVE_INFINITY;

  constructor(readonly pid: number) {}

  /** The times of thread `tid`, the main thread unless given; 0 once the thread ended. */
  times(tid = this.pid): ThreadTimes {
    let fd = this.files.get(tid);
    try {
      if (fd === undefined) {
        fd = openSync(`/proc/${this.pid}/task/${tid}/schedstat`, 'r');
        this.files.set(tid, fd);
      }
      const [ran, waited] = this.reading.toString('latin1', 0, readSync(fd, this.reading, 0, this.reading.length, 0)).split(' ');
      return { ranMs: Number(ran) / 1e6, waitedMs: Number(waited) / 1e6 };
    } catch {
      if (fd !== undefined) this.forget(tid, fd);
      return NONE;
    }
  }

  /**
   * What each helper thread has waited for a core, by thread: every thread but the main one and the walks'.
   * They are V8's (garbage collection, compilation) and libuv's. An event loop hands them work and, on a busy
   * machine, may then wait for one of them that waits for a core: glibc's condition variable makes a thread
   * that posts a task wait until the thread woken for the task before it has run (docs/benchmarks.md, "The
   * event loop waits for a helper thread").
   */
  helpersWaited(): Map<number, number> {
    const now = performance.now();
    if (now - this.listedAt > RELIST_MS) {
      this.helpers = this.listHelpers();
      this.listedAt = now;
    }
    return new Map(this.helpers.map((tid) => [tid, this.times(tid).waitedMs]));
  }

  close(): void {
    for (const fd of this.files.values()) closeSync(fd);
    this.files.clear();
  }

  private listHelpers(): number[] {
    const helpers: number[] = [];
    let entries: string[] = [];
    try {
      entries = readdirSync(`/proc/${this.pid}/task`);
    } catch {
      // The process ended, or the system has no /proc.
    }
    for (const tid of entries.map(Number)) {
      try {
        if (tid !== this.pid && !readFileSync(`/proc/${this.pid}/task/${tid}/comm`, 'utf8').startsWith(WALK_THREAD_PREFIX)) helpers.push(tid);
      } catch {
        // The thread ended meanwhile.
      }
    }
    return helpers;
  }

  private forget(tid: number, fd: number): void {
    closeSync(fd);
    this.files.delete(tid);
  }
}

/** What the threads present in both `before` and `after` waited between them, in all. */
export function waitedBetween(before: ReadonlyMap<number, number>, after: ReadonlyMap<number, number>): number {
  let waited = 0;
  for (const [tid, ms] of after) waited += Math.max(0, ms - (before.get(tid) ?? ms));
  return waited;
}
