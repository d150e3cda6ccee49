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

const LONGEST_WAIT = 256;

/**
 * Spaces out searches that keep failing because of guards. A search that finds nothing has looked at all it
 * could reach; when guards keep the way shut, searching again at every step would cost that much per step on
 * a large model. After each failure the generator waits twice as many steps as before (up to
 * {@link LONGEST_WAIT}) before trying again; a search that succeeds resets the wait.
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

/** Steps a plan must be used for (or waited out) per element of the model it looked at, at the least. */
const STEPS_PER_PLANNED_ELEMENT = 1 / 32;
const MOST_FAILURES = 8;

/**
 * Keeps the cost of whole-model planning per step bounded, however often guards spoil plans: after a plan
 * that looked at `work` elements, the next may be made only `work / 32` steps later, twice that after each
 * plan in a row that failed (could not be started, or was given up), up to 256 times. On a small model that
 * is the next step or so; on a model of 60,000 elements some 2,000 steps, during which a cheaper strategy
 * walks. A plan followed to its end resets the failures.
 */
export class PlanningBudget {
  private sincePlan = 0;
  private work = 0;
  private failures = 0;

  /** Counts one step. */
  tick(): void {
    this.sincePlan++;
  }

  /** True when a plan may be made now. */
  ready(): boolean {
    return this.sincePlan >= Math.ceil(this.work * STEPS_PER_PLANNED_ELEMENT) * 2 ** this.failures;
  }

  /** Records a plan over `work` elements; `usable` when its first step could be taken. */
  planned(work: number, usable: boolean): void {
    this.work = work;
    this.sincePlan = 0;
    if (!usable) this.failed();
  }

  /** The current plan was given up. */
  failed(): void {
    this.failures = Math.min(this.failures + 1, MOST_FAILURES);
  }

  /** The current plan was followed to its end. */
  completed(): void {
    this.failures = 0;
  }
}
