import type { WalkStatistics } from '../core/machine/statistics.js';

/** Why a step or fixture failed, as the outputs show it. */
export interface StepFailure {
  /** The error's class name (`Error`, `AssertionError`, `StepTimeoutError`, ...): with the message, what shrinking keeps. */
  readonly errorClass: string;
  readonly message: string;
  readonly stack?: string;
  /** `file:line:column` of the first stack frame in the test module, when there is one. */
  readonly at?: string;
  /** The fixture that failed (`setUpRun`, `Login.beforeStep`, ...), when the failure is a fixture's. */
  readonly fixture?: string;
  /** What was thrown, for a library caller (an `expect` failure keeps its `actual` and `expected`). */
  readonly error: unknown;
}

/** One step of a run: an element the walk stepped on and what its test did. */
export interface StepRecord {
  /** 1-based, in walk order. */
  readonly index: number;
  /** Element index in the walk's graph. */
  readonly element: number;
  readonly id: string;
  /** `''` for an element without a name, which is skipped. */
  readonly name: string;
  /** The model's name as the test module names its class. */
  readonly model: string;
  readonly kind: 'vertex' | 'edge';
  readonly status: 'passed' | 'failed' | 'skipped';
  /** Milliseconds of the step's test and fixtures. */
  readonly ms: number;
  readonly failure?: StepFailure;
}

/** The failed step in one line, as `walker run` prints it after the statistics and its `--report` page shows it. */
export function failedStepLine(step: StepRecord, f: StepFailure): string {
  return `model ${step.model}, element ${step.name} (${step.id}), step ${step.index}: ${f.errorClass}: ${f.message.split('\n')[0]}${f.at === undefined ? '' : ` at ${f.at}`}`;
}

/**
 * How a run ended: `passed`; `failed` (a test failed: exit 1); `error` (a fixture failed, a test wrote data the
 * walk cannot take, the walk itself failed or a recorded path left the model: exit 2); `interrupted` (a
 * signal, or the caller's abort).
 */
export type RunStatus = 'passed' | 'failed' | 'error' | 'interrupted';

/** What one walk of a run did. */
export interface WalkOutcome {
  readonly status: RunStatus;
  readonly steps: readonly StepRecord[];
  /** The elements stepped on, in order. */
  readonly path: readonly number[];
  /** The test failure that ended a `failed` run, or the fixture failure of an `error` run. */
  readonly failure?: StepFailure & { readonly step?: StepRecord };
  /** What ended an `error` run, as one line that says what to fix. */
  readonly error?: Error;
  readonly statistics: WalkStatistics;
  readonly seed: number;
}
