import type { WalkState } from '../../core/walk-state.js';

/** A uniformly random edge of `open` (which must not be empty), from the walk's seeded source. */
export function randomOpenEdge(walk: WalkState, open: readonly number[]): number {
  return open[walk.random.int(open.length)];
}

/**
 * A uniformly random edge of `open` that the walk has never stepped on, or -1 when there is none. Draws
 * from the random source only when there is a choice to make. O(open edges).
 */
export function randomUnvisitedEdge(walk: WalkState, open: readonly number[]): number {
  let unvisited = 0;
  for (const e of open) if (walk.visits(e) === 0) unvisited++;
  if (unvisited === 0) return -1;
  let pick = unvisited === 1 ? 0 : walk.random.int(unvisited);
  for (const e of open) if (walk.visits(e) === 0 && pick-- === 0) return e;
  return -1;
}

/** An unvisited open edge if there is one, else any open edge: the stand-in when a plan cannot be followed. */
export function preferUnvisitedEdge(walk: WalkState, open: readonly number[]): number {
  const fresh = randomUnvisitedEdge(walk, open);
  return fresh >= 0 ? fresh : randomOpenEdge(walk, open);
}

const LONGEST_WAIT = 256;

/**
 * Spaces out planning attempts that keep failing. A plan searches the whole reachable model; when guards
 * keep blocking its first step, planning again at every step would cost a search per step on a large model.
 * After each failure the generator waits twice as many steps as before (up to {@link LONGEST_WAIT}) before
 * trying again; any progress resets the wait.
 */
export class Backoff {
  private waiting = 0;
  private nextWait = 1;

  /** True when planning may be tried now; otherwise counts one step of the wait down. */
  ready(): boolean {
    if (this.waiting === 0) return true;
    this.waiting--;
    return false;
  }

  failed(): void {
    this.waiting = this.nextWait;
    this.nextWait = Math.min(2 * this.nextWait, LONGEST_WAIT);
  }

  succeeded(): void {
    this.waiting = 0;
    this.nextWait = 1;
  }
}
