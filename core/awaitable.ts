/** A value now, or one to wait for: what a walk in this thread and one in another thread both answer. */
export type Awaitable<T> = T | Promise<T>;

/**
 * Applies `f` to a value that may come later, staying synchronous when it is there already: the hot path of a
 * walk in this thread must not pay for a promise per step.
 */
export function andThen<T, U>(value: Awaitable<T>, f: (value: T) => Awaitable<U>): Awaitable<U> {
  return isPromiseLike(value) ? value.then(f) : f(value);
}

/** True for a promise or any other thenable. */
export function isPromiseLike<T>(value: T | PromiseLike<T>): value is PromiseLike<T> {
  return typeof (value as { then?: unknown } | null)?.then === 'function';
}
