import { randomUUID } from 'node:crypto';
import type { DraftLimits } from '../options.js';
import { Draft } from './draft.js';
import { DraftModel, type DraftModelFields } from './draft-model.js';
import { DraftError } from './errors.js';

/** How many expired draft ids are remembered so that they answer 410 rather than 404. */
export const EXPIRED_IDS_REMEMBERED = 10_000;

/** What a {@link DraftStore} needs. */
export interface DraftStoreOptions {
  readonly limits: DraftLimits;
  /** Milliseconds clock; default `Date.now`. */
  readonly now?: () => number;
  /** Makes draft ids; default random UUIDs, so that one client cannot guess another's draft. */
  readonly newDraftId?: () => string;
}

/**
 * The drafts of one app, in memory. The Map is kept in order of last use (a used draft moves to the end), so
 * that expired drafts are always at its front: finding them costs only their number, and the store can sweep
 * on every request. An expired draft frees its model at once and its id answers 410 for a while; a discarded
 * draft is forgotten and its id answers 404.
 */
export class DraftStore {
  private readonly drafts = new Map<string, Draft>();
  /** Ids of expired drafts, oldest first, at most {@link EXPIRED_IDS_REMEMBERED}. */
  private readonly expired = new Set<string>();
  private readonly now: () => number;
  private readonly newDraftId: () => string;
  private readonly ttlMs: number;
  private sweeper: NodeJS.Timeout | undefined;

  constructor(readonly options: DraftStoreOptions) {
    this.now = options.now ?? Date.now;
    this.newDraftId = options.newDraftId ?? randomUUID;
    this.ttlMs = options.limits.ttlSeconds * 1000;
  }

  /** Live drafts. */
  get size(): number {
    return this.drafts.size;
  }

  /** A new draft at revision 0; throws `draft_limit_reached` when `--max-drafts` drafts are live. */
  create(modelId: string | undefined, fields: Partial<DraftModelFields> = {}): Draft {
    this.sweep();
    const max = this.options.limits.maxDrafts;
    if (this.drafts.size >= max) {
      throw new DraftError(
        'draft_limit_reached',
        `${max} drafts are open, the most this server keeps (--max-drafts): delete drafts you no longer need ` +
          '(DELETE /walker/drafts/{draft_id}) or wait until unused ones expire.',
      );
    }
    let id = this.newDraftId();
    while (this.drafts.has(id) || this.expired.has(id)) id = this.newDraftId();
    const model = new DraftModel(modelId ?? `model-${randomUUID().slice(0, 8)}`, fields);
    const draft = new Draft(id, model, this.now());
    this.drafts.set(id, draft);
    return draft;
  }

  /**
   * The draft with this id, marked as used now. Throws `draft_not_found` (never existed or discarded),
   * `draft_expired`, or `draft_unavailable` (an internal error broke it).
   */
  get(id: string): Draft {
    this.sweep();
    const draft = this.drafts.get(id);
    if (draft === undefined) throw this.missing(id);
    if (draft.broken) {
      throw new DraftError(
        'draft_unavailable',
        `Draft '${id}' cannot be used: an internal error interrupted a change to it. Create a new draft.`,
      );
    }
    draft.lastTouched = this.now();
    this.drafts.delete(id);
    this.drafts.set(id, draft);
    return draft;
  }

  /** Discards a draft and frees its model; later requests for it answer 404. */
  discard(id: string): void {
    this.get(id);
    this.drafts.delete(id);
  }

  /** Expires every draft untouched for the TTL; returns how many. */
  sweep(): number {
    const now = this.now();
    let count = 0;
    for (const draft of this.drafts.values()) {
      if (now - draft.lastTouched < this.ttlMs) break;
      this.expire(draft.id);
      count++;
    }
    return count;
  }

  /** Sweeps every `intervalMs` as well, so that idle servers free expired drafts too. */
  startSweeping(intervalMs = Math.min(Math.max(this.ttlMs, 1000), 60_000)): void {
    this.stopSweeping();
    this.sweeper = setInterval(() => this.sweep(), intervalMs);
    this.sweeper.unref();
  }

  stopSweeping(): void {
    if (this.sweeper !== undefined) clearInterval(this.sweeper);
    this.sweeper = undefined;
  }

  /** Stops sweeping and drops every draft (the server is closing). */
  close(): void {
    this.stopSweeping();
    this.drafts.clear();
    this.expired.clear();
  }

  private expire(id: string): void {
    this.drafts.delete(id);
    if (this.expired.size >= EXPIRED_IDS_REMEMBERED) {
      const oldest = this.expired.values().next().value;
      if (oldest !== undefined) this.expired.delete(oldest);
    }
    this.expired.add(id);
  }

  private missing(id: string): DraftError {
    if (this.expired.has(id)) {
      const ttl = this.options.limits.ttlSeconds;
      return new DraftError(
        'draft_expired',
        `Draft '${id}' expired after ${ttl} s without use (--draft-ttl) and was discarded; create a new draft.`,
      );
    }
    return new DraftError(
      'draft_not_found',
      `No draft '${id}': it was deleted or never existed. Create one with POST /walker/drafts.`,
    );
  }
}
