import { writeFile } from 'node:fs/promises';
import { Command, Option } from 'clipanion';
import type { Logger } from 'pino';
import type { Machine, Step } from '../../core/machine/machine.js';
import { reportStep, type StepReportOptions } from '../../core/machine/step-report.js';
import { WalkerCommand } from '../command.js';
import { LineOutput, OutputError } from '../line-output.js';
import { commandLogger } from '../logger.js';
import { readModelArguments } from '../models.js';
import { valueOption } from '../option.js';
import { Progress } from '../progress.js';
import { realClockOption, scriptBudgetOption, scriptLimitsOf, scriptMemoryOption, scriptTimeoutOption } from '../script-options.js';
import { commandServices } from '../services.js';
import {
  blockedOption,
  logLevelOption,
  modelsOption,
  planStatesOption,
  pluginsOption,
  seedOption,
  startElementOption,
  unvisitedOption,
  verboseOption,
} from '../common-options.js';

/** `walker offline`: walks model files to their stop conditions and prints every step as a JSON line. */
export class OfflineCommand extends WalkerCommand {
  static override paths = [['offline']];

  static override usage = Command.Usage({
    description: 'Walk model files without a service and print every step',
    details: `
      Prints one JSON object per step on stdout (\`currentElementName\`, \`currentElementID\`, \`modelId\`,
      \`modelName\`; more with \`--verbose\` and \`--unvisited\`) and nothing else there, unless
      \`--print-seed\` asks for the seed as the first line. stderr stays empty unless something fails (a
      terminal gets the seed there). To replay a walk, give its seed back with \`--seed\`: read it with
      \`--print-seed\`, \`--seed-file <path>\` or \`--log-level info\`.

      The walk keeps pace with the reader: piped into a slow consumer it waits, and when the reader goes away
      (\`| head\`) it stops and exits 0. With \`--progress\` (the default when stderr is a terminal and stdout
      is not) it shows the steps, steps per second and coverage on stderr, at most five times a second.
    `,
    examples: [
      ['Cover every edge of a model', '$0 offline -m login.json "random(edge_coverage(100))"'],
      ['As AltWalker runs it', '$0 offline --model login.json "random(edge_coverage(100))" --verbose --blocked False'],
      ['Keep the seed, and replay the walk', '$0 offline -m login.json "random(edge_coverage(100))" --seed-file seed.txt && $0 offline -m login.json "random(edge_coverage(100))" --seed "$(cat seed.txt)"'],
      ['Look at the first 10 steps of an endless walk', '$0 offline -m login.json "random(never)" | head -n 10'],
    ],
  });

  /** GraphWalker's offline takes the seed as `-d,--seed`; walker keeps `-d` for `--debug`, before the command. */
  static override readonly graphWalkerSpellings = {
    ...WalkerCommand.graphWalkerSpellings,
    '-d': "-d is not walker's seed option: give the seed as --seed <n> (before the command, -d is --debug <level>)",
  };

  models = modelsOption({ required: true });
  seed = seedOption('Fixes the random seed, to replay a walk (default: the file\'s seed, else a fresh one)');
  startElement = startElementOption();
  verbose = verboseOption('every line');
  unvisited = unvisitedOption('every line');
  blocked = blockedOption();
  printSeed = Option.Boolean('--print-seed', false, { description: 'Print `Seed: <n>` on stdout before the steps' });
  seedFile = valueOption('--seed-file <path>', { description: 'Write the seed of the walk to this file, before the first step' });
  plugins = pluginsOption();
  logLevel = logLevelOption('silent');
  progress = Option.Boolean('--progress', {
    description: 'Show steps, steps per second and coverage on stderr (default: on when stderr is a terminal and stdout is not; --no-progress turns it off)',
  });
  scriptTimeout = scriptTimeoutOption();
  scriptBudget = scriptBudgetOption();
  scriptMemory = scriptMemoryOption();
  realClock = realClockOption();
  planStates = planStatesOption();

  protected async perform(): Promise<number> {
    const log = commandLogger(this.logLevel, this.context.stderr);
    const scriptLimits = scriptLimitsOf({
      timeoutMs: this.scriptTimeout,
      budgetMs: this.scriptBudget,
      memoryBytes: this.scriptMemory,
      realClock: this.realClock,
    });
    const { walker } = await commandServices(this.plugins, { scriptLimits });
    const { formats } = walker.registries;
    const { loaded, generators } = await readModelArguments(this.models, { formats, blocked: this.blocked, startElement: this.startElement });
    const { graph } = loaded;
    log.info({ files: this.models.map(([file]) => file), models: graph.models.length, elements: graph.size }, 'Models loaded');
    const machine = walker.walk(loaded, { seed: this.seed, generators, scriptLimits, planStates: this.planStates });
    try {
      await this.keepSeed(machine.seed);
      log.info({ seed: machine.seed }, 'Walk started');
      await this.walk(machine, log);
    } finally {
      machine.dispose();
    }
    return 0;
  }

  /**
   * Puts the seed where it was asked for. Without a word it goes to stderr only when a person watches it
   * there: on a pipe, GraphWalker's clients read any text on stderr as a failure.
   */
  private async keepSeed(seed: number): Promise<void> {
    if (this.seedFile !== undefined) {
      try {
        await writeFile(this.seedFile, `${seed}\n`);
      } catch (error) {
        throw new OutputError(`Could not write the seed file '${this.seedFile}': ${(error as Error).message}`);
      }
    }
    if (!this.printSeed && isTty(this.context.stderr)) this.context.stderr.write(`Seed: ${seed}\n`);
  }

  /** Steps until the stop condition holds or the reader leaves; the lines stepped so far are written either way. */
  private async walk(machine: Machine, log: Logger): Promise<void> {
    const output = new LineOutput(this.context.stdout);
    const progress = this.showsProgress() ? new Progress(this.context.stderr, machine, { redraw: this.redraws() }) : undefined;
    const report: StepReportOptions = { verbose: this.verbose, unvisited: this.unvisited };
    const started = performance.now();
    let failure: unknown;
    if (this.printSeed) output.add(`Seed: ${machine.seed}\n`);
    try {
      while (output.open && machine.hasNext()) {
        if (!output.add(stepLine(machine, machine.next(), report))) continue;
        await output.flush();
        progress?.update();
      }
    } catch (error) {
      failure = error;
    }
    await output.finish().catch((error: unknown) => (failure ??= error));
    progress?.finish();
    const summary = { steps: machine.steps, ms: Math.round(performance.now() - started), ...coverage(machine) };
    if (failure !== undefined) {
      log.error({ ...summary, err: failure }, 'Walk failed');
      throw failure;
    }
    log.info(summary, output.open ? 'Walk finished' : 'Output closed by its reader: walk stopped');
  }

  /** By default only when someone watches stderr and the steps go elsewhere (a file, a pipe). */
  private showsProgress(): boolean {
    return this.progress ?? this.redraws();
  }

  /** Redrawing one line in place would scribble over the steps if they went to the same terminal. */
  private redraws(): boolean {
    return isTty(this.context.stderr) && !isTty(this.context.stdout);
  }
}

/** The step as `getNext` answers it on `/walker`, without `result`, and with the members the options ask for. */
function stepLine(machine: Machine, step: Step, report: StepReportOptions): string {
  const line = { currentElementName: step.name, currentElementID: step.id, modelId: step.modelId, ...reportStep(machine, step, report) };
  return `${JSON.stringify(line)}\n`;
}

function coverage(machine: Machine): { edgeCoverage: number; vertexCoverage: number } {
  const { edgeCoverage, vertexCoverage } = machine.statistics();
  return { edgeCoverage, vertexCoverage };
}

function isTty(stream: unknown): boolean {
  return (stream as { isTTY?: boolean }).isTTY === true;
}
