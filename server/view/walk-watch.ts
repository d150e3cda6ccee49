import { ErrorCodes, WalkerError } from '../../core/errors.js';
import type { SessionWalk } from '../../core/session.js';
import type { GraphShape } from '../../core/machine/walk-view.js';
import type { HostedSession, SessionWatcher } from '../sessions/hosted-session.js';
import { Coalescer } from './coalescer.js';
import { LAST_STEPS } from './limits.js';
import type { GoneMessage } from './messages.js';
import { ObservedWalk, RecentSteps } from './observed-walk.js';
import type { WalkSnapshot } from './walk-message.js';


/** Hears every snapshot of a watched walk, and at the end why it ended. */
export type WalkListener = (update: WalkSnapshot | GoneMessage) => void;

/**
 * Watches one session for the web view while at least one reader listens: it sees every request go by (the
 * session's {@link SessionWatcher}), keeps the last steps, and after changes reads the walk through the
 * session's queue — at most {@link Coalescer}'s twenty times a second, each read whole and consistent with
 * the requests before it — and hands the snapshot to every listener. When the last listener leaves, it lets
 * go of the session, which then pays nothing for it.
 */
export class WalkWatch implements SessionWatcher {
  private readonly listeners = new Set<WalkListener>();
  private readonly steps = new RecentSteps(LAST_STEPS);
  private readonly observed = new ObservedWalk(this.steps);
  private readonly coalescer: Coalescer;
  /** The graph of the load last read, so that it is read again only after another load. */
  private known: { readonly load: number; readonly shape: GraphShape } | undefined;

  private constructor(
    private readonly session: HostedSession,
    private readonly sessionName: string,
    private readonly onError: (error: unknown) => void,
  ) {
    this.coalescer = new Coalescer(() => this.push(), onError);
  }

  /** The watch of a session: the one already watching it, or a new one. */
  static of(session: HostedSession, name: string, onError: (error: unknown) => void): WalkWatch {
    const current = session.watchedBy;
    return current instanceof WalkWatch ? current : new WalkWatch(session, name, onError);
  }

  /** Starts telling `listener` of the walk, beginning with how it stands now; returns what stops it. */
  listen(listener: WalkListener): () => void {
    if (this.listeners.size === 0) this.session.watch(this);
    this.listeners.add(listener);
    this.coalescer.changed();
    return () => this.leave(listener);
  }

  /** The walk as it stands, read through the session's queue like any request. */
  async snapshot(): Promise<WalkSnapshot> {
    const view = await this.session.look((walk) => walk.view(this.known?.load));
    if (view.shape !== undefined) this.known = { load: view.load, shape: view.shape };
    const graph = view.progress === undefined || this.known === undefined ? null : this.known.shape;
    return { session: this.sessionName, load: view.load, graph, progress: view.progress, lastSteps: this.steps.list() };
  }

  // SessionWatcher

  around(walk: SessionWalk): SessionWalk {
    this.observed.inner = walk;
    return this.observed;
  }

  changed(): void {
    this.coalescer.changed();
  }

  loaded(): void {
    this.steps.clear();
  }

  replaced(): void {
    this.known = undefined;
  }

  private leave(listener: WalkListener): void {
    if (!this.listeners.delete(listener) || this.listeners.size > 0) return;
    if (this.session.watchedBy === this) this.session.watch(undefined);
    this.steps.clear();
    this.known = undefined;
  }

  private async push(): Promise<void> {
    if (this.listeners.size === 0) return;
    let update: WalkSnapshot | GoneMessage;
    try {
      update = await this.snapshot();
    } catch (error) {
      if (!(error instanceof WalkerError && error.code === ErrorCodes.SESSION)) throw error;
      update = { kind: 'gone', code: 'session_closed', message: `The session '${this.sessionName}' was closed: ${error.message}` };
    }
    for (const listener of [...this.listeners]) listener(update);
  }
}
