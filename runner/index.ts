/**
 * walker's test runner as a library (docs/runner.md): `run` walks models and calls a TypeScript or JavaScript
 * test module for every step, in this process, as `walker run` does, so that a walk runs inside a vitest, Jest
 * or Playwright Test test: `(await run({ tests, models })).assertPassed()`.
 */
export { run, DEFAULT_STEP_TIMEOUT_MS, DEFAULT_SHRINK_RUNS, DEFAULT_SHRINK_TIME_MS, type RunOptions, type RunResult, type ModelArgument } from './run.js';
export type { StepRecord, StepFailure, RunStatus, WalkOutcome } from './run-result.js';
export type { TestStep, FixtureStep } from './run-walk.js';
export { RunnerError, RunnerErrorCodes, type RunnerErrorCode } from './errors.js';
export { StepTimeoutError } from './call-step.js';
export { loadTestModule, type TestModule } from './load-module.js';
