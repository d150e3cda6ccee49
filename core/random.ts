import seedrandom from 'seedrandom';

/**
 * The one source of randomness of a walk. Generators draw from it, and the script sandbox uses it as
 * `Math.random`, so that a seed fixes the whole path, guards that use `Math.random` included.
 */
export interface RandomSource {
  readonly seed: number;
  /** A float in [0, 1). */
  next(): number;
  /** An integer in [0, bound); bound must be a positive integer. */
  int(bound: number): number;
}

/** Largest seed we hand out: seeds are non-negative safe integers. */
const MAX_SEED = Number.MAX_SAFE_INTEGER;

/** A seeded source (Alea: fast and good enough for test paths; never touches the global Math.random). */
export function createRandom(seed: number): RandomSource {
  const prng = seedrandom.alea(String(seed));
  return {
    seed,
    next: () => prng(),
    int: (bound: number) => Math.floor(prng() * bound),
  };
}

/** A fresh seed for a walk that was given none. */
export function freshSeed(): number {
  return Math.floor(Math.random() * MAX_SEED);
}

/** True when the value can be used as a seed. */
export function isSeed(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;
}
