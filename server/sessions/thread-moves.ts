import type { Awaitable } from '../../core/awaitable.js';
import type { JournalRecord } from '../../core/journal.js';
import type { SessionDefaults, SessionLoadOptions, SessionLoadResult } from '../../core/session.js';
import { isLargeLoad, loadInThread, type LoadSource } from './load-placement.js';
import type { LocalWalk } from './local-walk.js';
import type { LoopTime } from './loop-time.js';
import type { IsolationPolicy } from './session-hosting.js';
import { walkThreadName } from './thread-name.js';
import { WorkerWalk } from './worker-walk.js';
import type { WorkerSetup } from './worker-protocol.js';

/** What {@link ThreadMoves} needs of the session whose walk it moves. */
export interface MovableSession {
  readonly id: string;
  /** The walk while it runs on the event loop. */
  inline(): LocalWalk | undefined;
  /** Set once the session takes no more requests: a move under way then gives up. */
  refusal(): Error | undefined;
  /** The walk runs in `remote` from now on; `inline`, if any, is to be freed. */
  adopt(remote: WorkerWalk, inline: LocalWalk | undefined): void;
}

/**
 * Moves one session's walk off the event loop, into a worker thread of its own (docs/architecture.md,
 * "Sessions"): rebuilt from its journal when its requests turned slow or a limit cut one short, or loaded
 * there from the start when the load is large or the session's last load held the loop long. Only with an
 * isolation policy; the session's queue keeps the requests that arrive meanwhile waiting, in order.
 */
export class ThreadMoves {
  /** Stops the thread that rebuilds or loads the walk, while a move is under way. */
  private moving: AbortController | undefined;

  constructor(
    private readonly session: MovableSession,
    private readonly policy: IsolationPolicy,
    private readonly defaults: SessionDefaults,
    private readonly time: LoopTime,
  ) {}

  /** Stops a move under way: the session takes no more, so the requests waiting behind it are answered at once. */
  abort(): void {
    this.moving?.abort();
  }

  /** Moves the walk because a request held the loop `busyMs`, unless its journal can no longer rebuild it. */
  async forSlowness(busyMs: number): Promise<void> {
    const inline = this.session.inline();
    const journal = inline?.journal?.snapshot();
    if (this.session.refusal() !== undefined || inline === undefined) return;
    if (journal === undefined) {
      this.policy.note('warn', `Session ${this.session.id} is slow (${Math.round(busyMs)} ms a request) but its walk cannot be rebuilt elsewhere (its journal stopped), so it stays on the event loop.`);
      return;
    }
    await this.rebuild(journal, inline, `a request kept the event loop busy for ${Math.round(busyMs)} ms`);
  }

  /**
   * Rebuilds the walk in this thread from `journal` in a worker thread of its own, and walks there from now on
   * when the rebuilt walk arrived where the journal says; `why` it moved goes to the log. Without a journal,
   * for a session that has loaded no model yet, the thread starts with none. True when it moved.
   */
  async rebuild(journal: JournalRecord | undefined, inline: LocalWalk, why: string): Promise<boolean> {
    const { id } = this.session;
    this.moving = new AbortController();
    let remote: WorkerWalk;
    try {
      remote = await WorkerWalk.start({ ...this.threadSetup(), journal }, this.moving.signal);
    } catch (error) {
      if (this.session.refusal() === undefined) this.policy.note('warn', `Session ${id} stays on the event loop: ${(error as Error).message}`);
      return false;
    } finally {
      this.moving = undefined;
    }
    if (this.session.refusal() !== undefined) {
      // Released, or the service began to close, while the thread started.
      void remote.close();
      return false;
    }
    // The rebuilt walk's one load is the session's current one.
    remote.countLoadsAfter(inline.session.loadCount - (journal === undefined ? 0 : 1));
    this.session.adopt(remote, inline);
    this.policy.note('info', `Session ${id} moved to a thread of its own: ${why}.`);
    return true;
  }

  /**
   * Runs a load of the walk in this thread where it belongs (server/sessions/load-placement.ts): `here`, or,
   * when it is large or the session's last load held the loop long, first in a thread of its own.
   */
  placeLoad(source: LoadSource, options: SessionLoadOptions | undefined, here: () => Awaitable<SessionLoadResult>): Awaitable<SessionLoadResult> {
    if (this.session.refusal() !== undefined || !(this.time.lastLoadHeavy || isLargeLoad(source))) return here();
    return this.loadFirstInThread(source, options, here);
  }

  /**
   * Loads in a thread of its own, then either keeps the walk there (the load was costly) or loads again here
   * (it was cheap, and a walk here answers without messages). A load that fails there changes nothing here,
   * and answers what it would have answered here.
   */
  private async loadFirstInThread(
    source: LoadSource,
    options: SessionLoadOptions | undefined,
    here: () => Awaitable<SessionLoadResult>,
  ): Promise<SessionLoadResult> {
    const { id } = this.session;
    this.moving = new AbortController();
    let outcome: Awaited<ReturnType<typeof loadInThread>> | undefined;
    let failure: unknown;
    try {
      outcome = await loadInThread(this.threadSetup(), source, options, this.moving.signal);
    } catch (error) {
      failure = error;
    } finally {
      this.moving = undefined;
    }
    // What the request held the loop before it waited (known once its task returned): judged with the load
    // when it runs here after all, else on its own, as a load's.
    const carried = this.time.take();
    const judgeCarried = (): void => {
      if (carried !== undefined) this.time.held(carried, true);
    };
    const refusal = this.session.refusal();
    if (outcome === undefined || refusal !== undefined) {
      if (outcome?.kind === 'kept') void outcome.walk.close();
      judgeCarried();
      throw refusal ?? failure;
    }
    if (outcome.kind === 'unavailable') this.policy.note('warn', `Session ${id} loads on the event loop: ${outcome.why}`);
    if (outcome.kind !== 'kept') {
      this.time.resume(carried);
      return here();
    }
    // Its load comes after those of the walk here.
    const inline = this.session.inline();
    outcome.walk.countLoadsAfter(inline?.session.loadCount ?? 0);
    this.session.adopt(outcome.walk, inline);
    judgeCarried();
    this.policy.note('info', `Session ${id} walks in a thread of its own: its load took ${Math.round(outcome.cpuMs)} ms of a core there.`);
    return outcome.result;
  }

  /** What a walk's thread starts with: the session's defaults, without a journal of its own, the plugins and the rule. */
  private threadSetup(): Omit<WorkerSetup, 'journal'> {
    const { journal: _journal, ...defaults } = this.defaults;
    const { plugins, slowRequestMs, slowRequests } = this.policy;
    return { defaults, plugins, slowRule: { slowRequestMs, slowRequests }, threadName: walkThreadName(this.session.id) };
  }
}
