import { Command, Option } from 'clipanion';
import type { Logger } from 'pino';
import type { Machine, Step } from '../../core/machine/machine.js';
import { WalkerCommand } from '../command.js';
import { LineOutput } from '../line-output.js';
import { commandLogger } from '../logger.js';
import { readModelArguments } from '../models.js';
import { Progress } from '../progress.js';
import { commandServices } from '../services.js';
import { logLevelOption, modelsOption, pluginsOption, seedOption } from '../common-options.js';

/** `walker offline`: walks model files to their stop conditions and prints every step as a JSON line. */
export class OfflineCommand extends WalkerCommand {
  static override paths = [['offline']];

  static override usage = Command.Usage({
    description: 'Walk model files without a service and print every step',
    details: `
      Prints one JSON object per step on stdout (\`currentElementName\`, \`currentElementID\`, \`modelId\`) and
      nothing else there. The seed goes to stderr: give it back with \`--seed\` to replay the identical path.

      The walk keeps pace with the reader: piped into a slow consumer it waits, and when the reader goes away
      (\`| head\`) it stops and exits 0. With \`--progress\` (the default when stderr is a terminal and stdout
      is not) it shows the steps, steps per second and coverage on stderr, at most five times a second.
    `,
    examples: [
      ['Cover every edge of a model', '$0 offline -m login.json "random(edge_coverage(100))"'],
      ['Replay a walk', '$0 offline -m login.json "random(edge_coverage(100))" --seed 42'],
      ['Look at the first 10 steps of an endless walk', '$0 offline -m login.json "random(never)" | head -n 10'],
    ],
  });

  models = modelsOption({ required: true });
  seed = seedOption('Fixes the random seed, to replay a walk (default: the file\'s seed, else a fresh one)');
  plugins = pluginsOption();
  logLevel = logLevelOption('silent');
  progress = Option.Boolean('--progress', {
    description: 'Show steps, steps per second and coverage on stderr (default: on when stderr is a terminal and stdout is not; --no-progress turns it off)',
  });

  protected async perform(): Promise<number> {
    const log = commandLogger(this.logLevel, this.context.stderr);
    const { walker } = await commandServices(this.plugins);
    const { loaded, generators } = await readModelArguments(this.models, walker.registries.formats);
    const { graph } = loaded;
    log.info({ files: this.models.map(([file]) => file), models: graph.models.length, elements: graph.size }, 'Models loaded');
    const machine = walker.walk(loaded, { seed: this.seed, generators });
    try {
      this.context.stderr.write(`Seed: ${machine.seed}\n`);
      log.info({ seed: machine.seed }, 'Walk started');
      await this.walk(machine, log);
    } finally {
      machine.dispose();
    }
    return 0;
  }

  /** Steps until the stop condition holds or the reader leaves; the lines stepped so far are written either way. */
  private async walk(machine: Machine, log: Logger): Promise<void> {
    const output = new LineOutput(this.context.stdout);
    const progress = this.showsProgress() ? new Progress(this.context.stderr, machine, { redraw: this.redraws() }) : undefined;
    const started = performance.now();
    let failure: unknown;
    try {
      while (output.open && machine.hasNext()) {
        if (!output.add(stepLine(machine.next()))) continue;
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

function stepLine(step: Step): string {
  return `${JSON.stringify({ currentElementName: step.name, currentElementID: step.id, modelId: step.modelId })}\n`;
}

function coverage(machine: Machine): { edgeCoverage: number; vertexCoverage: number } {
  const { edgeCoverage, vertexCoverage } = machine.statistics();
  return { edgeCoverage, vertexCoverage };
}

function isTty(stream: unknown): boolean {
  return (stream as { isTTY?: boolean }).isTTY === true;
}
