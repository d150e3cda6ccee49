import { Command, Option } from 'clipanion';
import { WalkerCommand } from '../command.js';
import * as t from 'typanion';
import { readModelArguments } from '../models.js';
import { commandServices } from '../services.js';

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

  models = Option.Array('-m,--model', { arity: 2, required: true, description: 'A model file and its generator' });
  seed = Option.String('--seed', {
    validator: t.cascade(t.isNumber(), [t.isInteger(), t.isAtLeast(0)]),
    description: 'Fixes the random seed',
  });
  plugins = Option.Array('--plugin', [], { description: 'A plugin package or path to load' });

  protected async perform(): Promise<number> {
    const { walker } = await commandServices(this.plugins);
    const { loaded, generators } = await readModelArguments(this.models);
    const machine = walker.walk(loaded, { seed: this.seed, generators });
    try {
      this.context.stderr.write(`Seed: ${machine.seed}\n`);
      for (const step of machine) {
        const line = { currentElementName: step.name, currentElementID: step.id, modelId: step.modelId };
        this.context.stdout.write(`${JSON.stringify(line)}\n`);
      }
    } finally {
      machine.dispose();
    }
    return 0;
  }
}
