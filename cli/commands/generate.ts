import { access, mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Command, Option } from 'clipanion';
import * as t from 'typanion';
import { WalkerCommand } from '../command.js';
import { blockedOption, modelFilesOption, pluginsOption } from '../common-options.js';
import { OutputError } from '../line-output.js';
import { readModelFiles } from '../models.js';
import { valueOption } from '../option.js';
import { commandServices } from '../services.js';

/** `walker generate`: writes a skeleton test module for model files (docs/runner.md). */
export class GenerateCommand extends WalkerCommand {
  static override paths = [['generate']];

  static override usage = Command.Usage({
    description: 'Write a skeleton test module for model files: a class per model, a method per element name',
    details: `
      Writes \`<dir>/index.ts\` (with \`--language js\`, \`<dir>/index.mjs\`): the run's fixtures and a class per
      model with an empty method per vertex and edge name, which \`walker verify\` accepts and \`walker run <dir>\`
      executes. The folder is made when missing; an index already there is left alone (exit 2).
    `,
    examples: [['A TypeScript skeleton for the example', '$0 generate tests -m examples/runner/shop.json']],
  });

  dir = Option.String({ name: 'dir' });
  models = modelFilesOption();
  language = valueOption<'ts' | 'js'>('--language <ts|js>', { validator: t.isEnum(['ts', 'js'] as const), description: 'TypeScript or JavaScript (default ts)' }, 'ts');
  blocked = blockedOption();
  plugins = pluginsOption();

  protected async perform(): Promise<number> {
    const { skeletonModule } = await import('../../runner/skeleton.js');
    const { walker } = await commandServices(this.plugins);
    const files = await readModelFiles(this.models, { formats: walker.registries.formats, blocked: this.blocked });
    const file = join(this.dir, this.language === 'ts' ? 'index.ts' : 'index.mjs');
    if (await access(file).then(() => true, () => false)) throw new OutputError(`${file} exists already: generate into another folder, or remove it`);
    try {
      await mkdir(this.dir, { recursive: true });
      await writeFile(file, skeletonModule(files.map((f) => f.graph), this.language));
    } catch (error) {
      throw new OutputError(`Could not write '${file}': ${(error as Error).message}`);
    }
    this.context.stdout.write(`${file}\n`);
    return 0;
  }
}
