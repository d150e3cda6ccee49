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

/**
 * A seeded source (Alea: fast and good enough for test paths; never touches the global Math.random).
 * `reset()` rewinds it to the start of its sequence, which is what a restart of a walk needs.
 */
export class SeededRandom implements RandomSource {
  private prng: seedrandom.PRNG;

  constructor(readonly seed: number) {
    this.prng = seedrandom.alea(String(seed));
  }

  next(): number {
    return this.prng();
  }

  int(bound: number): number {
    return Math.floor(this.prng() * bound);
  }

  /** Starts the sequence again from the seed. */
  reset(): void {
    this.prng = seedrandom.alea(String(this.seed));
  }
}

/** A seeded random source. */
export function createRandom(seed: number): SeededRandom {
  return new SeededRandom(seed);
}

/** A fresh seed for a walk that was given none. */
export function freshSeed(): number {
  return Math.floor(Math.random() * MAX_SEED);
}

/** True when the value can be used as a seed. */
export function isSeed(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;
}
