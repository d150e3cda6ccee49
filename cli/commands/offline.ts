import { Command } from 'clipanion';
import type { Machine, Step } from '../../core/machine/machine.js';
import { WalkerCommand } from '../command.js';
import { commandLogger } from '../logger.js';
import { readModelArguments } from '../models.js';
import { commandServices } from '../services.js';
import { logLevelOption, modelsOption, pluginsOption, seedOption } from '../shared-options.js';

/** `walker offline`: walks model files to their stop conditions and prints every step as a JSON line. */
export class OfflineCommand extends WalkerCommand {
  static override paths = [['offline']];

  static override usage = Command.Usage({
    description: 'Walk model files without a service and print every step',
    details: `
      Prints one JSON object per step on stdout (\`currentElementName\`, \`currentElementID\`, \`modelId\`) and
      nothing else there. The seed goes to stderr: give it back with \`--seed\` to replay the identical path.

    `,
    examples: [
      ['Cover every edge of a model', '$0 offline -m login.json "random(edge_coverage(100))"'],
      ['Replay a walk', '$0 offline -m login.json "random(edge_coverage(100))" --seed 42'],
    ],
  });

  models = modelsOption({ required: true });
  seed = seedOption('Fixes the random seed, to replay a walk (default: the file\'s seed, else a fresh one)');
  plugins = pluginsOption();
  logLevel = logLevelOption('silent');

  protected async perform(): Promise<number> {
    const log = commandLogger(this.logLevel, this.context.stderr);
    const { walker } = await commandServices(this.plugins);
    const { loaded, generators } = await readModelArguments(this.models);
    const { graph } = loaded;
    log.info({ files: this.models.map(([file]) => file), models: graph.models.length, elements: graph.size }, 'Models loaded');
    const machine = walker.walk(loaded, { seed: this.seed, generators });
    try {
      this.context.stderr.write(`Seed: ${machine.seed}\n`);
      log.info({ seed: machine.seed }, 'Walk started');
      for (const step of machine) this.context.stdout.write(stepLine(step));
      log.info({ steps: machine.steps, ...coverage(machine) }, 'Walk finished');
    } finally {
      machine.dispose();
    }
    return 0;
  }
}

function stepLine(step: Step): string {
  return `${JSON.stringify({ currentElementName: step.name, currentElementID: step.id, modelId: step.modelId })}\n`;
}

function coverage(machine: Machine): { edgeCoverage: number; vertexCoverage: number } {
  const { edgeCoverage, vertexCoverage } = machine.statistics();
  return { edgeCoverage, vertexCoverage };
}
