import { andThen } from '../../core/awaitable.js';
import { isPromiseLike, SerialQueue } from '../../core/serial-queue.js';
import {
  ExecutionSession,
  type Awaitable,
  type SessionDefaults,
  type SessionLoadOptions,
  type SessionLoadResult,
  type SessionWalk,
  type WalkSummary,
} from '../../core/session.js';
import type { LoadedModelFile } from '../../core/model/load.js';
import type { Walker } from '../../core/walker.js';
import type { Leased } from '../lease-table.js';
import { ErrorCodes, WalkerError } from '../../core/errors.js';
import { LocalWalk } from './local-walk.js';
import type { LoopTurns } from './loop-turns.js';
import { SlowRequests, type SlowRule } from './slow-requests.js';
import { threadCpuMs } from './thread-cpu.js';
import { SESSION_CLOSED_MESSAGE, WorkerWalk } from './worker-walk.js';
import type { PluginSource } from './worker-protocol.js';

/**
 * When a session's walk leaves the event loop for a thread of its own (docs/architecture.md, "Sessions"):
 * once `slowRequests` of its recent requests each kept the loop busy for `slowRequestMs` or more
 * ({@link SlowRequests}).
 */
export interface IsolationPolicy extends SlowRule {
  /** Milliseconds clock that times a request's work; default `performance.now`. Tests pass a fake one. */
  readonly clock?: () => number;
  /** Milliseconds of CPU time of this thread, for requests in doubt; default {@link threadCpuMs}. */
  readonly cpuClock?: () => number;
  /** The user's plugins by module, for the worker to load; without them a walk cannot leave the loop. */
  readonly plugins: readonly PluginSource[];
  /** Told what happened, for the log. */
  readonly note: (level: 'info' | 'warn', message: string) => void;
}

/**
 * Who watches a session (the web view, server/view/): told of every request, and given the walk each request
 * runs on, so that it can see the steps go by. Only while someone watches; otherwise a request pays one
 * check of an undefined field.
 */
export interface SessionWatcher {
  /** The walk a request's task gets: the watcher's view of `walk`, which it hands everything on to. */
  around(walk: SessionWalk): SessionWalk;
  /** A request ran, or failed: the walk may have moved. */
  changed(): void;
  /** A model was loaded by other means than the walk's own `load` (a draft's revision). */
  loaded(): void;
  /** The walk was rebuilt in a thread of its own: what the watcher knows of its loads no longer holds. */
  replaced(): void;
}

/** What `GET /walker/sessions` shows of a session. */
export interface SessionInfo extends WalkSummary {
  readonly id: string;
  readonly created: string;
  readonly lastUsed: string;
  /** True when its walk runs in a thread of its own. */
  readonly isolated: boolean;
}

/**
 * One session of the server: a walk behind a queue that runs its requests strictly in order. The walk starts
 * in this thread, an {@link ExecutionSession} that journals what it is asked, whose loads and restarts reserve
 * a memory of its own first ({@link LocalWalk}); a walk whose requests keep the event loop busy (slow scripts,
 * mostly) is rebuilt from its journal in a worker thread of its own and carries on there, so it stalls only
 * itself. Nothing in it is shared with another session.
 */
export class HostedSession implements Leased {
  readonly createdAt: number;
  lastUsedAt: number;
  private readonly queue = new SerialQueue();
  /** The walk while it runs in this thread. */
  private inline: LocalWalk | undefined;
  private remote: WorkerWalk | undefined;
  private walk: SessionWalk;
  /** Judges what the requests cost, when the walk may move at all. */
  private readonly slow: SlowRequests | undefined;
  private readonly clock: () => number;
  /** What every task answers once the session takes no more: it was released, or the service is closing. */
  private refusal: Error | undefined;
  /** Stops the thread that rebuilds the walk, while a move is under way. */
  private moving: AbortController | undefined;
  /** What the first part of a request that went on to wait held the loop, until its work is timed too. */
  private carried: { readonly busyMs: number; readonly cpuStarted: number | undefined } | undefined;
  /** False once the walk cannot or need not move (no policy, moved, or a move failed). */
  private movable: boolean;
  private summary: WalkSummary = { models: [], steps: 0, vertexCoverage: 0, edgeCoverage: 0 };
  private watcher: SessionWatcher | undefined;

  constructor(
    readonly id: string,
    walker: Walker,
    private readonly defaults: SessionDefaults,
    private readonly isolation: IsolationPolicy | undefined,
    now: number,
    /** The app's, shared by its sessions; without it requests never wait for the loop to turn. */
    private readonly turns?: LoopTurns,
  ) {
    const session = new ExecutionSession(walker, { ...defaults, journal: isolation !== undefined });
    this.inline = new LocalWalk(session, walker, (work, load) => this.measured(session, work, load));
    this.walk = this.inline;
    this.movable = isolation !== undefined;
    this.slow = isolation === undefined ? undefined : new SlowRequests(isolation, isolation.cpuClock ?? threadCpuMs);
    this.clock = isolation?.clock ?? (() => performance.now());
    this.createdAt = this.lastUsedAt = now;
  }

  /** True when the walk runs in a worker thread. */
  get isolated(): boolean {
    return this.remote !== undefined;
  }

  /**
   * Runs a task on the walk once every earlier task of this session has finished. A task on the walk in this
   * thread is timed: one that kept the loop busy too long counts towards moving the walk to a thread.
   */
  run<T>(task: (walk: SessionWalk) => Awaitable<T>): Promise<T> {
    return this.queue.run(() => this.start(task));
  }

  /**
   * Runs a task that only reads the walk (the web view's) in the session's queue, so that what it reads is
   * consistent with the requests before it. No watcher hears of it. It is judged like a request of {@link run},
   * since reading the variables runs the model's getters: a read that holds the loop counts towards moving the
   * walk. Unless `judged` is false: a read of the models' shape costs O(model) once per load, like the load.
   */
  look<T>(task: (walk: SessionWalk) => Awaitable<T>, judged = true): Promise<T> {
    return this.queue.run(() => this.start(task, false, judged));
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
    return this.inline.open(loaded, options, { value: loaded.file });
  }

  /** Opens a walk on a model file value (a draft's revision); a walk in a thread gets it as JSON text. */
  loadModel(value: unknown, options: SessionLoadOptions = {}): Promise<SessionLoadResult> {
    return this.run((walk) => {
      if (this.inline === undefined) return walk.load(JSON.stringify(value), options);
      return andThen(this.inline.loadModel(value, options), (result) => {
        this.watcher?.loaded();
        return result;
      });
    });
  }

  /** The session in figures; while a request is under way, as they were after the last one. */
  async info(): Promise<SessionInfo> {
    if (this.queue.pending === 0) this.summary = await this.run((walk) => walk.describe());
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
    this.refusal ??= error;
    this.movable = false;
    // A thread still rebuilding the walk stops too: the requests waiting behind the move are answered at once.
    this.moving?.abort();
    void this.remote?.close(this.refusal);
  }

  /**
   * Starts a task whose turn in the queue has come: refused once the session takes no more, and, for a walk
   * in this thread, not before the event loop has turned when earlier work held it long ({@link LoopTurns}).
   * A watcher hears of it unless `heard` is false; it counts towards moving the walk unless `judged` is false.
   */
  private start<T>(task: (walk: SessionWalk) => Awaitable<T>, heard = true, judged = true): Awaitable<T> {
    if (this.refusal !== undefined) throw this.refusal;
    const turn = this.inline === undefined ? undefined : this.turns?.pending;
    if (turn !== undefined) return turn.then(() => this.start(task, heard, judged));
    if (heard && this.watcher !== undefined) return this.watched(task, this.watcher);
    if (this.inline === undefined) return task(this.walk);
    return judged ? this.timed(task, this.inline, this.inline) : this.unjudged(task, this.inline);
  }

  /** Runs a task on the walk in this thread that the slow-request rule does not judge; the loop's turns count it. */
  private unjudged<T>(task: (walk: SessionWalk) => Awaitable<T>, inline: LocalWalk): Awaitable<T> {
    const started = this.clock();
    try {
      return task(inline);
    } finally {
      this.turns?.spent(this.clock() - started);
    }
  }

  /** {@link run} while someone watches: the task gets the watcher's view of the walk, the watcher hears of it. */
  private watched<T>(task: (walk: SessionWalk) => Awaitable<T>, watcher: SessionWatcher): Awaitable<T> {
    const inline = this.inline;
    const walk = watcher.around(inline ?? this.walk);
    let result: Awaitable<T>;
    try {
      result = inline === undefined ? task(walk) : this.timed(task, inline, walk);
    } catch (error) {
      // A failed step changes the walk too (a dead end fails its model).
      watcher.changed();
      throw error;
    }
    if (!isPromiseLike(result)) {
      watcher.changed();
      return result;
    }
    return Promise.resolve(result).finally(() => watcher.changed());
  }

  /** Runs a task on the walk in this thread, `walk` being that walk or a watcher's view of it, and times it. */
  private timed<T>(task: (walk: SessionWalk) => Awaitable<T>, inline: LocalWalk, walk: SessionWalk): Awaitable<T> {
    return this.measured(inline.session, () => task(walk));
  }

  /**
   * Runs synchronous work of the walk in this thread and times it, failed or not: that is what held the event
   * loop. Work that answers a promise (a load or restart waiting for its memory reservation) goes on where it
   * runs once reserved, which {@link LocalWalk} hands back here, saying whether it loads: the request is judged
   * then, on both parts.
   */
  private measured<T>(session: ExecutionSession, work: () => T, load = false): T {
    const loads = session.loadsAsked;
    const carried = this.carried;
    this.carried = undefined;
    const cpuStarted = carried?.cpuStarted ?? (this.movable ? this.slow?.cpuStart(load) : undefined);
    const started = this.clock();
    let result: T | undefined;
    try {
      result = work();
      return result;
    } finally {
      const busyMs = (carried?.busyMs ?? 0) + this.clock() - started;
      if (isPromiseLike(result)) this.carried = { busyMs, cpuStarted };
      else this.held(busyMs, cpuStarted, session.loadsAsked !== loads);
    }
  }

  /** A request's work held the loop `busyMs` ({@link SlowRequests.judge} says what the other two are). */
  private held(busyMs: number, cpuStarted: number | undefined, load: boolean): void {
    this.turns?.spent(busyMs);
    const policy = this.isolation;
    if (!this.movable || policy === undefined || this.slow?.judge(busyMs, cpuStarted, load) !== true) return;
    this.movable = false;
    // Queued behind whatever is waiting: the requests already in line run here first, in order.
    void this.queue.run(() => this.moveToThread(policy, busyMs));
  }

  private async moveToThread(policy: IsolationPolicy, busyMs: number): Promise<void> {
    if (this.refusal !== undefined) return;
    const inline = this.inline;
    const journal = inline?.journal?.snapshot();
    if (inline === undefined || journal === undefined) {
      policy.note('warn', `Session ${this.id} is slow (${Math.round(busyMs)} ms a request) but its walk cannot be rebuilt elsewhere (its journal stopped), so it stays on the event loop.`);
      return;
    }
    this.moving = new AbortController();
    try {
      const { journal: _journal, ...defaults } = this.defaults;
      this.remote = await WorkerWalk.start({ defaults, plugins: policy.plugins, journal }, this.moving.signal);
    } catch (error) {
      if (this.refusal === undefined) policy.note('warn', `Session ${this.id} stays on the event loop: ${(error as Error).message}`);
      return;
    } finally {
      this.moving = undefined;
    }
    if (this.refusal !== undefined) {
      // Released, or the service began to close, while the thread started.
      void this.remote.close();
      return;
    }
    this.walk = this.remote;
    this.inline = undefined;
    inline.dispose();
    this.watcher?.replaced();
    policy.note('info', `Session ${this.id} moved to a thread of its own: a request kept the event loop busy for ${Math.round(busyMs)} ms.`);
  }
}
