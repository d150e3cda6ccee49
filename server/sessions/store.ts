import { randomUUID } from 'node:crypto';
import type { SessionDefaults } from '../../core/session.js';
import type { Walker } from '../../core/walker.js';
import { LeaseTable } from '../lease-table.js';
import type { SessionLimits } from '../options.js';
import { apiError, type ApiError } from '../api-error.js';
import { HostedSession, type IsolationPolicy } from './hosted-session.js';
import type { LoopTurns } from './loop-turns.js';

/** What a {@link SessionStore} needs. */
export interface SessionStoreOptions {
  readonly walker: Walker;
  readonly defaults: SessionDefaults;
  readonly limits: SessionLimits;
  /** When walks may leave the event loop; undefined keeps every walk in this thread. */
  readonly isolation?: IsolationPolicy;
  /** The app's, which every session's requests share; without it they never wait for the loop to turn. */
  readonly turns?: LoopTurns;
  /** Makes session ids; default random UUIDs (prefixed with the node id: server/node-id.ts). */
  readonly newId?: () => string;
  /** Milliseconds clock; default `Date.now`. */
  readonly now?: () => number;
}

/**
 * The sessions of one server made through `POST /walker/sessions` (the default session of `/walker` is not
 * among them). Every request of a session renews its lease; one idle for `--session-ttl` expires, frees its
 * walk and answers 410 for a while; a deleted one is forgotten and answers 404.
 */
export class SessionStore {
  private readonly sessions: LeaseTable<HostedSession>;
  private readonly now: () => number;
  private readonly newId: () => string;
  /** Set once the service began to close: no session is made any more. */
  private refusal: Error | undefined;

  constructor(private readonly options: SessionStoreOptions) {
    this.now = options.now ?? Date.now;
    this.newId = options.newId ?? randomUUID;
    this.sessions = new LeaseTable<HostedSession>(options.limits.ttlSeconds * 1000, this.now);
  }

  get size(): number {
    return this.sessions.size;
  }

  /**
   * A new, empty session; 429 session_limit_reached when `--max-sessions` are live; the refusal once closing.
   * `own` replaces defaults for this session only (what its steps report, for a wire that says more of them).
   */
  create(own: Partial<SessionDefaults> = {}): HostedSession {
    if (this.refusal !== undefined) throw this.refusal;
    this.sessions.sweep();
    const max = this.options.limits.maxSessions;
    if (this.sessions.size >= max) {
      throw apiError(
        'session_limit_reached',
        `${max} sessions are open, the most this server keeps (--max-sessions): delete sessions you no longer ` +
          'need (DELETE /walker/sessions/{session_id}) or wait until idle ones expire.',
      );
    }
    let id = this.newId();
    while (this.sessions.taken(id)) id = this.newId();
    const { walker, defaults, isolation, turns } = this.options;
    const session = new HostedSession(id, walker, { ...defaults, ...own }, isolation, this.now(), turns);
    this.sessions.add(id, session);
    return session;
  }

  /** The session a request is for; renews its lease. Throws 404 session_not_found or 410 session_expired. */
  use(id: string): HostedSession {
    const session = this.read(id);
    session.lastUsedAt = this.now();
    this.sessions.renew(id);
    return session;
  }

  /** The session, to look at; renews nothing. */
  read(id: string): HostedSession {
    const session = this.sessions.find(id);
    if (session === undefined) throw this.missing(id);
    return session;
  }

  /** Deletes a session and frees its walk; a request of it under way answers that the session was closed. */
  delete(id: string): void {
    this.read(id);
    this.sessions.remove(id);
  }

  /** Deletes a session if it is still there (a connection's, when it closes); false when it was gone already. */
  discard(id: string): boolean {
    return this.sessions.remove(id);
  }

  /** Live sessions, least recently used first. */
  list(): HostedSession[] {
    this.sessions.sweep();
    return [...this.sessions.values()];
  }

  /** Every session, and any asked for later, takes no more requests: they answer `error` (HostedSession.refuse). */
  refuse(error: Error): void {
    this.refusal = error;
    for (const session of this.sessions.values()) session.refuse(error);
  }

  startSweeping(): void {
    this.sessions.startSweeping();
  }

  close(): void {
    this.sessions.close();
  }

  private missing(id: string): ApiError {
    if (this.sessions.hasExpired(id)) {
      const ttl = this.options.limits.ttlSeconds;
      return apiError(
        'session_expired',
        `Session '${id}' expired after ${ttl} s without a request (--session-ttl) and was deleted; create a new one with POST /walker/sessions.`,
      );
    }
    return apiError(
      'session_not_found',
      `No session '${id}': it was deleted or never existed. Create one with POST /walker/sessions.`,
    );
  }
}
