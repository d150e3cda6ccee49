import { andThen, isPromiseLike, type Awaitable } from '../../core/awaitable.js';
import {
  ExecutionSession,
  type SessionDefaults,
  type SessionLoadOptions,
  type SessionLoadResult,
  type SessionWalk,
  type WalkSummary,
} from '../../core/session.js';
import type { LoadedModelFile } from '../../core/model/load.js';
import { DEFAULT_SCRIPT_LIMITS } from '../../core/scripting.js';
import type { Walker } from '../../core/walker.js';
import type { Leased } from '../lease-table.js';
import { ErrorCodes, isScriptYield, WalkerError, type ScriptError } from '../../core/errors.js';
import { LocalWalk } from './local-walk.js';
import type { LoopTurns } from './loop-turns.js';
import { LoopTime } from './loop-time.js';
import { RequestQueue } from './request-queue.js';
import type { IsolationPolicy, SessionInfo, SessionWatcher } from './session-hosting.js';
import { loopYieldMs } from './slow-requests.js';
import { ThreadMoves, type MovableSession } from './thread-moves.js';
import { SessionActivity } from './walk-pace.js';
import { watchedRequest } from './watched-request.js';
import { SESSION_CLOSED_MESSAGE, WorkerWalk } from './worker-walk.js';

export type { IsolationPolicy, SessionInfo, SessionWatcher } from './session-hosting.js';

/**
 * One session of the server: a walk behind a queue that runs its requests strictly in order. The walk starts
 * in this thread, an {@link ExecutionSession} that journals what it is asked, whose loads and restarts reserve
 * a memory of its own first ({@link LocalWalk}); a walk whose requests keep the event loop busy (slow scripts,
 * mostly) is rebuilt from its journal in a worker thread of its own and carries on there, so it stalls only
 * itself. A load whose work is large runs in such a thread from the start, and the walk stays there unless the
 * load proved cheap (server/sessions/load-placement.ts). A request whose scripts run long on the loop does not
 * hold it for their whole time limit: they yield ({@link loopYieldMs}), and the request runs again in such a
 * thread. Nothing in it is shared with another session.
 *
 * It composes parts with one job each: the queue and its refusal ({@link RequestQueue}), what requests cost
 * the loop ({@link LoopTime}, and the app's {@link LoopTurns}), the moves to a thread ({@link ThreadMoves}) and
 * the watcher ({@link watchedRequest}); what is left here is which walk a request runs on, and putting a walk
 * back after a request that a limit cut short.
 */
export class HostedSession implements Leased {
  readonly createdAt: number;
  lastUsedAt: number;
  private readonly requests = new RequestQueue();
  /** The walk while it runs in this thread. */
  private inline: LocalWalk | undefined;
  private remote: WorkerWalk | undefined;
  private walk: SessionWalk;
  /** What the requests cost the event loop, and whether the walk should move. */
  private readonly time: LoopTime;
  /** Undefined without an isolation policy: the walk then never leaves the event loop. */
  private readonly moves: ThreadMoves | undefined;
  /**
   * Script time after which a request of the walk on the loop yields, to run again in a thread; undefined
   * without a policy, and once no thread could take the walk.
   */
  private yieldMs: number | undefined;
  /** What {@link yieldNow} last answered: the yield of the request that last yielded. */
  private yieldRead = 0;
  /** The number the app's {@link SessionActivity} gave this session's last request. */
  private lastStarted = 0;
  private summary: WalkSummary = { models: [], steps: 0, vertexCoverage: 0, edgeCoverage: 0 };
  private watcher: SessionWatcher | undefined;

  constructor(
    readonly id: string,
    walker: Walker,
    defaults: SessionDefaults,
    private readonly isolation: IsolationPolicy | undefined,
    now: number,
    /** The app's, shared by its sessions; without it requests never wait for the loop to turn. */
    private readonly turns?: LoopTurns,
  ) {
    this.yieldMs = isolation === undefined ? undefined : loopYieldMs(isolation);
    // Journaled with or without a policy: the journal is also what undoes a request that a limit cut short.
    const session = new ExecutionSession(walker, { ...defaults, journal: true, yieldAfterMs: () => this.yieldNow() });
    this.time = new LoopTime(isolation, turns, (busyMs) => {
      // A request that a limit cut short moves the walk itself, as it undoes what the request did (undoCut).
      const moves = this.moves;
      if (moves === undefined || this.inline?.journal?.cutShort === true) return false;
      // Queued behind whatever is waiting: the requests already in line run here first, in order.
      void this.requests.enqueue(() => moves.forSlowness(busyMs));
      return true;
    }, defaults.scriptLimits?.timeoutMs ?? DEFAULT_SCRIPT_LIMITS.timeoutMs, (busyMs) => isolation?.overruns?.record(id, busyMs));
    const movable: MovableSession = {
      id,
      inline: () => this.inline,
      refusal: () => this.refusal,
      adopt: (remote, inline) => this.adopt(remote, inline),
    };
    this.moves = isolation === undefined ? undefined : new ThreadMoves(movable, isolation, defaults, this.time);
    this.inline = new LocalWalk(
      session,
      walker,
      (work, load) => this.time.measure(session, work, load),
      (source, options, here) => this.moves?.placeLoad(source, options, here) ?? here(),
    );
    this.walk = this.inline;
    this.createdAt = this.lastUsedAt = now;
  }

  /** True when the walk runs in a worker thread. */
  get isolated(): boolean {
    return this.remote !== undefined;
  }

  /** What every request answers once the session takes no more: it was released, or the service is closing. */
  get refusal(): Error | undefined {
    return this.requests.refusal;
  }

  /**
   * Runs a task on the walk once every earlier task of this session has finished. A task on the walk in this
   * thread is timed: one that kept the loop busy too long counts towards moving the walk to a thread.
   */
  run<T>(task: (walk: SessionWalk) => Awaitable<T>): Promise<T> {
    return this.requests.run(() => this.begin(task));
  }

  /**
   * Runs a task that only reads the walk (the web view's) in the session's queue, so that what it reads is
   * consistent with the requests before it. No watcher hears of it. It is judged like a request of {@link run},
   * since reading the variables runs the model's getters: a read that holds the loop counts towards moving the
   * walk. Unless `judged` answers false, asked when the task's turn comes (what the task will read may have
   * changed while it waited): a read of the models' shape costs O(model) once per load, like the load.
   */
  look<T>(task: (walk: SessionWalk) => Awaitable<T>, judged: () => boolean = () => true): Promise<T> {
    return this.requests.run(() => this.begin(task, false, judged()));
  }

  /** Who watches the session now; undefined when nobody does. */
  get watchedBy(): SessionWatcher | undefined {
    return this.watcher;
  }

  /** Starts (a watcher) or stops (undefined) telling a watcher of every request. */
  watch(watcher: SessionWatcher | undefined): void {
    this.watcher = watcher;
  }

  /**
   * Opens a walk on a model loaded elsewhere (the `-m` files of `walker online`), before any request. Its
   * normalised file is what the journal starts from, should the walk have to be rebuilt in a thread.
   */
  async preload(loaded: LoadedModelFile, options: SessionLoadOptions): Promise<SessionLoadResult> {
    if (this.inline === undefined) throw new Error('preload runs before the first request only');
    // No request waits for it, so it runs its scripts to their limits here.
    const yieldMs = this.yieldMs;
    this.yieldMs = undefined;
    try {
      return await this.inline.open(loaded, options, { value: loaded.file });
    } finally {
      this.yieldMs = yieldMs;
    }
  }

  /** Opens a walk on a model file value (a draft's revision), in whichever thread the walk runs. */
  loadModel(value: unknown, options: SessionLoadOptions = {}): Promise<SessionLoadResult> {
    return this.run(() => {
      const walk = this.inline ?? (this.remote as WorkerWalk);
      return andThen(walk.loadModel(value, options), (result) => {
        this.watcher?.loaded();
        return result;
      });
    });
  }

  /** The session in figures; while a request is under way, as they were after the last one. */
  async info(): Promise<SessionInfo> {
    if (this.requests.pending === 0) this.summary = await this.run((walk) => walk.describe());
    return {
      id: this.id,
      created: new Date(this.createdAt).toISOString(),
      lastUsed: new Date(this.lastUsedAt).toISOString(),
      ...this.summary,
      isolated: this.isolated,
    };
  }

  /** Frees the walk, in this thread or its own; requests still queued answer that the session was closed. */
  release(): void {
    this.refuse(new WalkerError(ErrorCodes.SESSION, SESSION_CLOSED_MESSAGE));
    this.inline?.dispose();
    this.inline = undefined;
    // A watcher's next look finds the session closed, and says so to whoever watches.
    this.watcher?.changed();
  }

  /**
   * Takes no more requests: those waiting in the queue and any asked later answer `error` without running,
   * and a walk in a worker thread stops, so that its request under way answers `error` too. A task running
   * in this thread finishes; the walk stays until {@link release}.
   */
  refuse(error: Error): void {
    const refusal = this.requests.refuse(error);
    this.time.movable = false;
    // A thread still rebuilding the walk stops too: the requests waiting behind the move are answered at once.
    this.moves?.abort();
    void this.remote?.close(refusal);
  }

  /** The walk runs in `remote` from now on; the walk here, if any, is freed. */
  private adopt(remote: WorkerWalk, inline: LocalWalk | undefined): void {
    this.remote = remote;
    this.walk = remote;
    this.inline = undefined;
    this.time.movable = false;
    inline?.dispose();
    this.watcher?.replaced();
  }

  /**
   * A task's turn in the queue has come: counted among the app's requests, and a walk in a thread told
   * whether others were served since this session's last request, which paces it (walk-pace.ts).
   */
  private begin<T>(task: (walk: SessionWalk) => Awaitable<T>, heard = true, judged = true): Awaitable<T> {
    const activity = this.isolation?.activity;
    if (activity !== undefined) {
      const started = activity.started();
      if (this.remote !== undefined) this.remote.pace = SessionActivity.othersBetween(this.lastStarted, started);
      this.lastStarted = started;
    }
    return this.start(task, heard, judged);
  }

  /**
   * Starts a task whose turn in the queue has come: refused once the session takes no more, and, for a walk
   * in this thread, not before the event loop has turned when earlier work held it long ({@link LoopTurns}).
   * A watcher hears of it unless `heard` is false; it counts towards moving the walk unless `judged` is false.
   */
  private start<T>(task: (walk: SessionWalk) => Awaitable<T>, heard = true, judged = true): Awaitable<T> {
    this.requests.admit();
    const turn = this.inline === undefined ? undefined : this.turns?.afterTurn(() => this.start(task, heard, judged));
    if (turn !== undefined) return turn;
    if (this.inline !== undefined && this.time.movable && this.isolation?.overruns?.wary === true) {
      return this.leaveLoop(this.inline).then(() => this.start(task, heard, judged));
    }
    const inline = this.inline;
    // Where a task whose scripts yielded runs again: the walk has moved to a thread meanwhile, or yields no more.
    const again = (): Awaitable<T> => this.start(task, heard, judged);
    if (heard && this.watcher !== undefined) {
      return watchedRequest(this.watcher, inline ?? this.walk, (walk) => (inline === undefined ? task(walk) : this.timed(task, inline, walk, again)));
    }
    if (inline === undefined) return task(this.walk);
    if (judged) return this.timed(task, inline, inline, again);
    try {
      return this.time.unjudged(() => task(inline));
    } catch (error) {
      return this.failed(inline, error, again);
    }
  }

  /**
   * Runs a task on the walk in this thread, `walk` being that walk or a watcher's view of it, and times it.
   * A task that a script limit cut short answers its error only once the walk is as it was before it.
   */
  private timed<T>(task: (walk: SessionWalk) => Awaitable<T>, inline: LocalWalk, walk: SessionWalk, again: () => Awaitable<T>): Awaitable<T> {
    let result: Awaitable<T>;
    try {
      result = this.time.measure(inline.session, () => task(walk));
    } catch (error) {
      return this.failed(inline, error, again);
    }
    if (!isPromiseLike(result)) return result;
    // A load or restart waits for its memory, and its model actions may be cut short once it has it.
    return Promise.resolve(result).catch((error: unknown) => (this.inline === inline ? this.failed(inline, error, again) : Promise.reject(error)));
  }

  /** What a task on the walk in this thread that threw `error` answers; `again` runs it once more. */
  private failed<T>(inline: LocalWalk, error: unknown, again: () => Awaitable<T>): Awaitable<T> {
    if (isScriptYield(error)) return this.yielded(inline, error, again);
    if (inline.journal?.cutShort === true) return this.undoCut(inline, error);
    throw error;
  }

  /**
   * Moves the walk to a thread of its own before a request, while the app keeps walks off the event loop
   * (server/sessions/loop-overruns.ts). A walk that cannot move (its journal no longer holds it, or no thread
   * starts) stays here, and is not tried again.
   */
  private async leaveLoop(inline: LocalWalk): Promise<void> {
    if (!(await this.rebuildInThread(inline, 'walks keep off the event loop since a request held it past every script limit'))) this.time.movable = false;
  }

  /**
   * Rebuilds the walk here in a thread of its own from its journal (a session with no model yet gets a thread
   * with none), `why` going to the log; false without a policy, once the session takes no more, when the
   * journal no longer holds the walk, or when no thread took it.
   */
  private async rebuildInThread(inline: LocalWalk, why: string): Promise<boolean> {
    const journal = inline.journal?.snapshot();
    const rebuildable = journal !== undefined || !inline.session.loaded;
    return this.moves !== undefined && rebuildable && this.refusal === undefined && (await this.moves.rebuild(journal, inline, why));
  }

  /**
   * The script time after which a request of the walk here yields, read as its first script starts: only
   * while a thread can take the walk as it is (its journal holds it, or no model is loaded yet). While other
   * requests wait for the loop to turn, the slow-request time: each waits for this one's yield, and for those
   * ahead of it, so that sessions whose first requests run long at once hold a cheap request about one yield
   * and a slow request for each of the others, rather than a yield each.
   */
  private yieldNow(): number | undefined {
    const inline = this.inline;
    if (this.yieldMs === undefined || inline === undefined) return undefined;
    if (inline.session.loaded && inline.journal?.holdsWalk !== true) return undefined;
    const contended = this.turns?.contended === true && this.isolation !== undefined;
    this.yieldRead = contended ? Math.min(this.yieldMs, this.isolation.slowRequestMs) : this.yieldMs;
    return this.yieldRead;
  }

  /**
   * A request whose scripts yielded on the loop (`error`) runs again, `again`, in a thread of its own, to which
   * the walk moves as it was before the request (a load that failed changed nothing; any other request was
   * cut short, and its journal holds the walk before it). The client sees only the answer from there. Should
   * no thread take the walk, it is put back here and runs its scripts to their limits here from now on.
   */
  private async yielded<T>(inline: LocalWalk, error: ScriptError, again: () => Awaitable<T>): Promise<T> {
    const where = await this.putBack(inline, error, `its scripts ran past ${this.yieldRead} ms in one request on the event loop`);
    if (where !== 'thread') this.yieldMs = undefined;
    if (where === 'kept') throw error;
    return again();
  }

  /**
   * Puts the walk back as it was before a request that a script limit cut short, then throws that request's
   * `error`: a failed request changes nothing, though its script ran part way (core/journal.ts, `cutShort`).
   */
  private async undoCut(inline: LocalWalk, error: unknown): Promise<never> {
    await this.putBack(inline, error, 'a script that a limit stopped ran on the event loop, and its walk was rebuilt as it was before that request');
    throw error;
  }

  /**
   * Puts the walk as it was before a request that a limit or the yield stopped (`error`). The script held the
   * event loop, so with a policy the walk is rebuilt from its journal in a thread of its own (`why` goes to the
   * log; a session with no model yet gets a thread with none); without one, or when no thread takes it, it is
   * rebuilt here if the request was cut short (a failed load changed nothing). Answers where the walk is now:
   * `kept` when neither arrived where the walk was, so that it keeps what the script did, which `error` says.
   */
  private async putBack(inline: LocalWalk, error: unknown, why: string): Promise<'thread' | 'here' | 'kept'> {
    if (await this.rebuildInThread(inline, why)) return 'thread';
    if (this.refusal !== undefined || inline.journal?.cutShort !== true) return 'here';
    const kept = await inline.undoCut(error);
    if (kept === undefined) return 'here';
    this.isolation?.note('warn', `Session ${this.id}: ${kept}`);
    return 'kept';
  }
}
