import { resolve } from 'node:path';
import type { Machine } from '../core/machine/machine.js';
import { readModelArguments } from '../core/model/model-arguments.js';
import type { WalkerPlugin } from '../core/plugin.js';
import { walkSettings, type WalkSettingsInput } from '../core/walk-settings.js';
import { Walker } from '../core/walker.js';
import { builtinPlugins } from '../plugins/index.js';
import { RunnerError, RunnerErrorCodes } from './errors.js';
import { DEFAULT_STEP_TIMEOUT_MS } from './call-step.js';
import { sameFailure } from './failure.js';
import { junitXml, writeJunit } from './junit.js';
import { loadTestModule, type TestModule } from './load-module.js';
import { openRunWalk, type RunWalkSettings } from './open-walk.js';
import { readPathFile, withRecordedPath, writePathFile, type PathToFollow } from './recorded-path.js';
import type { StepRecord, WalkOutcome } from './run-result.js';
import { runWalk } from './run-walk.js';
import { namesByClass } from './model-names.js';
import { shrinkPath, type ShrinkOutcome } from './shrink.js';
import { TestSuite } from './test-suite.js';
import { writeReport } from './report.js';

/** A model file and the generator of its first model, as `-m <file> <generator>` gives them. */
export interface ModelArgument {
  readonly file: string;
  readonly generator: string;
}

/** How to run; its walk settings (`seed`, `blocked`, `scriptLimits`, `planStates`, `planTimeMs`) keep their defaults when left out. */
export interface RunOptions extends WalkSettingsInput {
  /** The test module: a path (`.ts`, `.mts`, `.js`, `.mjs`, or a folder with an index), or its exports already imported. */
  readonly tests: string | Readonly<Record<string, unknown>>;
  readonly models: readonly ModelArgument[];
  /** The name of the element the first model starts at (`-e`). */
  readonly startElement?: string;
  /** Milliseconds a step or fixture may take to settle (default 60,000). */
  readonly stepTimeoutMs?: number;
  /** Aborting ends the run as Ctrl-C does: the step under way is given up, tear-downs run, reports are written. */
  readonly signal?: AbortSignal;
  /** Replay a recorded path: a file of `walker offline` lines, or of a shrunk path. */
  readonly path?: string;
  /** After a failure, look for a shorter path that fails the same way. */
  readonly shrink?: boolean | { readonly runs?: number; readonly timeMs?: number; readonly file?: string };
  /** Write JUnit XML here. */
  readonly junit?: string;
  /** Write the HTML report of `walker offline --report` here. */
  readonly report?: string;
  /** Plugins besides the built-in ones. */
  readonly plugins?: readonly WalkerPlugin[];
  /** Told when the run's walk is open (not the shrinking runs'), for a progress line. */
  readonly onWalk?: (walk: Machine) => void;
  /** Told of every step once it is done (the command line prints it). */
  readonly onStep?: (step: StepRecord) => void;
  /** Told before each shrinking run. */
  readonly onShrinkRun?: (run: number, length: number) => void;
  /** Where relative paths start (default the current directory). */
  readonly cwd?: string;
}

/** What `run` answers. */
export interface RunResult extends WalkOutcome {
  /** True when every step passed. */
  readonly passed: boolean;
  /** The file of the test module. */
  readonly testFile: string;
  /** Set when shrinking ran: the shortest failing path found, and the file it was saved to. */
  readonly shrunk?: ShrinkOutcome & { readonly file: string };
  /**
   * Throws unless the run passed: the test's own error when a step failed (an `expect` failure keeps its
   * `actual` and `expected`, so vitest, Jest and Playwright Test show its diff), with the model, element and
   * seed put before its message; else an error saying what ended the run.
   */
  assertPassed(): void;
}

export { DEFAULT_STEP_TIMEOUT_MS };
export const DEFAULT_SHRINK_RUNS = 100;
export const DEFAULT_SHRINK_TIME_MS = 120_000;

/**
 * Runs a test module along a walk of the models, in this process: the library's `walker run`. Throws a
 * `WalkerError` or `RunnerError` for input it cannot run (a model, the module, a class missing); a test that
 * fails is a result, not a throw (see {@link RunResult.assertPassed}).
 */
export async function run(options: RunOptions): Promise<RunResult> {
  const cwd = options.cwd ?? process.cwd();
  const settings = walkSettings(options);
  const walker = await Walker.create([...builtinPlugins(), ...(options.plugins ?? [])]);
  try {
    const pairs = options.models.map((m) => [resolve(cwd, m.file), m.generator]);
    const { loaded, generators } = await readModelArguments(pairs, { formats: walker.registries.formats, blocked: settings.blocked, startElement: options.startElement });
    const module: TestModule = typeof options.tests === 'string' ? await loadTestModule(options.tests, cwd) : { file: '(module)', exports: options.tests };
    const walks: RunWalkSettings = { loaded, generators, settings };
    const follow: PathToFollow = { elements: options.path === undefined ? [] : await readPathFile(resolve(cwd, options.path), loaded.graph) };
    const runner = new Walker(withRecordedPath(walker.registries, follow));
    const engine = walker.engine();
    const stepTimeoutMs = options.stepTimeoutMs ?? DEFAULT_STEP_TIMEOUT_MS;
    const replaying = options.path !== undefined;

    /** One walk with fresh test code; `report` writes the outputs while the walk is still open. */
    const walkOnce = async (following: boolean, report?: (machine: Machine, outcome: WalkOutcome) => Promise<void>, quiet = false): Promise<WalkOutcome> => {
      const machine = await openRunWalk(runner, walks, following);
      try {
        if (!quiet) options.onWalk?.(machine);
        const suite = new TestSuite(module);
        requireClasses(machine, suite);
        const outcome = await runWalk(machine, suite, {
          engine,
          stepTimeoutMs,
          signal: options.signal,
          ...(following ? { maxSteps: follow.elements.length, deadEnd: (n, error) => pathLeaves(machine, n, follow.elements, error.message) } : {}),
          ...(quiet ? {} : { onStep: options.onStep }),
        });
        await report?.(machine, outcome);
        return outcome;
      } finally {
        machine.dispose();
      }
    };

    const title = options.models.map((m) => m.file).join(', ');
    const outcome = await walkOnce(replaying, async (machine, outcome) => {
      if (options.junit !== undefined) await writeJunit(resolve(cwd, options.junit), outcome, `walker run ${title}`);
      if (options.report !== undefined) await writeReport(resolve(cwd, options.report), machine, outcome, title);
    });

    let shrunk: RunResult['shrunk'];
    const target = outcome.failure;
    if (options.shrink && outcome.status === 'failed' && target?.step !== undefined && !options.signal?.aborted) {
      const limits = typeof options.shrink === 'object' ? options.shrink : {};
      const failing = outcome.path.slice(0, target.step.index);
      let shrinkRuns = 0;
      const found = await shrinkPath(
        loaded.graph,
        failing,
        async (candidate) => {
          follow.elements = candidate;
          options.onShrinkRun?.(++shrinkRuns, candidate.length);
          const attempt = await walkOnce(true, undefined, true);
          const step = attempt.failure?.step;
          if (attempt.status !== 'failed' || step === undefined || step.element !== target.step!.element || !sameFailure(attempt.failure!, target)) return undefined;
          return attempt.path.slice(0, step.index);
        },
        { runs: limits.runs ?? DEFAULT_SHRINK_RUNS, timeMs: limits.timeMs ?? DEFAULT_SHRINK_TIME_MS },
      );
      const file = resolve(cwd, limits.file ?? `walker-shrunk-${outcome.seed}.path`);
      await writePathFile(file, loaded.graph, found.path);
      shrunk = { ...found, file };
    }
    return result(outcome, module.file, shrunk);
  } finally {
    walker.dispose();
  }
}

/** Every model with a named element needs its class (or object): said before any test code runs. */
function requireClasses(machine: Machine, suite: TestSuite): void {
  const missing = [...namesByClass([machine.graph])].flatMap(([name, { vertices, edges }]) => (vertices.length + edges.length > 0 && !suite.hasModel(name) ? [name] : []));
  if (missing.length > 0) {
    throw new RunnerError(
      RunnerErrorCodes.NO_CLASS,
      `${suite.file} has no class for the model${missing.length > 1 ? 's' : ''} ${missing.map((n) => `'${n}'`).join(', ')}: export a class named as the model, with a method per vertex and edge name (walker generate writes one)`,
    );
  }
}

function pathLeaves(machine: Machine, stepNumber: number, path: readonly number[], why: string): RunnerError {
  const g = machine.graph;
  const e = path[stepNumber - 1];
  const what = e === undefined ? 'an element past its end' : `'${g.names[e] || g.ids[e]}' (${g.ids[e]})`;
  return new RunnerError(RunnerErrorCodes.PATH, `The recorded path leaves what the model allows at step ${stepNumber}: ${what} cannot be stepped on there (${why})`);
}

function result(outcome: WalkOutcome, testFile: string, shrunk: RunResult['shrunk']): RunResult {
  return {
    ...outcome,
    passed: outcome.status === 'passed',
    testFile,
    ...(shrunk === undefined ? {} : { shrunk }),
    assertPassed(): void {
      if (outcome.status === 'passed') return;
      const failure = outcome.failure;
      const where = failure?.step === undefined ? '' : `${failure.step.model}.${failure.step.name} (step ${failure.step.index}, seed ${outcome.seed}): `;
      if (outcome.status === 'failed' && failure?.error instanceof Error) {
        failure.error.message = `${where}${failure.error.message}`;
        throw failure.error;
      }
      throw outcome.error ?? new Error(`${where}the run ended ${outcome.status}${failure === undefined ? '' : `: ${failure.message}`}`);
    },
  };
}

export { junitXml };
