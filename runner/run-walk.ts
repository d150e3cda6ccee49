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

  /**
   * Calls one fixture or test; answers its failure, or undefined. Data errors end the run. Synchronous unless
   * the call answered a thenable: a long walk of synchronous steps pays no promise per call.
   */
  const call = (
    fn: ((...args: unknown[]) => unknown) | undefined,
    stepArg: TestStep | FixtureStep,
    label: string,
    signal: AbortSignal | undefined,
  ): StepFailure | undefined | Promise<StepFailure | undefined> => {
    if (fn === undefined) return undefined;
    let data;
    try {
      data = readStepData(machine);
      const pending = callStep(fn, [data.values, stepArg], options.stepTimeoutMs, signal);
      if (pending === undefined) {
        writeStepData(machine, options.engine, data, label);
        return undefined;
      }
      const read = data;
      return pending.then(
        () => void writeStepData(machine, options.engine, read, label),
        (thrown: unknown) => describeFailure(thrown, suite.file, label),
      );
    } catch (thrown) {
      if (thrown instanceof RunnerError) throw thrown;
      return describeFailure(thrown, suite.file, label);
    }
  };

  /** A fixture's failure ends the run: the walk's model is failed with it, and the run ends in an error. */
  const fixtureFailed = (failed: StepFailure, label: string): false => {
    failure ??= failed;
    if (failed.error instanceof InterruptedError) status = 'interrupted';
    else {
      status = 'error';
      error ??= new RunnerError(RunnerErrorCodes.FIXTURE, `The fixture ${label} failed: ${failed.errorClass}: ${failed.message}${failed.at ? ` (at ${failed.at})` : ''}`);
      machine.fail(`${label}: ${failed.message}`);
    }
    return false;
  };

  const fixture = async (model: string | undefined, name: string, stepArg: TestStep | FixtureStep): Promise<boolean> => {
    const label = model === undefined ? name : `${model}.${name}`;
    const failed = await call(suite.lookup(model, name), stepArg, label, options.signal);
    return failed === undefined ? true : fixtureFailed(failed, label);
  };

  /** The class name of each model, and its step fixtures, looked up once. */
  const classNames = machine.graph.models.map((_, m) => modelClassName(machine, m));
  const runBefore = suite.lookup(undefined, 'beforeStep');
  const runAfter = suite.lookup(undefined, 'afterStep');
  const modelBefore = classNames.map((name) => suite.lookup(name, 'beforeStep'));
  const modelAfter = classNames.map((name) => suite.lookup(name, 'afterStep'));
  /** Per element, its test method once looked up (null: none). */
  const methods: Array<((...args: unknown[]) => unknown) | null | undefined> = new Array(machine.graph.size);

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
        const model = classNames[step.modelIndex];
        if (!setUp.includes(model)) {
          if (!(await fixture(model, 'setUpModel', { type: 'fixture', name: 'setUpModel', modelName: model }))) break;
          setUp.push(model);
        }
        const pending = runStep(machine, step, model);
        const record = pending instanceof Promise ? await pending : pending;
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
      const failed = await call(suite.lookup(model, name), stepArg, label, undefined);
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

  /**
   * The step's fixtures and test; a failed test fails the walk's model with the reason. Synchronous while
   * every call is: the common case of a long walk.
   */
  function runStep(machine: Machine, step: Step, model: string): StepRecord | Promise<StepRecord> {
    const g = machine.graph;
    const index = machine.steps;
    const kind = g.isVertex(step.element) ? 'vertex' : 'edge';
    if (step.name === '') return { index, element: step.element, id: step.id, name: step.name, model, kind, status: 'skipped', ms: 0 };
    const started = performance.now();
    const testStep: TestStep = { id: step.id, name: step.name, modelName: model, properties: g.properties[step.element], index };
    const m = step.modelIndex;
    const test = (methods[step.element] ??= suite.lookup(model, step.name) ?? null) ?? undefined;
    const calls: Array<[(...args: unknown[]) => unknown, string, 'fixture' | 'test']> = [];
    if (runBefore !== undefined) calls.push([runBefore, 'beforeStep', 'fixture']);
    if (modelBefore[m] !== undefined) calls.push([modelBefore[m]!, `${model}.beforeStep`, 'fixture']);
    const testAt = calls.length;
    if (test !== undefined) calls.push([test, `${model}.${step.name}`, 'test']);
    if (modelAfter[m] !== undefined) calls.push([modelAfter[m]!, `${model}.afterStep`, 'fixture']);
    if (runAfter !== undefined) calls.push([runAfter, 'afterStep', 'fixture']);
    let failed: StepFailure | undefined = test === undefined ? missingMethod(model, step.name) : undefined;

    /** Goes on from call `i`; answers false once a fixture failed (the rest is skipped, as AltWalker does). */
    const from = (i: number): boolean | Promise<boolean> => {
      for (; i < calls.length; i++) {
        if (i === testAt && test === undefined) testFailed();
        const [fn, label, role] = calls[i];
        const answer = call(fn, testStep, label, role === 'test' ? options.signal : options.signal);
        const settle = (result: StepFailure | undefined): boolean => {
          if (result === undefined) return true;
          if (role === 'fixture') return fixtureFailed(result, label);
          failed = result;
          testFailed();
          return true;
        };
        if (answer instanceof Promise) {
          const next = i + 1;
          return answer.then((result) => (settle(result) ? from(next) : false));
        }
        if (!settle(answer)) return false;
      }
      if (testAt === calls.length && test === undefined) testFailed();
      return true;
    };
    let reported = false;
    const testFailed = (): void => {
      if (reported || failed === undefined) return;
      reported = true;
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
    };
    const finish = (): StepRecord => {
      const ms = performance.now() - started;
      // Written out, not spread: a long walk makes a record per step, and spreading them was most of a step's cost.
      const passed = failed === undefined && status !== 'error';
      const record: StepRecord =
        failed === undefined
          ? { index, element: step.element, id: step.id, name: step.name, model, kind, status: passed ? 'passed' : 'failed', ms }
          : { index, element: step.element, id: step.id, name: step.name, model, kind, status: 'failed', ms, failure: failed };
      if (failure !== undefined && failure === failed) failure = { ...failed, step: record };
      return record;
    };
    const done = from(0);
    return done instanceof Promise ? done.then(finish) : finish();
  }

  function missingMethod(model: string, name: string): StepFailure {
    const message = suite.hasModel(model)
      ? `Step not found: add a method '${name}' to the class '${model}' in ${suite.file}`
      : `Step not found: add a class '${model}' with a method '${name}' to ${suite.file}`;
    return { errorClass: 'StepNotFound', message, error: new Error(message) };
  }
}
