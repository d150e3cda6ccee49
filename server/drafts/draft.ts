import type { DraftModel } from './draft-model.js';
import { DRAFT_OVERHEAD_BYTES, fieldsBytes, MemoryLedger } from './footprint.js';
import { checkPreconditions, type Preconditions } from './preconditions.js';

/**
 * A change, computed completely before it is applied: the new elements or fields are built beside the old ones,
 * checked and serialised (which is how {@link growth} is measured), and {@link commit} only swaps them into the
 * model — Map operations that cannot fail on a plan that was checked.
 */
export interface PlannedChange<T> {
  /** How many bytes the draft's estimated footprint grows by (negative when it shrinks). */
  readonly growth: number;
  /** Applies the change; returns what the response shows. */
  commit(): T;
}

/**
 * Plans a change against the model: checks the whole request and throws an API error without touching
 * anything, or returns the {@link PlannedChange}.
 */
export type ChangePlanner<T> = (model: DraftModel) => PlannedChange<T>;

/**
 * One draft: a model under construction, its revision and when it was last changed. Changes go through
 * {@link mutate}, which is synchronous from the precondition check to the new revision, so that on Node's single
 * thread concurrent requests for one draft are serialised and of several with the same expected revision
 * exactly one succeeds.
 */
export class Draft {
  /** 0 at creation; +1 per successful change. */
  revision = 0;
  /** Milliseconds (of the store's clock) of the creation or the last successful change: its lease. */
  lastChanged: number;
  /** Set when an internal error interrupted a commit: the model may be half changed and is not served again. */
  broken = false;
  /** What the draft is counted for against the ledger (footprint.ts). */
  private footprint: number;

  /**
   * Counts the new draft against `ledger`, the store's memory budget (by default one of its own, without limit);
   * throws 429 `memory_limit_reached`, counting nothing, when it does not fit.
   */
  constructor(
    readonly id: string,
    readonly model: DraftModel,
    now: number,
    private readonly ledger = new MemoryLedger(Infinity),
  ) {
    this.lastChanged = now;
    this.footprint = DRAFT_OVERHEAD_BYTES + fieldsBytes(model.fields);
    ledger.check(this.footprint);
    ledger.record(this.footprint);
  }

  /** The estimated bytes the draft holds. */
  get bytes(): number {
    return this.footprint;
  }

  /**
   * Checks the preconditions, plans the change, checks the memory budget, and only then applies it and moves
   * to the next revision; whatever fails before the commit leaves everything as it was. Returns what the
   * commit returned.
   */
  mutate<T>(pre: Preconditions | undefined, plan: ChangePlanner<T>): T {
    checkPreconditions(this.id, this.revision, pre);
    const change = plan(this.model);
    this.ledger.check(change.growth);
    let result: T;
    try {
      result = change.commit();
    } catch (error) {
      // A commit only swaps checked values in, so this is a bug; the model may be half changed.
      this.broken = true;
      throw error;
    }
    this.footprint += change.growth;
    this.ledger.record(change.growth);
    this.revision++;
    return result;
  }

  /** Gives the draft's bytes back to the ledger: the store calls it once, when it lets go of the draft. */
  release(): void {
    this.ledger.record(-this.footprint);
    this.footprint = 0;
  }
}
