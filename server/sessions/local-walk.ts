import type { Awaitable } from '../../core/awaitable.js';
import { ErrorCodes, WalkerError } from '../../core/errors.js';
import type { Journal, JournalStart } from '../../core/journal.js';
import type { LoadedModelFile } from '../../core/model/load.js';
import type { SandboxReservation } from '../../core/scripting.js';
import type { ExecutionSession, SessionLoadOptions, SessionLoadResult, SessionWalk, StepAnswer } from '../../core/session.js';
import { walkForwarder, type OpeningOperation, type SyncWalk, type WalkOperationName } from '../../core/walk-proxy.js';
import type { Walker } from '../../core/walker.js';
import type { LoadSource } from './load-placement.js';
import { SESSION_CLOSED_MESSAGE } from './worker-walk.js';

/** Runs a load of `source` where it belongs: `here` is the load in this thread. */
export type LoadPlacer = (
  source: LoadSource,
  options: SessionLoadOptions | undefined,
  here: () => Awaitable<SessionLoadResult>,
) => Awaitable<SessionLoadResult>;

/**
 * A walk in this thread as the service runs it: an {@link ExecutionSession} whose loads and restarts first
 * reserve what the script engine needs for a walk (core/scripting.ts), so that walks opened while many are
 * opened at once (sessions created together, loads of several sessions) still get a memory of their own
 * rather than one shared with others. Every other operation goes to the walk at once, synchronously: the hot
 * path (hasNext, getNext) pays no promise. The session's walk and the walk of a worker thread are both one.
 */
export class LocalWalk extends walkForwarder<Omit<SyncWalk, OpeningOperation>>() implements SessionWalk {
  private closed = false;

  constructor(
    readonly session: ExecutionSession,
    private readonly walker: Walker,
    /**
     * Runs the synchronous work of a load or restart once it is reserved: the host times it there, since the
     * request that asked for it answered a promise (the hosted session judges what a request held the loop by it).
     */
    private readonly work: <T>(open: () => T, load: boolean) => T = (open) => open(),
    /** Where a load runs: here (`here()`), or first elsewhere (server/sessions/load-placement.ts); default here. */
    private readonly place: LoadPlacer = (_source, _options, here) => here(),
  ) {
    super();
  }

  get journal(): Journal | undefined {
    return this.session.journal;
  }

  load(text: string, options?: SessionLoadOptions): Awaitable<SessionLoadResult> {
    return this.place({ text }, options, () => this.reserved((reservation) => this.session.load(text, options, reservation), 'load'));
  }

  /** {@link ExecutionSession.loadModel}, once reserved. */
  loadModel(value: unknown, options?: SessionLoadOptions): Awaitable<SessionLoadResult> {
    return this.place({ value }, options, () => this.reserved((reservation) => this.session.loadModel(value, options, reservation), 'load'));
  }

  /** {@link ExecutionSession.open}, once reserved; not a request's work, so not timed. */
  open(loaded: LoadedModelFile, options: SessionLoadOptions, source?: JournalStart['source']): Awaitable<SessionLoadResult> {
    return this.reserved((reservation) => this.session.open(loaded, options, source, reservation), 'untimed');
  }

  /** A restart may give the walk a fresh memory (one that grew goes back), so it reserves too. */
  restart(): Awaitable<void> {
    return this.reserved((reservation) => this.session.restart(reservation), 'restart');
  }

  /**
   * {@link ExecutionSession.restore}, once reserved: the walk as it was before the operation a limit cut short.
   * Timed like a restart, which it resembles: the walk is opened again and replayed.
   */
  restore(): Awaitable<void> {
    return this.reserved((reservation) => this.session.restore(reservation), 'restart');
  }

  /**
   * {@link restore} after a request that a script limit cut short, `error` being what it threw. When the walk
   * could not be put back, `error` says so, and so does the answer (for a log); undefined when it was.
   */
  async undoCut(error: unknown): Promise<string | undefined> {
    try {
      await this.restore();
      return undefined;
    } catch (failure) {
      const why = `The walk keeps what the script did before it was stopped, as it could not be rebuilt without it: ${(failure as Error).message}.`;
      if (error instanceof Error) error.message = `${error.message}. ${why}`;
      return why;
    }
  }

  /**
   * The hot path, written out: a step through the generic {@link forward} showed in stepping in-process
   * (docs/benchmarks.md, "The walk's operations declared once"); the table still declares them.
   */
  override readonly hasNext = (): boolean => this.session.hasNext();
  override readonly next = (): StepAnswer => this.session.next();

  /** Every other operation goes to the walk at once (core/walk-proxy.ts). */
  override forward(op: WalkOperationName, first: unknown, second: unknown): unknown {
    return (this.session[op] as (first: unknown, second: unknown) => unknown).call(this.session, first, second);
  }

  /** Frees the walk; a load or restart still waiting for its reservation then answers that the session was closed. */
  dispose(): void {
    this.closed = true;
    this.session.dispose();
  }

  /** Runs `open` with a reservation; a walk freed while it waited opens nothing, which would never be freed. */
  private reserved<T>(open: (reservation: SandboxReservation | undefined) => T, kind: 'load' | 'restart' | 'untimed'): Awaitable<T> {
    return this.walker.reserved((reservation) => {
      if (this.closed) throw new WalkerError(ErrorCodes.SESSION, SESSION_CLOSED_MESSAGE);
      return kind === 'untimed' ? open(reservation) : this.work(() => open(reservation), kind === 'load');
    });
  }
}
