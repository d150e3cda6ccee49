import type { DraftModel } from './draft-model.js';
import { DraftError } from './errors.js';

/**
 * A change in two phases: the planner checks the whole request against the model and throws a `DraftError`
 * without touching anything; the step it returns applies the change and cannot fail on valid input.
 */
export type ChangePlanner<T> = (model: DraftModel) => () => T;

/**
 * One draft: a model under construction, its revision and when it was last used. Changes go through
 * {@link mutate}, which is synchronous from the revision check to the new revision, so that on Node's single
 * thread concurrent requests for one draft are serialised and of several with the same expected revision
 * exactly one succeeds.
 */
export class Draft {
  /** 0 at creation; +1 per successful change. */
  revision = 0;
  /** Milliseconds (of the store's clock) of the last request that used the draft. */
  lastTouched: number;
  /** Set when an internal error interrupted a change: the model may be half changed and is not served again. */
  broken = false;

  constructor(
    readonly id: string,
    readonly model: DraftModel,
    now: number,
  ) {
    this.lastTouched = now;
  }

  /**
   * Checks `expectedRevision`, plans the change (which may throw a `DraftError`, leaving everything as it was),
   * applies it and moves to the next revision. Returns what the apply step returned.
   */
  mutate<T>(expectedRevision: number | undefined, plan: ChangePlanner<T>): T {
    this.checkRevision(expectedRevision);
    const apply = plan(this.model);
    let result: T;
    try {
      result = apply();
    } catch (error) {
      // Planners check everything an apply step relies on, so this is a bug; the model may be half changed.
      this.broken = true;
      throw error;
    }
    this.revision++;
    return result;
  }

  /** Throws `revision_conflict` when the client based its request on another revision. */
  checkRevision(expected: number | undefined): void {
    if (expected === undefined || expected === this.revision) return;
    throw new DraftError(
      'revision_conflict',
      `The draft is at revision ${this.revision}, but the request expects revision ${expected}: ` +
        `read the draft again (GET /walker/drafts/${this.id}) and retry with expected_revision ${this.revision}.`,
    );
  }
}
