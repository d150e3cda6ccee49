import { testFrame } from './load-module.js';
import type { StepFailure } from './run-result.js';

/** What was thrown, as the outputs and shrinking read it. */
export function describeFailure(error: unknown, testFile: string, fixture?: string): StepFailure {
  const isError = error instanceof Error;
  const errorClass = isError ? error.name || error.constructor.name : typeof error;
  const message = isError ? error.message : String(error);
  const at = testFrame(error, testFile);
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
