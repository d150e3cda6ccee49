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
import { SESSION_CLOSED_MESSAGE, WorkerWalk } from './worker-walk.js';
import type { PluginSource } from './worker-protocol.js';

/**
 * When a session's walk leaves the event loop for a thread of its own (docs/architecture.md, "Sessions"):
 * after `slowRequests` requests that each kept the loop busy for `slowRequestMs` or more.
 */
export interface IsolationPolicy {
  readonly slowRequestMs: number;
  readonly slowRequests: number;
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
  private slowSeen = 0;
  private closed = false;
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
  ) {
    this.inline = new LocalWalk(new ExecutionSession(walker, { ...defaults, journal: isolation !== undefined }), walker);
    this.walk = this.inline;
    this.movable = isolation !== undefined;
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
    return this.queue.run(() => {
      if (this.closed) throw new WalkerError(ErrorCodes.SESSION, SESSION_CLOSED_MESSAGE);
      if (this.watcher !== undefined) return this.watched(task, this.watcher);
      return this.inline === undefined ? task(this.walk) : this.timed(task, this.inline, this.inline);
    });
  }

  /**
   * Runs a task that only reads the walk in the session's queue, so that what it reads is consistent with
   * the requests before it; unlike {@link run} it is not timed and no watcher hears of it.
   */
  look<T>(task: (walk: SessionWalk) => Awaitable<T>): Promise<T> {
    return this.queue.run(() => {
      if (this.closed) throw new WalkerError(ErrorCodes.SESSION, SESSION_CLOSED_MESSAGE);
      return task(this.inline ?? this.walk);
    });
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
    this.closed = true;
    this.movable = false;
    this.inline?.dispose();
    this.inline = undefined;
    void this.remote?.close();
    // A watcher's next look finds the session closed, and says so to whoever watches.
    this.watcher?.changed();
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
    const started = performance.now();
    const result = task(walk);
    if (this.movable && !isPromiseLike(result)) this.clock(performance.now() - started);
    return result;
  }

  private clock(busyMs: number): void {
    const policy = this.isolation;
    if (policy === undefined || busyMs < policy.slowRequestMs) return;
    if (++this.slowSeen < policy.slowRequests) return;
    this.movable = false;
    // Queued behind whatever is waiting: the requests already in line run here first, in order.
    void this.queue.run(() => this.moveToThread(policy, busyMs));
  }

  private async moveToThread(policy: IsolationPolicy, busyMs: number): Promise<void> {
    const inline = this.inline;
    const journal = inline?.journal?.snapshot();
    if (inline === undefined || journal === undefined) {
      policy.note('warn', `Session ${this.id} is slow (${Math.round(busyMs)} ms a request) but its walk cannot be rebuilt elsewhere (its journal stopped), so it stays on the event loop.`);
      return;
    }
    try {
      const { journal: _journal, ...defaults } = this.defaults;
      this.remote = await WorkerWalk.start({ defaults, plugins: policy.plugins, journal });
    } catch (error) {
      policy.note('warn', `Session ${this.id} stays on the event loop: ${(error as Error).message}`);
      return;
    }
    if (this.inline !== inline) {
      // Released while the thread started.
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
