import { WalkerError } from '../core/errors.js';
import type { Machine, Step } from '../core/machine/machine.js';
import type { ScriptEngine } from '../core/scripting.js';
import { callStep, InterruptedError, StepTimeoutError } from './call-step.js';
import { RunnerError, RunnerErrorCodes } from './errors.js';
import { describeFailure } from './failure.js';
import type { RunStatus, StepFailure, StepRecord, WalkOutcome } from './run-result.js';
import { readStepData, writeStepData } from './step-data.js';
import type { TestSuite } from './test-suite.js';
import { classNameOf } from './model-names.js';

/** What a test method receives as its second argument. */
export interface TestStep {
  readonly id: string;
  readonly name: string;
  readonly modelName: string;
  readonly properties: Readonly<Record<string, unknown>>;
  /** 1-based, in walk order. */
  readonly index: number;
}

/** What a fixture without a step of its own (setUpRun, setUpModel, the tear-downs) receives, as AltWalker passes it. */
export interface FixtureStep {
  readonly type: 'fixture';
  readonly name: string;
  readonly modelName?: string;
}

export interface WalkRunOptions {
  readonly engine: ScriptEngine;
  readonly stepTimeoutMs: number;
  readonly signal?: AbortSignal;
  /** Stop after this many steps (a recorded path's length). */
  readonly maxSteps?: number;
  /** Told of every step once its test and fixtures are done. */
  readonly onStep?: (step: StepRecord) => void;
  /** Words for a dead end of the walk, when it follows a recorded path. */
  readonly deadEnd?: (stepIndex: number, error: WalkerError) => Error;
}

/** The model's name as a test module names its class. */
export function modelClassName(machine: Machine, model: number): string {
  return classNameOf(machine.graph, model);
}

/**
 * Runs the test code along one walk, in AltWalker's order: `setUpRun`; per step, the step model's `setUpModel`
 * the first time it appears, the run's `beforeStep`, the model's `beforeStep`, the step's method, the model's
 * `afterStep`, the run's `afterStep`; at the end every model's `tearDownModel` in the order they were set up,
 * then `tearDownRun`, however the walk ended. A fixture runs only when the module has it; an element without a
 * name is skipped. Data each call changes is written to the walk before anything else happens.
 */
export async function runWalk(machine: Machine, suite: TestSuite, options: WalkRunOptions): Promise<WalkOutcome> {
  const steps: StepRecord[] = [];
  const path: number[] = [];
  const setUp: string[] = [];
  let status: RunStatus = 'passed';
  let failure: (StepFailure & { step?: StepRecord }) | undefined;
  let error: Error | undefined;

  /** Calls one fixture or test; answers its failure, or undefined. Data errors end the run. */
  const call = async (
    model: string | undefined,
    name: string,
    stepArg: TestStep | FixtureStep,
    label: string,
    signal: AbortSignal | undefined,
  ): Promise<StepFailure | undefined> => {
    const fn = suite.lookup(model, name);
    if (fn === undefined) return undefined;
    try {
      const data = readStepData(machine);
      const pending = callStep(fn, [data.values, stepArg], options.stepTimeoutMs, signal);
      if (pending !== undefined) await pending;
      writeStepData(machine, options.engine, data, label);
      return undefined;
    } catch (thrown) {
      if (thrown instanceof RunnerError) throw thrown;
      return describeFailure(thrown, suite.file, label);
    }
  };

  const fixture = async (model: string | undefined, name: string, stepArg: TestStep | FixtureStep): Promise<boolean> => {
    const label = model === undefined ? name : `${model}.${name}`;
    const failed = await call(model, name, stepArg, label, options.signal);
    if (failed === undefined) return true;
    failure ??= failed;
    if (failed.error instanceof InterruptedError) status = 'interrupted';
    else {
      status = 'error';
      error ??= new RunnerError(RunnerErrorCodes.FIXTURE, `The fixture ${label} failed: ${failed.errorClass}: ${failed.message}${failed.at ? ` (at ${failed.at})` : ''}`);
      machine.fail(`${label}: ${failed.message}`);
    }
    return false;
  };

  try {
    if (await fixture(undefined, 'setUpRun', { type: 'fixture', name: 'setUpRun' })) {
      while (status === 'passed' && !options.signal?.aborted && (options.maxSteps === undefined || machine.steps < options.maxSteps) && machine.hasNext()) {
        let step: Step;
        try {
          step = machine.next();
        } catch (thrown) {
          if (thrown instanceof WalkerError && options.deadEnd !== undefined) throw options.deadEnd(machine.steps + 1, thrown);
          throw thrown;
        }
        path.push(step.element);
        const model = modelClassName(machine, step.modelIndex);
        if (!setUp.includes(model)) {
          if (!(await fixture(model, 'setUpModel', { type: 'fixture', name: 'setUpModel', modelName: model }))) break;
          setUp.push(model);
        }
        const record = await runStep(machine, step, model);
        steps.push(record);
        options.onStep?.(record);
      }
      if (status === 'passed' && options.signal?.aborted) status = 'interrupted';
    }
  } catch (thrown) {
    if (!(thrown instanceof RunnerError || thrown instanceof WalkerError)) throw thrown;
    status = 'error';
    error = thrown;
  }
  // Tear-downs run whatever happened, without the signal: an interrupted run still closes what it opened.
  for (const model of setUp) await tearDown(model, 'tearDownModel', { type: 'fixture', name: 'tearDownModel', modelName: model });
  await tearDown(undefined, 'tearDownRun', { type: 'fixture', name: 'tearDownRun' });

  return {
    status,
    steps,
    path,
    ...(failure === undefined ? {} : { failure }),
    ...(error === undefined ? {} : { error }),
    statistics: machine.statistics(),
    seed: machine.seed,
  };

  async function tearDown(model: string | undefined, name: string, stepArg: FixtureStep): Promise<void> {
    try {
      const label = model === undefined ? name : `${model}.${name}`;
      const failed = await call(model, name, stepArg, label, undefined);
      if (failed === undefined) return;
      failure ??= failed;
      if (status !== 'error') {
        status = 'error';
        error = new RunnerError(RunnerErrorCodes.FIXTURE, `The fixture ${label} failed: ${failed.errorClass}: ${failed.message}${failed.at ? ` (at ${failed.at})` : ''}`);
      }
    } catch (thrown) {
      if (!(thrown instanceof RunnerError)) throw thrown;
      if (status !== 'error') {
        status = 'error';
        error = thrown;
      }
    }
  }

  /** The step's fixtures and test; a failed test fails the walk's model with the reason. */
  async function runStep(machine: Machine, step: Step, model: string): Promise<StepRecord> {
    const g = machine.graph;
    const base = { index: machine.steps, element: step.element, id: step.id, name: step.name, model, kind: g.isVertex(step.element) ? 'vertex' : 'edge' } as const;
    if (step.name === '') return { ...base, status: 'skipped', ms: 0 };
    const started = performance.now();
    const testStep: TestStep = { id: step.id, name: step.name, modelName: model, properties: g.properties[step.element], index: machine.steps };
    let failed: StepFailure | undefined;
    if ((await fixture(undefined, 'beforeStep', testStep)) && (await fixture(model, 'beforeStep', testStep))) {
      failed = suite.lookup(model, step.name) === undefined ? missingMethod(model, step.name) : await call(model, step.name, testStep, `${model}.${step.name}`, options.signal);
      if (failed !== undefined) {
        failure ??= failed;
        if (failed.error instanceof InterruptedError) status = 'interrupted';
        else {
          machine.fail(`${model}.${step.name}: ${failed.message}`);
          // A step that hangs is a fault of the test code, not a verdict on the system under test.
          status = failed.error instanceof StepTimeoutError ? 'error' : 'failed';
          if (failed.error instanceof StepTimeoutError) {
            error ??= new RunnerError(RunnerErrorCodes.TIMEOUT, `${model}.${step.name} ${failed.message}: a step that returns a promise or thenable must settle it`);
          }
        }
      }
      if (await fixture(model, 'afterStep', testStep)) await fixture(undefined, 'afterStep', testStep);
    }
    const ms = performance.now() - started;
    const record: StepRecord = { ...base, status: failed === undefined && status !== 'error' ? 'passed' : 'failed', ms, ...(failed === undefined ? {} : { failure: failed }) };
    if (failure !== undefined && failure === failed) failure = { ...failed, step: record };
    return record;
  }

  function missingMethod(model: string, name: string): StepFailure {
    const message = suite.hasModel(model)
      ? `Step not found: add a method '${name}' to the class '${model}' in ${suite.file}`
      : `Step not found: add a class '${model}' with a method '${name}' to ${suite.file}`;
    return { errorClass: 'StepNotFound', message, error: new Error(message) };
  }
}
