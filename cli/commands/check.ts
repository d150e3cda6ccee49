import { Command, Option } from 'clipanion';
import { WalkerCommand } from '../command.js';
import type { Walker } from '../../core/walker.js';
import { inspectModelFile } from '../../core/model/issues.js';
import { parseModelText, readModelText } from '../../core/model/load.js';
import { ErrorCodes, WalkerError } from '../../core/errors.js';
import { freshSeed } from '../../core/random.js';
import { commandServices } from '../services.js';

/** `walker check`: reports every problem of model files and their generators, without walking. */
export class CheckCommand extends WalkerCommand {
  static override paths = [['check']];

  static override usage = Command.Usage({
    description: 'Check model files and generators without walking them',
    details: `
      Prints one issue per line and exits 1, or prints \`No issues found with the model(s).\` and exits 0.
      Warnings (such as elements that cannot be reached from the start) count as issues.
    `,
    examples: [['Check a model', '$0 check -m login.json "random(edge_coverage(100))"']],
  });

  models = Option.Array('-m,--model', { arity: 2, required: true, description: 'A model file and its generator' });
  plugins = Option.Array('--plugin', [], { description: 'A plugin package or path to load' });

  protected async perform(): Promise<number> {
    const { walker } = await commandServices(this.plugins);
    const lines: string[] = [];
    for (const [file, generator] of this.models) lines.push(...(await this.checkFile(walker, file, generator)));
    if (lines.length === 0) {
      this.context.stdout.write('No issues found with the model(s).\n');
      return 0;
    }
    for (const line of lines) this.context.stdout.write(`${line}\n`);
    return 1;
  }

  private async checkFile(walker: Walker, file: string, generator: string): Promise<string[]> {
    try {
      const { file: model, graph, issues } = inspectModelFile(parseModelText(await readModelText(file), file), { source: file });
      const lines = issues.map((i) => `${file}: ${i.severity === 'warning' ? 'warning: ' : ''}${i.message}`);
      if (model === undefined || graph === undefined) return lines;
      const generators = graph.models.map(() => generator);
      walker.walk({ file: model, graph, warnings: [] }, { seed: freshSeed(), generators }).dispose();
      return lines;
    } catch (error) {
      // A file that cannot be read names itself; the other messages get the file in front.
      if (error instanceof WalkerError) return [error.code === ErrorCodes.FILE ? error.message : `${file}: ${error.message}`];
      throw error;
    }
  }
}
