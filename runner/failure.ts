import { InterruptedError, StepTimeoutError } from './call-step.js';
import { testFrame } from './load-module.js';
import type { StepFailure } from './run-result.js';

/** What was thrown, as the outputs and shrinking read it. */
export function describeFailure(error: unknown, testFile: string, fixture?: string): StepFailure {
  const isError = error instanceof Error;
  const errorClass = isError ? error.name || error.constructor.name : typeof error;
  const message = isError ? error.message : String(error);
  // A timeout or an interruption is the runner's own error: no line of the tests threw it.
  const at = error instanceof StepTimeoutError || error instanceof InterruptedError ? undefined : testFrame(error, testFile);
  return {
    errorClass,
    message,
    ...(isError && error.stack !== undefined ? { stack: error.stack } : {}),
    ...(at === undefined ? {} : { at }),
    ...(fixture === undefined ? {} : { fixture }),
    error,
  };
}

/** The same failure, for shrinking: the same class and message. */
export function sameFailure(a: StepFailure, b: StepFailure): boolean {
  return a.errorClass === b.errorClass && a.message === b.message;
}
