/** How many expired ids a {@link LeaseTable} remembers, so that they answer "expired" (410) rather than "unknown" (404). */
export const EXPIRED_IDS_REMEMBERED = 10_000;

/** What a {@link LeaseTable} holds: something it lets go of exactly once, when it is removed or expires. */
export interface Leased {
  release(): void;
}

/**
 * Things handed out by id that expire when their lease is not renewed for `ttlMs`: the drafts and the
 * sessions. The Map is kept in order of last renewal (a renewed entry moves to the end), so that expired
 * entries are always at its front: finding them costs only their number, and a store can sweep on every
 * request. An expired entry is released at once and its id is remembered for a while, so that a client
 * hears it expired; a removed one is forgotten.
 */
export class LeaseTable<T extends Leased> {
  private readonly entries = new Map<string, { readonly item: T; renewedAt: number }>();
  /** Ids of expired entries, oldest first, at most {@link EXPIRED_IDS_REMEMBERED}. */
  private readonly expired = new Set<string>();
  private sweeper: NodeJS.Timeout | undefined;

  constructor(
    private readonly ttlMs: number,
    private readonly now: () => number,
    /** Told the id of every entry released (removed, expired, or dropped at close), after its release. */
    private readonly released: (id: string) => void = () => {},
  ) {}

  /** Live entries. */
  get size(): number {
    return this.entries.size;
  }

  /** True when the id is live or remembered as expired: a new entry must not take it. */
  taken(id: string): boolean {
    return this.entries.has(id) || this.expired.has(id);
  }

  /** Adds an entry whose lease starts now. */
  add(id: string, item: T): void {
    this.entries.set(id, { item, renewedAt: this.now() });
  }

  /** The live entry with this id (after a sweep), or undefined; reading renews nothing. */
  find(id: string): T | undefined {
    this.sweep();
    return this.entries.get(id)?.item;
  }

  /** True when the id belonged to an entry that expired (and is still remembered). */
  hasExpired(id: string): boolean {
    return this.expired.has(id);
  }

  /** Milliseconds (of the table's clock) of the entry's last renewal. */
  renewedAt(id: string): number | undefined {
    return this.entries.get(id)?.renewedAt;
  }

  /** Starts the entry's lease afresh. */
  renew(id: string): void {
    const entry = this.entries.get(id);
    if (entry === undefined) return;
    entry.renewedAt = this.now();
    this.entries.delete(id);
    this.entries.set(id, entry);
  }

  /** Removes and releases an entry; its id is forgotten. */
  remove(id: string): boolean {
    const entry = this.entries.get(id);
    if (entry === undefined) return false;
    this.entries.delete(id);
    entry.item.release();
    this.released(id);
    return true;
  }

  /** The live entries, least recently renewed first. */
  *values(): IterableIterator<T> {
    for (const entry of this.entries.values()) yield entry.item;
  }

  /** Expires every entry not renewed for the TTL; returns how many. */
  sweep(): number {
    const now = this.now();
    let count = 0;
    for (const [id, entry] of this.entries) {
      if (now - entry.renewedAt < this.ttlMs) break;
      this.entries.delete(id);
      entry.item.release();
      this.released(id);
      if (this.expired.size >= EXPIRED_IDS_REMEMBERED) {
        const oldest = this.expired.values().next().value;
        if (oldest !== undefined) this.expired.delete(oldest);
      }
      this.expired.add(id);
      count++;
    }
    return count;
  }

  /** Sweeps every `intervalMs` as well, so that an idle server frees expired entries too. */
  startSweeping(intervalMs = Math.min(Math.max(this.ttlMs, 1000), 60_000)): void {
    this.stopSweeping();
    this.sweeper = setInterval(() => this.sweep(), intervalMs);
    this.sweeper.unref();
  }

  stopSweeping(): void {
    if (this.sweeper !== undefined) clearInterval(this.sweeper);
    this.sweeper = undefined;
  }

  /** Stops sweeping and releases every entry (the server is closing). */
  close(): void {
    this.stopSweeping();
    const entries = [...this.entries];
    this.entries.clear();
    for (const [id, entry] of entries) {
      entry.item.release();
      this.released(id);
    }
    this.expired.clear();
  }
}
