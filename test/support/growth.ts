/**
 * How a cost grows with its input, measured so that a busy machine can neither fake a growth nor hide one.
 * - The clock is this process's CPU time: on cores that other processes keep busy, the wall clock of a short run
 *   is mostly their time slices. vitest runs each test file in a process of its own, so the process's time is
 *   the test's and its collector's.
 * - The two sizes are timed alternately (a spell of disturbance hits both alike), each as the least of several
 *   batches (caches and collections only ever slow a batch down, so the least is the truest), each batch long
 *   enough that the clock's grain does not count.
 * - A measurement that still looks too slow is taken again: chance spoils one now and then, while a cost that
 *   grows too fast spoils every one.
 * - The work must not call vitest's `expect`: what it is given stays alive until the next full collection, so
 *   every young collection copies it again, and the large input pays for that more than the small one
 *   (docs/benchmarks.md, "Making a walk's chains, timed by the scaling test"). A check inside the work uses `node:assert`.
 */

export interface GrowthOptions {
  /** Batches of each size; the least of each counts. */
  readonly rounds?: number;
  /** The least CPU time, in ms, a batch of the small input must take. */
  readonly batchMs?: number;
}

/** The least CPU time of a batch of each size, in ms, and their ratio. */
export interface Timing {
  readonly small: number;
  readonly large: number;
  readonly ratio: number;
}

/** A ratio that linear work on twice the input stays under and quadratic work (near 4) does not. */
export const LINEAR_RATIO = 3;

/** Milliseconds of CPU time of this process. */
function cpuMs(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}

function timed(work: () => void, times: number): number {
  const started = cpuMs();
  for (let i = 0; i < times; i++) work();
  return cpuMs() - started;
}

/** How many times longer `large` takes than `small` (both run first, to warm up and to size the batches). */
export function timeRatio(small: () => void, large: () => void, options: GrowthOptions = {}): Timing {
  const { rounds = 5, batchMs = 15 } = options;
  let batch = 1;
  while (timed(small, batch) < batchMs) batch *= 2;
  timed(large, 1);
  let leastSmall = Infinity;
  let leastLarge = Infinity;
  for (let round = 0; round < rounds; round++) {
    leastSmall = Math.min(leastSmall, timed(small, batch));
    leastLarge = Math.min(leastLarge, timed(large, batch));
  }
  return { small: leastSmall, large: leastLarge, ratio: leastLarge / leastSmall };
}

/** {@link timeRatio}, taken up to `attempts` times until its ratio is at most `bound`: the least measured. */
export function boundedTiming(small: () => void, large: () => void, bound: number, attempts = 3, options: GrowthOptions = {}): Timing {
  let least: Timing = { small: 0, large: Infinity, ratio: Infinity };
  for (let attempt = 0; attempt < attempts && least.ratio > bound; attempt++) {
    const timing = timeRatio(small, large, options);
    if (timing.ratio < least.ratio) least = timing;
  }
  return least;
}

/** The ratio of {@link boundedTiming}. */
export function boundedRatio(small: () => void, large: () => void, bound: number, attempts = 3, options: GrowthOptions = {}): number {
  return boundedTiming(small, large, bound, attempts, options).ratio;
}

/** A {@link Timing} of `work` on inputs of size `n` and `scale · n`. */
export interface Growth extends Timing {
  readonly n: number;
}

export interface GrowthBound extends GrowthOptions {
  /** How many times the small input the large one is: 2 unless given. */
  readonly scale?: number;
  /** The ratio the timing is held to: {@link LINEAR_RATIO} unless given, which is for a scale of 2. */
  readonly bound?: number;
  /** Measurements of each pair of sizes, as {@link boundedTiming} takes them. */
  readonly attempts?: number;
}

/**
 * `work` on `make(n)` against `make(scale · n)`, held to `bound`; past it, the next pair (`2n` against
 * `2 · scale · n`) is measured too, and the lesser counts. The engine's cost per unit may step up once, where a
 * size crosses a threshold: a document whose open elements outgrow V8's young generation, a Map past 4,096
 * entries, a regular expression past some thousands of matches (docs/benchmarks.md, "The test suite" and the sections after it). That
 * spoils one pair; a cost that grows faster than its input spoils both.
 */
export function timeGrowth<T>(make: (n: number) => T, work: (input: T) => unknown, n: number, options: GrowthBound = {}): Growth {
  const { scale = 2, bound = LINEAR_RATIO, attempts = 3, ...growth } = options;
  const at = (size: number): Growth => {
    const [small, large] = [make(size), make(scale * size)];
    return { ...boundedTiming(() => void work(small), () => void work(large), bound, attempts, growth), n: size };
  };
  const first = at(n);
  if (first.ratio <= bound) return first;
  const next = at(2 * n);
  return next.ratio < first.ratio ? next : first;
}
