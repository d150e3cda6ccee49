import { Command } from 'clipanion';
import { WalkerCommand } from '../command.js';
import type { Walker } from '../../core/walker.js';
import { inspectModelFile } from '../../core/model/issues.js';
import { readModelText } from '../../core/model/load.js';
import { readModelValue } from '../../core/model/formats.js';
import { ErrorCodes, ModelError, WalkerError } from '../../core/errors.js';
import { freshSeed } from '../../core/random.js';
import { commandLogger } from '../logger.js';
import { commandServices } from '../services.js';
import { logLevelOption, modelsOption, pluginsOption } from '../common-options.js';

/** `walker check`: reports every problem of model files and their generators, without walking. */
export class CheckCommand extends WalkerCommand {
  static override paths = [['check']];

  static override usage = Command.Usage({
    description: 'Check model files and generators without walking them',
    details: `
      Prints one issue per line and exits 1, or prints \`No issues found with the model(s).\` and exits 0.
      Warnings (such as elements that cannot be reached from the start) count as issues. Each file is checked
      on its own, with the generator given with its \`-m\`; a file that cannot be read is an issue too.
    `,
    examples: [
      ['Check a model', '$0 check -m login.json "random(edge_coverage(100))"'],
      ['Check two files, each with its generator', '$0 check -m login.json "random(edge_coverage(100))" -m shop.json "a_star(reached_vertex(v_Paid))"'],
    ],
  });

  models = modelsOption({ required: true });
  plugins = pluginsOption();
  logLevel = logLevelOption('silent');

  protected async perform(): Promise<number> {
    const log = commandLogger(this.logLevel, this.context.stderr);
    const { walker } = await commandServices(this.plugins);
    const lines: string[] = [];
    for (const [file, generator] of this.models) {
      const issues = await this.checkFile(walker, file, generator);
      log.info({ file, generator, issues: issues.length }, 'Model file checked');
      lines.push(...issues);
    }
    if (lines.length === 0) {
      this.context.stdout.write('No issues found with the model(s).\n');
      return 0;
    }
    for (const line of lines) this.context.stdout.write(`${line}\n`);
    return 1;
  }

  private async checkFile(walker: Walker, file: string, generator: string): Promise<string[]> {
    try {
      const value = readModelValue(await readModelText(file), walker.registries.formats, file);
      const { file: model, graph, issues } = inspectModelFile(value, { source: file });
      const lines = issues.map((i) => `${file}: ${i.severity === 'warning' ? 'warning: ' : ''}${i.message}`);
      if (model === undefined || graph === undefined) return lines;
      const generators = graph.models.map(() => generator);
      walker.walk({ file: model, graph, warnings: [] }, { seed: freshSeed(), generators }).dispose();
      return lines;
    } catch (error) {
      // A file that cannot be read, or does not parse, names itself; the other messages get the file in front.
      if (error instanceof WalkerError) return [namesItsFile(error) ? error.message : `${file}: ${error.message}`];
      throw error;
    }
  }
}

function namesItsFile(error: WalkerError): boolean {
  return error.code === ErrorCodes.FILE || (error instanceof ModelError && error.location.source !== undefined);
}
