
/** The CPU times of one piece of work on an input and on an input twice as large. */
export interface Doubling {
  /** Fastest run on the input of size n, in ms of CPU time. */
  readonly small: number;
  /** Fastest run on the input of size 2n, in ms of CPU time. */
  readonly large: number;
  readonly ratio: number;
}

/**
 * Milliseconds of CPU time of this process, to the microsecond. Linux's per-thread account (schedstat) moves
 * only at the scheduler's tick, 4 ms apart; vitest runs each test file in a process of its own, so the
 * process's time is the test's and its collector's.
 */
function cpuMs(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}

/** A ratio that linear work stays under and quadratic work (near 4) does not. */
export const LINEAR_RATIO = 3;

/**
 * Times `work` on `make(n)` and `make(2 * n)`, `runs` times each, alternating, and compares the fastest runs.
 * The time is CPU time: on a machine whose cores other processes keep busy, the wall clock of a
 * run of a few milliseconds is mostly the time slices of others (2 ms one run, 68 ms the next, measured at a
 * load of 16 on 2 cores). What is left of the disturbance (caches, a collection) only ever slows a run down:
 * the fastest of several is the one disturbed least, and alternating gives a burst of it to both sizes alike.
 * Linear work gives a ratio a little over 2 (the collector works more on a larger heap) and quadratic work
 * near 4. Up to `attempts` measurements are made until one is under {@link LINEAR_RATIO}: noise that slows every
 * large run of one attempt is no property of the code, while quadratic work stays near 4 in every attempt.
 */
export function timeDoubling<T>(make: (n: number) => T, work: (input: T) => unknown, n: number, runs = 5, attempts = 3): Doubling {
  const inputs = [make(n), make(2 * n)];
  // The first run compiles the code on the way: it counts for neither size.
  work(inputs[0]);
  let timing: Doubling = { small: 0, large: Infinity, ratio: Infinity };
  for (let attempt = 0; attempt < attempts && timing.ratio >= LINEAR_RATIO; attempt++) {
    const best = [Infinity, Infinity];
    for (let run = 0; run < runs; run++) {
      for (const size of [0, 1]) {
        const started = cpuMs();
        work(inputs[size]);
        best[size] = Math.min(best[size], cpuMs() - started);
      }
    }
    timing = { small: best[0], large: best[1], ratio: best[1] / best[0] };
  }
  return timing;
}
