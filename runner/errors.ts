/**
 * The runner's error table (docs/errors.md, "Runner errors"): what `walker run`, `verify`, `generate` and
 * `executor` refuse before or around a run. Each is a user mistake the message says how to fix; the command
 * line answers it in one line with exit 2. A failing test step is not among them: it is a step result.
 */
export const RunnerErrorCodes = {
  /** The test module is missing, cannot be loaded, or does not parse (the loader's message, with file and line). */
  MODULE: 'RUNNER_MODULE',
  /** The test module has no class (or object) for a model it is run against. */
  NO_CLASS: 'RUNNER_NO_CLASS',
  /** A fixture (setUpRun, setUpModel, beforeStep, ...) threw or timed out. */
  FIXTURE: 'RUNNER_FIXTURE',
  /** A step method did not settle within the step timeout (`--step-timeout`). */
  TIMEOUT: 'RUNNER_TIMEOUT',
  /** A test wrote data the walk's script sandbox cannot hold (a function, a cycle, a bad name). */
  DATA: 'RUNNER_DATA',
  /** A recorded path (`--path`) cannot be read or does not fit the models. */
  PATH: 'RUNNER_PATH',
  /** An option of the run is out of range, or the output cannot be written. */
  OPTION: 'RUNNER_OPTION',
} as const;

export type RunnerErrorCode = (typeof RunnerErrorCodes)[keyof typeof RunnerErrorCodes];

/** A mistake in the test code or the run's input, with a code from {@link RunnerErrorCodes}. */
export class RunnerError extends Error {
  override readonly name = 'RunnerError';
  constructor(
    readonly code: RunnerErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}
