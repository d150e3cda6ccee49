/**
 * How a cost grows with its input, measured so that a busy machine cannot fake a growth nor hide one: what is
 * compared is a ratio of two timings taken alternately (a spell of load hits both alike), each the least of
 * several batches (the batch the machine disturbed least), each batch long enough to time. Other processes can
 * only slow a batch down, so the least is the truest; and a measurement that still looks too slow is taken
 * again, since chance spoils one measurement now and then, while a cost that grows too fast spoils every one.
 */

export interface GrowthOptions {
  /** Batches of each size; the least of each counts. */
  readonly rounds?: number;
  /** The least time, in ms, a batch of the small input must take: long enough that the timer's grain and a stray interrupt do not count. */
  readonly batchMs?: number;
}

/** How many times longer `large` takes than `small` (both run at least once first, to warm up and to calibrate). */
export function timeRatio(small: () => void, large: () => void, options: GrowthOptions = {}): number {
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
  return leastLarge / leastSmall;
}

/**
 * The ratio of {@link timeRatio}, taken up to `attempts` times until one is at most `bound`: the first such
 * ratio, or the least of all when none is. A cost that grows faster than the bound allows fails every attempt.
 */
export function boundedRatio(small: () => void, large: () => void, bound: number, attempts = 3, options: GrowthOptions = {}): number {
  let least = Infinity;
  for (let attempt = 0; attempt < attempts && least > bound; attempt++) least = Math.min(least, timeRatio(small, large, options));
  return least;
}

function timed(work: () => void, times: number): number {
  const started = performance.now();
  for (let i = 0; i < times; i++) work();
  return performance.now() - started;
}
