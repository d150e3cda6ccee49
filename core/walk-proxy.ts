import { WALK_OPERATIONS, type SessionWalk } from './session.js';

// What a proxy of a walk (another thread's, a watcher's) is made of: the operations' types, and a base class
// that forwards each, both derived from the one table of operations in core/session.ts.

/** The name of one operation of a walk: a method of {@link SessionWalk}. */
export type WalkOperationName = keyof SessionWalk;

/** The arguments of an operation. */
export type OperationArgs<K extends WalkOperationName> = Parameters<SessionWalk[K]>;

/** What an operation answers, once it has. */
export type OperationResult<K extends WalkOperationName> = Awaited<ReturnType<SessionWalk[K]>>;

/** A walk whose every operation answers at once (an ExecutionSession). */
export type SyncWalk = { [K in WalkOperationName]: (...args: OperationArgs<K>) => OperationResult<K> };

/** A walk whose every operation answers later (one in another thread). */
export type AsyncWalk = { [K in WalkOperationName]: (...args: OperationArgs<K>) => Promise<OperationResult<K>> };

/** The operations in the table's order. */
export const WALK_OPERATION_NAMES = Object.keys(WALK_OPERATIONS) as WalkOperationName[];

/** The operations that open a walk (`opens`): a walk in this thread runs them once the engine reserved it a memory. */
export type OpeningOperation = {
  [K in WalkOperationName]: (typeof WALK_OPERATIONS)[K] extends { readonly opens: string } ? K : never;
}[WalkOperationName];

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
