import type { SessionWalk } from './session.js';

/** The name of one operation of a walk: a method of {@link SessionWalk}. */
export type WalkOperationName = keyof SessionWalk;

/** The arguments of an operation. */
export type OperationArgs<K extends WalkOperationName> = Parameters<SessionWalk[K]>;

/** What an operation answers, once it has. */
export type OperationResult<K extends WalkOperationName> = Awaited<ReturnType<SessionWalk[K]>>;

/** A walk whose every operation answers at once (an ExecutionSession): what a journal replays. */
export type SyncWalk = { [K in WalkOperationName]: (...args: OperationArgs<K>) => OperationResult<K> };

/** A walk whose every operation answers later (one in another thread). */
export type AsyncWalk = { [K in WalkOperationName]: (...args: OperationArgs<K>) => Promise<OperationResult<K>> };

/** How the journal (core/journal.ts) records an operation, so that another thread can ask it again. */
export interface JournalEntry {
  /** Its byte in a journal: never reused for another operation, since journals cross threads. */
  readonly code: number;
  /** It takes one text (a script, a reason), which the journal keeps beside the byte. */
  readonly text: boolean;
  /**
   * The number its answer folds into the journal's fingerprint, which proves a replay arrived; the session
   * records the same number as the operation runs (`Journal.record`), the replay makes it of the answer.
   */
  outcome(answer: unknown): number;
}

/** What the walk's stack needs to know of one operation; everything else about it is its method. */
export interface WalkOperation {
  /** It may change what a later operation answers: position, coverage, statuses, variables or the model. */
  readonly changes: boolean;
  /**
   * How a journal records it. A read that runs scripts is journaled too (getters may draw from the walk's
   * random source); a load is not recorded but starts a journal afresh (`Journal.begin`).
   */
  readonly journal?: JournalEntry;
  /**
   * It opens a walk, so it waits for a reservation of the script engine and its work is judged as a load's
   * (`load`) or a restart's, not as a step's.
   */
  readonly opens?: 'load' | 'restart';
  /** What a watcher's list of recent steps does once it answered: starts afresh, or adds the step taken. */
  readonly observed?: 'afresh' | 'step';
}

const nothing = (): number => 0;

/**
 * Every operation of a walk, declared once. The proxies of a walk (server/sessions/local-walk.ts,
 * worker-walk.ts, server/view/observed-walk.ts), the worker's dispatcher, and the journal's codes and replay
 * derive from it, so an operation new to {@link SessionWalk} is one row here and its method in
 * core/session.ts; the type makes a row missing or left over a compile error, and
 * test/architecture/walk-operations.test.ts fails too.
 */
export const WALK_OPERATIONS = {
  load: { changes: true, opens: 'load', observed: 'afresh' },
  loadModel: { changes: true, opens: 'load', observed: 'afresh' },
  hasNext: { changes: true, journal: { code: 1, text: false, outcome: (more) => (more === true ? 1 : 0) } },
  next: {
    changes: true,
    journal: { code: 2, text: false, outcome: (answer) => (answer as { step: { element: number } }).step.element },
    observed: 'step',
  },
  variables: { changes: false, journal: { code: 3, text: false, outcome: nothing } },
  setData: { changes: true, journal: { code: 4, text: true, outcome: nothing } },
  // Recorded only when it fails; a restart that succeeds rewinds the journal to its load.
  restart: { changes: true, journal: { code: 5, text: false, outcome: nothing }, opens: 'restart', observed: 'afresh' },
  fail: { changes: true, journal: { code: 6, text: true, outcome: nothing } },
  stepCount: { changes: false },
  statistics: { changes: false },
  modelFile: { changes: false },
  describe: { changes: false },
  view: { changes: false },
} as const satisfies { readonly [K in WalkOperationName]: WalkOperation };

/** The operations in the table's order. */
export const WALK_OPERATION_NAMES = Object.keys(WALK_OPERATIONS) as WalkOperationName[];

/** The operations a journal records. */
export type JournaledOperation = {
  [K in WalkOperationName]: (typeof WALK_OPERATIONS)[K] extends { readonly journal: JournalEntry } ? K : never;
}[WalkOperationName];

/** The operations that open a walk (`opens`): a walk in this thread runs them once the engine reserved it a memory. */
export type OpeningOperation = {
  [K in WalkOperationName]: (typeof WALK_OPERATIONS)[K] extends { readonly opens: string } ? K : never;
}[WalkOperationName];

/** What a journal's {@link operationOfCode} gives for a byte. */
export interface JournaledRow {
  readonly name: JournaledOperation;
  readonly entry: JournalEntry;
}

const byCode: (JournaledRow | undefined)[] = [];
for (const name of WALK_OPERATION_NAMES) {
  const journal = (WALK_OPERATIONS[name] as WalkOperation).journal;
  if (journal !== undefined) byCode[journal.code] = { name: name as JournaledOperation, entry: journal };
}

/** The journaled operation of a journal's byte; undefined for a byte no operation has. */
export function operationOfCode(code: number): JournaledRow | undefined {
  return byCode[code];
}

/** Each journaled operation's byte, by name. */
export const JournalOp = Object.fromEntries(
  byCode.flatMap((row) => (row === undefined ? [] : [[row.name, row.entry.code]])),
) as { readonly [K in JournaledOperation]: (typeof WALK_OPERATIONS)[K]['journal']['code'] };

/**
 * A base class whose every operation calls {@link WalkForwarder.forward} with its name and arguments: a proxy
 * of a walk (another thread's, a watcher's view) writes `forward` once instead of a method per operation. `W`
 * is what its methods are typed as; a subclass overrides those it treats apart. An operation takes two
 * arguments at most (test/architecture/walk-operations.test.ts checks it), so they are passed as two, not
 * gathered into an array: a proxy forwards every request of its walk.
 */
export function walkForwarder<W>(): abstract new () => W & WalkForwarder {
  abstract class Forwarder {
    abstract forward(op: WalkOperationName, first: unknown, second: unknown): unknown;
  }
  for (const name of WALK_OPERATION_NAMES) {
    Object.defineProperty(Forwarder.prototype, name, {
      value: function (this: Forwarder, first?: unknown, second?: unknown) {
        return this.forward(name, first, second);
      },
      writable: true,
      configurable: true,
    });
  }
  return Forwarder as unknown as abstract new () => W & WalkForwarder;
}

/** Arguments an operation takes at most. */
export const MAX_OPERATION_ARGS = 2;

/** What a subclass of {@link walkForwarder} writes: the operation, and its arguments (undefined when not given). */
export interface WalkForwarder {
  forward(op: WalkOperationName, first: unknown, second: unknown): unknown;
}
