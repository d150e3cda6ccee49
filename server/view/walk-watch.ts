import { andThen } from '../../core/awaitable.js';
import { ErrorCodes, WalkerError } from '../../core/errors.js';
import type { SessionWalk } from '../../core/session.js';
import type { HostedSession, SessionWatcher } from '../sessions/hosted-session.js';
import { Broadcast, WholePublication, type Publication } from './broadcast.js';
import { Coalescer, pushInterval } from './coalescer.js';
import type { EventStream } from './event-stream.js';
import { eventFrame, jsonOf, type JsonParts } from './frame.js';
import { LAST_STEPS } from './limits.js';
import type { GoneMessage } from './messages.js';
import { ObservedWalk, RecentSteps } from './observed-walk.js';
import type { WalkSnapshot } from './walk-message.js';
import { LoadedGraph, WalkPublication, wholeWalkJson } from './walk-publication.js';
import type { ApiErrorCode } from '../api-error.js';

/**
 * The graph of each session's load, as last read: read again only after another load, however many pages
 * open and close meanwhile. Reading a graph is O(model), like a load; kept here, a large model's graph is
 * read once per load. Its JSON is kept only while streams read the session.
 */
const graphs = new WeakMap<HostedSession, LoadedGraph>();

/**
 * Watches one session for the web view while at least one stream reads it: it sees every request go by (the
 * session's {@link SessionWatcher}), keeps the last steps, and after changes reads the walk through the
 * session's queue — at most {@link Coalescer}'s twenty times a second, each read whole and consistent with
 * the requests before it — and publishes the snapshot to every stream, serialised once for all of them
 * ({@link Broadcast}). When the last stream leaves, it lets go of the session, which then pays nothing for it.
 */
export class WalkWatch implements SessionWatcher {
  private readonly broadcast = new Broadcast();
  private readonly steps = new RecentSteps(LAST_STEPS);
  private readonly observed = new ObservedWalk(this.steps);
  private readonly coalescer: Coalescer;
  private published = 0;
  /** The visit counts last published, and of which load. */
  private lastVisits: { readonly load: number; readonly visits: Uint32Array } | undefined;

  private constructor(
    private readonly session: HostedSession,
    private readonly sessionName: string,
    onError: (error: unknown) => void,
  ) {
    this.coalescer = new Coalescer(() => this.push(), onError, () => pushInterval(this.broadcast.size));
  }

  /** The watch of a session: the one already watching it, or a new one. */
  static of(session: HostedSession, name: string, onError: (error: unknown) => void): WalkWatch {
    const current = session.watchedBy;
    return current instanceof WalkWatch ? current : new WalkWatch(session, name, onError);
  }

  /**
   * Sends the walk to `stream` from now on: at once the latest snapshot when others already read it, else the
   * first read. Returns what stops it.
   */
  listen(stream: EventStream): () => void {
    if (this.broadcast.size === 0) {
      this.session.watch(this);
      this.coalescer.changed();
    }
    this.broadcast.add(stream);
    return () => this.leave(stream);
  }

  /** The walk's message as it stands, whole, as JSON: read through the session's queue like any request. */
  async message(): Promise<JsonParts> {
    const { snapshot, graph } = await this.read();
    const json = wholeWalkJson(snapshot, await graph?.serialised());
    // Kept while streams read it; a session only ever read whole does not hold its graph's JSON.
    if (this.broadcast.size === 0) graph?.forgetJson();
    return json;
  }

  /** The walk as it stands and the graph of its load (undefined before a load), through the session's queue. */
  private async read(): Promise<{ snapshot: WalkSnapshot; graph: LoadedGraph | undefined }> {
    const { session } = this;
    // A read that brings the graph (the first after a load) costs O(model), like the load: not judged. Whether
    // it brings it is known only when its turn comes: six reads asked at once of a new load bring it once.
    const knownGraph = () => {
      const known = graphs.get(session);
      return known?.isolated === session.isolated ? known : undefined;
    };
    const { view, isolated, cached } = await session.look(
      (walk) => {
        const known = knownGraph();
        return andThen(walk.view(known?.load), (answer) => ({ view: answer, isolated: session.isolated, cached: known }));
      },
      () => knownGraph() !== undefined,
    );
    let graph = view.progress === undefined ? undefined : cached;
    if (view.shape !== undefined) graphs.set(session, (graph = new LoadedGraph(view.load, isolated, view.shape)));
    const snapshot = { session: this.sessionName, load: view.load, graph: graph?.shape ?? null, progress: view.progress, lastSteps: this.steps.list() };
    return { snapshot, graph };
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
    // The walk rebuilt in a thread goes on counting loads where the session was (WorkerWalk.countLoadsAfter),
    // so each reader's load still names its graph, and a page keeps the graph it drew. The visit counts are
    // read afresh from the rebuilt walk.
    this.lastVisits = undefined;
  }

  private leave(stream: EventStream): void {
    this.broadcast.remove(stream);
    if (this.broadcast.size > 0) return;
    if (this.session.watchedBy === this) this.session.watch(undefined);
    this.steps.clear();
    this.lastVisits = undefined;
    this.broadcast.reset();
    graphs.get(this.session)?.forgetJson();
  }

  private async push(): Promise<void> {
    if (this.broadcast.size === 0) return;
    let publication: Publication;
    try {
      const { snapshot, graph } = await this.read();
      publication = this.publication(snapshot, await graph?.serialised());
    } catch (error) {
      if (!(error instanceof WalkerError && error.code === ErrorCodes.SESSION)) throw error;
      const gone: GoneMessage = { kind: 'gone', code: 'session_closed' satisfies ApiErrorCode, message: `The session '${this.sessionName}' was closed: ${error.message}` };
      publication = new WholePublication(++this.published, eventFrame(jsonOf(gone)), true);
    }
    this.broadcast.publish(publication);
  }

  private publication(snapshot: WalkSnapshot, graph: JsonParts | undefined): WalkPublication {
    const visits = snapshot.progress?.visits;
    const before = this.lastVisits?.load === snapshot.load ? this.lastVisits.visits : undefined;
    this.lastVisits = visits === undefined ? undefined : { load: snapshot.load, visits };
    return new WalkPublication(++this.published, snapshot, graph, before);
  }
}
