import { randomUUID } from 'node:crypto';
import type { DraftLimits } from '../options.js';
import { Draft, type ChangePlanner } from './draft.js';
import { apiError, type ApiError } from '../api-error.js';
import { MemoryLedger } from './footprint.js';
import { LeaseTable } from '../lease-table.js';
import { newDraftModel } from './model-fields.js';
import { checkPreconditions, type Preconditions } from './preconditions.js';
import type { DraftCreateInput } from './schemas.js';

/** How many expired draft ids are remembered so that they answer 410 rather than 404. */
export { EXPIRED_IDS_REMEMBERED } from '../lease-table.js';

/** What a {@link DraftStore} needs. */
export interface DraftStoreOptions {
  readonly limits: DraftLimits;
  /** Milliseconds clock; default `Date.now`. */
  readonly now?: () => number;
  /** Makes draft ids; default random UUIDs, so that one client cannot guess another's draft. */
  readonly newDraftId?: () => string;
}

/**
 * The drafts of one app, in memory. A draft's lease is renewed by its creation and by every successful change,
 * never by a read (docs/api-drafts.md, Limits and lifetime). An expired draft frees its model at once and its id
 * answers 410 for a while; a discarded draft is forgotten and its id answers 404. Every draft counts against one
 * memory ledger (`--max-draft-memory`).
 */
export class DraftStore {
  private readonly drafts: LeaseTable<Draft>;
  private readonly now: () => number;
  private readonly newDraftId: () => string;
  private readonly ledger: MemoryLedger;
  /** Who watches which draft (the web view); empty unless someone does, so a change pays one size check. */
  private readonly watchers = new Map<string, Set<() => void>>();

  constructor(readonly options: DraftStoreOptions) {
    this.now = options.now ?? Date.now;
    this.newDraftId = options.newDraftId ?? randomUUID;
    this.drafts = new LeaseTable<Draft>(options.limits.ttlSeconds * 1000, this.now, (id) => this.notify(id));
    this.ledger = new MemoryLedger(options.limits.maxMemoryBytes);
  }

  /** Live drafts. */
  get size(): number {
    return this.drafts.size;
  }

  /** Estimated bytes the live drafts hold, as `--max-draft-memory` counts them. */
  get usedBytes(): number {
    return this.ledger.usedBytes;
  }

  /**
   * A new draft at revision 0 from the body of `POST /walker/drafts`; throws `draft_limit_reached` when
   * `--max-drafts` drafts are live, `memory_limit_reached` when it does not fit in `--max-draft-memory`.
   */
  create(input: DraftCreateInput = {}): Draft {
    this.sweep();
    const max = this.options.limits.maxDrafts;
    if (this.drafts.size >= max) {
      throw apiError(
        'draft_limit_reached',
        `${max} drafts are open, the most this server keeps (--max-drafts): delete drafts you no longer need ` +
          '(DELETE /walker/drafts/{draft_id}) or wait until unused ones expire.',
      );
    }
    const model = newDraftModel(input.model_id ?? `model-${randomUUID().slice(0, 8)}`, input);
    let id = this.newDraftId();
    while (this.drafts.taken(id)) id = this.newDraftId();
    const draft = new Draft(id, model, this.now(), this.ledger);
    this.drafts.add(id, draft);
    return draft;
  }

  /**
   * The draft with this id, to read; reading renews no lease. Throws `draft_not_found` (never existed or
   * discarded), `draft_expired`, or `draft_unavailable` (an internal error broke it).
   */
  read(id: string): Draft {
    const draft = this.lookup(id);
    if (draft.broken) {
      throw apiError(
        'draft_unavailable',
        `Draft '${id}' cannot be used: an internal error interrupted a change to it. Create a new draft.`,
      );
    }
    return draft;
  }

  /** Applies a change to a draft (Draft.mutate) and, when it succeeds, renews the draft's lease. */
  change<T>(id: string, pre: Preconditions, plan: ChangePlanner<T>): { draft: Draft; result: T } {
    const draft = this.read(id);
    const result = draft.mutate(pre, plan);
    draft.lastChanged = this.now();
    this.drafts.renew(id);
    this.notify(id);
    return { draft, result };
  }

  /**
   * Calls `listener` after every change of the draft, and once when it is discarded or expires (a read then
   * says which). Throws like {@link read} for a draft that is not there. Returns what stops the calls.
   */
  watch(id: string, listener: () => void): () => void {
    this.read(id);
    let listeners = this.watchers.get(id);
    if (listeners === undefined) this.watchers.set(id, (listeners = new Set()));
    listeners.add(listener);
    return () => {
      listeners.delete(listener);
      if (listeners.size === 0 && this.watchers.get(id) === listeners) this.watchers.delete(id);
    };
  }

  /**
   * Discards a draft, when its preconditions hold, and frees its model; later requests for it answer 404. A
   * draft an internal error broke can be discarded too: that is how its memory comes back before it expires.
   */
  discard(id: string, pre: Preconditions = {}): void {
    const draft = this.lookup(id);
    checkPreconditions(id, draft.revision, pre);
    this.drafts.remove(id);
  }

  /** Expires every draft unchanged for the TTL; returns how many. */
  sweep(): number {
    return this.drafts.sweep();
  }

  /** Sweeps on a timer as well, so that idle servers free expired drafts too. */
  startSweeping(): void {
    this.drafts.startSweeping();
  }

  /** Stops sweeping and drops every draft (the server is closing). */
  close(): void {
    this.drafts.close();
  }

  private notify(id: string): void {
    if (this.watchers.size === 0) return;
    for (const listener of this.watchers.get(id) ?? []) listener();
  }

  /** The live draft with this id, broken or not; throws `draft_not_found` or `draft_expired`. */
  private lookup(id: string): Draft {
    const draft = this.drafts.find(id);
    if (draft === undefined) throw this.missing(id);
    return draft;
  }

  private missing(id: string): ApiError {
    if (this.drafts.hasExpired(id)) {
      const ttl = this.options.limits.ttlSeconds;
      return apiError(
        'draft_expired',
        `Draft '${id}' expired after ${ttl} s without a change (--draft-ttl) and was discarded; create a new draft.`,
      );
    }
    return apiError(
      'draft_not_found',
      `No draft '${id}': it was deleted or never existed. Create one with POST /walker/drafts.`,
    );
  }
}
