import { constants } from 'node:fs';
import { access, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { Command, Option } from 'clipanion';
import type { Logger } from 'pino';
import type { Machine, Step } from '../../core/machine/machine.js';
import { planningIssues } from '../../core/machine/planning-issues.js';
import type { PlanningFigures } from '../../core/machine/statistics.js';
import { reportStep, type StepReportOptions } from '../../core/machine/step-report.js';
import { REPORT_PATH_LIMIT } from '../../server/view/limits.js';
import { WalkerCommand } from '../command.js';
import { LineOutput, OutputError } from '../line-output.js';
import { commandLogger } from '../logger.js';
import { readModelArguments } from '../models.js';
import { valueOption } from '../option.js';
import { Progress } from '../progress.js';
import { realClockOption, scriptBudgetOption, scriptMemoryOption, scriptTimeoutOption } from '../script-options.js';
import { walkSettingsOf } from '../walk-settings-options.js';
import { commandServices } from '../services.js';
import {
  blockedOption,
  logLevelOption,
  modelsOption,
  planStatesOption,
  planTimeOption,
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

      \`--report <file>\` writes, once the walk ends (or fails), one HTML page that opens in a browser from the
      file, with no server and no network: the graph coloured by visits, the statistics, and a slider that
      replays the path step by step.
    `,
    examples: [
      ['Cover every edge of a model', '$0 offline -m login.json "random(edge_coverage(100))"'],
      ['As AltWalker runs it', '$0 offline --model login.json "random(edge_coverage(100))" --verbose --blocked False'],
      ['Keep the seed, and replay the walk', '$0 offline -m login.json "random(edge_coverage(100))" --seed-file seed.txt && $0 offline -m login.json "random(edge_coverage(100))" --seed "$(cat seed.txt)"'],
      ['Look at the first 10 steps of an endless walk', '$0 offline -m login.json "random(never)" | head -n 10'],
      ['Write a report to open in a browser', '$0 offline -m login.json "random(edge_coverage(100))" --report run.html'],
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
  reportFile = valueOption('--report <file>', {
    description: 'Write the walk as one HTML page: the graph, a heat map of visits, the statistics, the path to replay step by step',
  });
  progress = Option.Boolean('--progress', {
    description: 'Show steps, steps per second and coverage on stderr (default: on when stderr is a terminal and stdout is not; --no-progress turns it off)',
  });
  scriptTimeout = scriptTimeoutOption();
  scriptBudget = scriptBudgetOption();
  scriptMemory = scriptMemoryOption();
  realClock = realClockOption();
  planStates = planStatesOption();
  planTime = planTimeOption();

  protected async perform(): Promise<number> {
    const log = commandLogger(this.logLevel, this.context.stderr);
    const settings = walkSettingsOf(this);
    if (this.reportFile !== undefined) await checkWritable(this.reportFile);
    const { walker } = await commandServices(this.plugins, settings);
    const { formats } = walker.registries;
    const { loaded, generators } = await readModelArguments(this.models, { formats, blocked: settings.blocked, startElement: this.startElement });
    const { graph } = loaded;
    log.info({ files: this.models.map(([file]) => file), models: graph.models.length, elements: graph.size }, 'Models loaded');
    const machine = walker.walk(loaded, { ...settings, generators });
    try {
      await this.keepSeed(machine.seed);
      log.info({ seed: machine.seed }, 'Walk started');
      // Exploring the states from the start costs a load's worth of time: only for a reader of warnings.
      if (log.isLevelEnabled('warn')) {
        for (const { code, modelId, elementId, message } of planningIssues(machine)) log.warn({ code, modelId, elementId }, message);
      }
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
    const stepReport: StepReportOptions = { verbose: this.verbose, unvisited: this.unvisited };
    // Only a report needs the path; a walk without one keeps nothing per step.
    const path: number[] | undefined = this.reportFile === undefined ? undefined : [];
    const started = performance.now();
    let failure: unknown;
    if (this.printSeed) output.add(`Seed: ${machine.seed}\n`);
    try {
      while (output.open && machine.hasNext()) {
        const step = machine.next();
        if (path !== undefined && path.length < REPORT_PATH_LIMIT) path.push(step.element);
        if (!output.add(stepLine(machine, step, stepReport))) continue;
        await output.flush();
        progress?.update();
      }
    } catch (error) {
      failure = error;
    }
    await output.finish().catch((error: unknown) => (failure ??= error));
    progress?.finish();
    if (this.reportFile !== undefined) await this.writeReport(this.reportFile, machine, path ?? []).catch((error: unknown) => (failure ??= error));
    const planning = machine.planningFigures();
    const summary = { steps: machine.steps, ms: Math.round(performance.now() - started), ...coverage(machine), ...(planning && { planning }) };
    if (planning?.boundHit !== undefined) log.warn({ planning }, boundWords(planning));
    if (failure !== undefined) {
      log.error({ ...summary, err: failure }, 'Walk failed');
      throw failure;
    }
    log.info(summary, output.open ? 'Walk finished' : 'Output closed by its reader: walk stopped');
  }

  /** The page of `--report`: written whether the walk ended or failed, since a failed walk is worth a look too. */
  private async writeReport(file: string, machine: Machine, path: readonly number[]): Promise<void> {
    const { reportMessage, reportPage } = await import('../../server/view/report-page.js');
    const title = this.models.map(([model]) => model).join(', ');
    try {
      await writeFile(file, reportPage(reportMessage(machine, path, title)));
    } catch (error) {
      throw new OutputError(`Could not write the report '${file}': ${writeFailure(error)}`);
    }
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

/** Why the walk planned on the fly from some point on (docs/planning.md, "The bound"). */
function boundWords(planning: PlanningFigures): string {
  const bound =
    planning.boundHit === 'states'
      ? `its bound of ${planning.stateBound} states (--plan-states)`
      : planning.boundHit === 'growth'
        ? `${planning.exploredStates} states, which grow without end`
        : `its safety stop of ${planning.timeBoundMs} ms (--plan-time), with ${planning.exploredStates} states found (this walk may not replay from its seed)`;
  const fell = planning.graphDecisions ?? 0;
  const graph = fell === 0 ? '' : `; ${fell} decisions found nothing within their bound and went by the graph alone`;
  return `Exploring the walk's states stopped at ${bound}: from then on, plans were made on the fly from where the walk stood (${planning.decisions ?? 0} explorations${graph})`;
}

function coverage(machine: Machine): { edgeCoverage: number; vertexCoverage: number } {
  const { edgeCoverage, vertexCoverage } = machine.statistics();
  return { edgeCoverage, vertexCoverage };
}

/** Before the walk, so that a long walk does not end in a report that cannot be written. */
async function checkWritable(file: string): Promise<void> {
  try {
    await access(dirname(file), constants.W_OK);
  } catch (error) {
    throw new OutputError(`Could not write the report '${file}': ${writeFailure(error, 'its folder')}`);
  }
}

/** A readable reason for a failed write, without Node's `ENOENT: ..., open '<path>'` repetition. */
function writeFailure(error: unknown, what = 'it'): string {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (code === 'ENOENT') return `${what === 'it' ? 'its folder' : what} does not exist`;
  if (code === 'EACCES' || code === 'EPERM') return `${what} may not be written to (permission denied)`;
  if (code === 'EISDIR') return 'it is a folder';
  return error instanceof Error ? error.message : String(error);
}

function isTty(stream: unknown): boolean {
  return (stream as { isTTY?: boolean }).isTTY === true;
}
