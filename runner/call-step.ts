/** Milliseconds a step or fixture may take to settle, unless told otherwise (`--step-timeout`). */
export const DEFAULT_STEP_TIMEOUT_MS = 60_000;

/** Why a call was stopped before it settled: it hung past the step timeout, or the run was interrupted. */
export class StepTimeoutError extends Error {
  override readonly name = 'StepTimeoutError';
  constructor(readonly timeoutMs: number) {
    super(`did not settle within ${timeoutMs} ms (--step-timeout)`);
  }
}

export class InterruptedError extends Error {
  override readonly name = 'InterruptedError';
  constructor() {
    super('the run was interrupted');
  }
}

/**
 * Calls a step method or fixture and waits for it: a thrown error or a rejected promise (or thenable) is the
 * call's failure. A call that answers something without `then` costs no timer and no promise: most steps of a
 * long walk are synchronous. A thenable that does not settle within `timeoutMs`, or before `signal` aborts,
 * is given up on (its code may still run; JavaScript cannot stop it).
 */
export function callStep(
  fn: (...args: unknown[]) => unknown,
  args: readonly unknown[],
  timeoutMs: number,
  signal?: AbortSignal,
): undefined | Promise<void> {
  const answer = fn(...args);
  if (answer === null || (typeof answer !== 'object' && typeof answer !== 'function') || typeof (answer as { then?: unknown }).then !== 'function') {
    return undefined;
  }
  return new Promise<void>((resolve, reject) => {
    let settled = false;
    const finish = (error?: unknown): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      if (error === undefined) resolve();
      else reject(error);
    };
    const onAbort = (): void => finish(new InterruptedError());
    const timer = setTimeout(() => finish(new StepTimeoutError(timeoutMs)), timeoutMs);
    if (signal?.aborted) return onAbort();
    signal?.addEventListener('abort', onAbort, { once: true });
    try {
      (answer as PromiseLike<unknown>).then(
        () => finish(),
        (error: unknown) => finish(error ?? new Error(String(error))),
      );
    } catch (error) {
      finish(error);
    }
  });
}
