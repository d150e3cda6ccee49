import { Command, Option } from 'clipanion';
import * as t from 'typanion';
import type { Machine } from '../../core/machine/machine.js';
import type { RunResult, StepRecord } from '../../runner/index.js';
// Formatting only: run-result.ts loads nothing at run time, so the command's start stays light.
import { failedStepLine } from '../../runner/run-result.js';
import { WalkerCommand } from '../command.js';
import { blockedOption, logLevelOption, modelsOption, planStatesOption, planTimeOption, pluginsOption, seedOption, startElementOption } from '../common-options.js';
import { valueOption } from '../option.js';
import { Progress } from '../progress.js';
import { realClockOption, scriptBudgetOption, scriptMemoryOption, scriptTimeoutOption } from '../script-options.js';
import { walkSettingsOf } from '../walk-settings-options.js';
import { loadPluginArguments } from '../services.js';

const positive = () => t.cascade(t.isNumber(), [t.isInteger(), t.isAtLeast(1)]);

/** `walker run`: runs a TypeScript or JavaScript test module along a walk, in this process (docs/runner.md). */
export class RunCommand extends WalkerCommand {
  static override paths = [['run']];

  static override usage = Command.Usage({
    description: 'Run a TypeScript or JavaScript test module along a walk of the models',
    details: `
      Loads the test module (a .ts, .mts, .js or .mjs file, or a folder with an index; TypeScript needs no build
      step) and walks the models in this process, calling the method of each vertex and edge name of the class
      named as its model, with AltWalker's fixtures in AltWalker's order. A method gets \`(data, step)\`: what it
      changes in \`data\` is written to the walk before the next choice.

      Prints a line per step (model, element, pass or fail, time), the statistics, the seed and a command that
      replays the run. Exits 0 when every step passed, 1 when a test failed, 2 for input it cannot run (the
      module, a missing class, a fixture that fails, data the walk cannot hold), 130 or 143 when interrupted by
      Ctrl-C or SIGTERM (tear-downs run and reports are written first).

      \`--shrink\` follows a failure with more runs, each with fresh fixtures, along shorter paths the model allows
      that end in the same element with the same failure; it prints the shortest found and saves it for \`--path\`.
    `,
    examples: [
      ['Run the example', '$0 run examples/runner/shop.test.ts -m examples/runner/shop.json "random(edge_coverage(100))"'],
      ['Write reports for CI', '$0 run tests.ts -m login.json "random(edge_coverage(100))" --junit results.xml --report run.html'],
      ['Shrink a failure', '$0 run examples/runner/shop-buggy.test.ts -m examples/runner/shop.json "random(length(500))" --seed 1 --shrink'],
      ['Replay a shrunk path', '$0 run examples/runner/shop-buggy.test.ts -m examples/runner/shop.json "random(length(500))" --path walker-shrunk-1.path'],
    ],
  });

  tests = Option.String({ name: 'tests' });
  models = modelsOption({ required: true });
  seed = seedOption("Fixes the random seed, to replay a run (default: the file's seed, else a fresh one)");
  startElement = startElementOption();
  blocked = blockedOption();
  junit = valueOption('--junit <file>', { description: 'Write JUnit XML (a testsuite for the run, a testcase per step) for CI' });
  reportFile = valueOption('--report <file>', { description: "Write the HTML report of 'walker offline --report', with the failure" });
  pathFile = valueOption('--path <file>', { description: 'Replay a recorded path: the lines walker offline prints, or the file --shrink saved' });
  shrink = Option.Boolean('--shrink', false, { description: 'After a failure, look for the shortest path that fails the same way, and save it' });
  shrinkRuns = valueOption('--shrink-runs <n>', { validator: positive(), description: 'Runs shrinking may make at most (default 100)' });
  shrinkTime = valueOption('--shrink-time <ms>', { validator: positive(), description: 'Milliseconds shrinking may take at most (default 120000)' });
  shrinkFile = valueOption('--shrink-file <file>', { description: 'Where --shrink saves the shortest path (default walker-shrunk-<seed>.path)' });
  stepTimeout = valueOption('--step-timeout <ms>', { validator: positive(), description: 'Milliseconds a step or fixture may take to settle (default 60000)' });
  progress = Option.Boolean('--progress', false, { description: 'Show steps, steps per second and coverage on stderr' });
  plugins = pluginsOption();
  logLevel = logLevelOption('silent');
  scriptTimeout = scriptTimeoutOption();
  scriptBudget = scriptBudgetOption();
  scriptMemory = scriptMemoryOption();
  realClock = realClockOption();
  planStates = planStatesOption();
  planTime = planTimeOption();

  protected async perform(): Promise<number> {
    const { run, RunnerError } = await import('../../runner/index.js');
    const out = this.context.stdout;
    const controller = new AbortController();
    let signal: NodeJS.Signals | undefined;
    const stop = (name: NodeJS.Signals) => () => {
      signal ??= name;
      controller.abort();
    };
    const onInt = stop('SIGINT');
    const onTerm = stop('SIGTERM');
    process.on('SIGINT', onInt);
    process.on('SIGTERM', onTerm);
    let progress: Progress | undefined;
    try {
      const result = await run({
        tests: this.tests,
        models: this.models.map(([file, generator]) => ({ file, generator })),
        ...walkSettingsOf(this),
        startElement: this.startElement,
        stepTimeoutMs: this.stepTimeout,
        signal: controller.signal,
        path: this.pathFile,
        shrink: this.shrink && { runs: this.shrinkRuns, timeMs: this.shrinkTime, file: this.shrinkFile },
        junit: this.junit,
        report: this.reportFile,
        plugins: await loadPluginArguments(this.plugins),
        onWalk: (walk: Machine) => {
          if (this.progress) progress = new Progress(this.context.stderr, walk, { redraw: (this.context.stderr as { isTTY?: boolean }).isTTY === true });
        },
        onStep: (step) => {
          out.write(stepLine(step));
          progress?.update();
        },
        onShrinkRun: (n, length) => {
          if (this.logLevel === 'debug' || this.logLevel === 'trace') this.context.stderr.write(`shrinking run ${n}: ${length} steps\n`);
        },
      });
      progress?.finish();
      out.write(this.summary(result));
      if (result.status === 'error') {
        this.context.stderr.write(`${result.error?.message ?? 'The run ended in an error'}\n`);
        if (this.logLevel === 'debug' && result.failure?.stack !== undefined) this.context.stderr.write(`${result.failure.stack}\n`);
        return 2;
      }
      if (result.status === 'interrupted') return signal === 'SIGTERM' ? 143 : 130;
      return result.passed ? 0 : 1;
    } catch (error) {
      if (error instanceof RunnerError && this.logLevel === 'debug') this.context.stderr.write(`${error.stack}\n`);
      throw error;
    } finally {
      process.off('SIGINT', onInt);
      process.off('SIGTERM', onTerm);
    }
  }

  /** The statistics, the failure, the seed and the command that replays the run, and what shrinking found. */
  private summary(result: RunResult): string {
    const s = result.statistics;
    const counts = { passed: 0, failed: 0, skipped: 0 };
    for (const step of result.steps) counts[step.status]++;
    const lines = [
      '',
      `${result.status}: ${result.steps.length} steps, ${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped (unnamed)`,
      `edge coverage ${s.edgeCoverage}%, vertex coverage ${s.vertexCoverage}%, models failed ${s.totalFailedNumberOfModels}, completed ${s.totalCompletedNumberOfModels} of ${s.totalNumberOfModels}`,
    ];
    const f = result.failure;
    if (f?.step !== undefined && result.status === 'failed') {
      lines.push(`Failed: ${failedStepLine(f.step, f)}`);
    }
    lines.push(`Seed: ${result.seed}`);
    lines.push(`Replay: ${this.replayCommand(result.seed)}`);
    const shrunk = result.shrunk;
    if (shrunk !== undefined) {
      const found = shrunk.path.length < shrunk.originalLength;
      lines.push(
        found
          ? `Shrunk: ${shrunk.path.length} steps instead of ${shrunk.originalLength}, in ${shrunk.runs} runs${shrunk.stopped === 'done' ? '' : ` (stopped by --shrink-${shrunk.stopped})`}; saved to ${shrunk.file}`
          : `Shrunk: no shorter path fails the same way (${shrunk.runs} runs); the path is saved to ${shrunk.file}`,
      );
      lines.push(`Replay the shrunk path: walker run ${quote(this.tests)} ${this.modelArguments()} --path ${quote(shrunk.file)}`);
    }
    return `${lines.join('\n')}\n`;
  }

  private replayCommand(seed: number): string {
    const extra = [
      ...(this.startElement === undefined ? [] : ['-e', quote(this.startElement)]),
      ...(this.pathFile === undefined ? [] : ['--path', quote(this.pathFile)]),
      ...this.plugins.flatMap((p) => ['--plugin', quote(p)]),
    ];
    return ['walker run', quote(this.tests), this.modelArguments(), '--seed', String(seed), ...extra].join(' ');
  }

  private modelArguments(): string {
    return this.models.map(([file, generator]) => `-m ${quote(file)} ${quote(generator)}`).join(' ');
  }
}

/** One step: model, element, pass or fail, time; a failure adds its message and the test file's line. */
function stepLine(step: StepRecord): string {
  const element = step.name || `(${step.id})`;
  const status = step.status === 'passed' ? 'pass' : step.status === 'failed' ? 'FAIL' : 'skip';
  const line = `${step.model}  ${element}  ${status}  ${step.ms.toFixed(step.ms < 10 ? 2 : 0)} ms\n`;
  const f = step.failure;
  if (f === undefined) return line;
  return `${line}    ${f.errorClass}: ${f.message.split('\n').join('\n    ')}\n${f.at === undefined ? '' : `    at ${f.at}\n`}`;
}

/** Quoted for a POSIX shell when it holds anything but plain characters. */
function quote(word: string): string {
  return /^[\w./:=@%+-]+$/.test(word) ? word : `'${word.replaceAll("'", `'\\''`)}'`;
}
