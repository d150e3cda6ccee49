import { writeFile } from 'node:fs/promises';
import type { Builder } from 'junit-report-builder';
import junitModule from 'junit-report-builder';
import type { WalkOutcome } from './run-result.js';
import { RunnerError, RunnerErrorCodes } from './errors.js';

/**
 * The run as JUnit XML, written by junit-report-builder (the format's rules, escaping and CDATA are its):
 * one testsuite for the run, one testcase per step with its model as the class name (the step's number in
 * the name, so that the steps of one element stay apart), a failure with the message and stack, skipped for
 * unnamed elements, and the seed and the statistics as properties of the suite.
 */
export function junitXml(outcome: WalkOutcome, title: string): string {
  // The package's default export is one builder shared by the process: each report takes a new one.
  const builder = sharedBuilder().newBuilder();
  const suite = builder.testSuite().name(title);
  suite.property('seed', String(outcome.seed));
  suite.property('status', outcome.status);
  for (const [key, value] of Object.entries(outcome.statistics)) {
    if (typeof value === 'number' || typeof value === 'string') suite.property(key, String(value));
  }
  for (const step of outcome.steps) {
    const test = suite
      .testCase()
      .className(step.model)
      .name(`${step.index}: ${step.name || `(unnamed ${step.kind} ${step.id})`}`)
      .time(step.ms / 1000);
    if (step.status === 'skipped') test.skipped();
    if (step.failure !== undefined) {
      test.failure(step.failure.message, step.failure.errorClass);
      test.stacktrace(step.failure.stack ?? step.failure.message);
    }
  }
  // A fixture's failure, or an error that ended the run, belongs in the report too.
  if (outcome.status === 'error' || (outcome.failure !== undefined && outcome.failure.step === undefined)) {
    const failure = outcome.failure;
    const test = suite.testCase().className('walker').name(failure?.fixture ?? 'run');
    test.error(outcome.error?.message ?? failure?.message ?? 'the run ended in an error', failure?.errorClass ?? outcome.error?.name, failure?.stack);
  }
  return builder.build();
}

/** The package is CommonJS with its builder as `exports.default`, which Node's ESM import puts one level down. */
function sharedBuilder(): Builder {
  const loaded = junitModule as unknown as { default?: Builder } & Builder;
  return typeof loaded.newBuilder === 'function' ? loaded : loaded.default!;
}

export async function writeJunit(file: string, outcome: WalkOutcome, title: string): Promise<void> {
  try {
    await writeFile(file, junitXml(outcome, title));
  } catch (error) {
    throw new RunnerError(RunnerErrorCodes.OPTION, `Could not write the JUnit report '${file}': ${(error as Error).message}`);
  }
}
