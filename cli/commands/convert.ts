import { writeFile } from 'node:fs/promises';
import { Command, UsageError } from 'clipanion';
import { WalkerCommand } from '../command.js';
import type { ModelFormat } from '../../core/format.js';
import type { Registry } from '../../core/registry.js';
import { WALK_ONLY_ISSUES } from '../../core/model/issues.js';
import { readModelFile } from '../../core/model/load.js';
import { OutputError } from '../line-output.js';
import { commandLogger } from '../logger.js';
import { commandServices } from '../services.js';
import { blockedOption, logLevelOption, pluginsOption } from '../common-options.js';
import { valueOption } from '../option.js';

/** `walker convert`: writes a model file in another format (yEd GraphML, JSON, Graphviz DOT). */
export class ConvertCommand extends WalkerCommand {
  static override paths = [['convert']];

  static override usage = Command.Usage({
    description: 'Convert a model file to another format',
    details: `
      Reads a model file in any format walker reads (JSON, yEd GraphML, or a plugin's) and writes it as JSON
      (the default), GraphML or DOT, on stdout or into the file given with \`-o\`. JSON to GraphML and back
      keeps every field; yEd opens the GraphML, and Graphviz draws the DOT.

      The file is checked as a load checks it, except for what only a walk cares about: it needs no start
      element (a file of several joined by shared states may have none), and a weight or dependency out of
      range, or a start element or predefined-path edge that names nothing or a blocked element, is written
      as it is, with a warning on stderr. Only what the target format cannot hold is refused. Like GraphWalker,
      \`-b true\` (the default) leaves blocked elements out; give \`-b false\` to keep them.
    `,
    examples: [
      ['Convert a yEd model to JSON', '$0 convert -i Login.graphml > Login.json'],
      ['Convert a JSON model to open it in yEd', '$0 convert -i login.json -f graphml -o login.graphml'],
      ['Draw a model with Graphviz', '$0 convert -i login.json -f dot | dot -Tsvg > login.svg'],
    ],
  });

  input = valueOption('-i,--input <file>', { required: true, description: 'The model file to convert' });
  format = valueOption('-f,--format <format>', { description: 'The format to write: json (the default), graphml or dot' }, 'json');
  output = valueOption('-o,--output <file>', { description: 'Write into this file instead of stdout' });
  blocked = blockedOption();
  plugins = pluginsOption();
  logLevel = logLevelOption('silent');

  protected async perform(): Promise<number> {
    const log = commandLogger(this.logLevel, this.context.stderr);
    const { walker } = await commandServices(this.plugins);
    const formats = walker.registries.formats;
    const target = writer(formats, this.format);
    const loaded = await readModelFile(this.input, { formats, blocked: this.blocked, forConversion: true });
    const text = (target.write as NonNullable<ModelFormat['write']>)(loaded.file);
    if (this.output === undefined) this.context.stdout.write(text);
    else await writeOutput(this.output, text);
    // Written all the same: these matter to a walk, not to the file.
    for (const { code, message } of loaded.warnings) {
      if (WALK_ONLY_ISSUES.has(code)) this.context.stderr.write(`${this.input}: warning: ${message}\n`);
    }
    log.info({ file: this.input, format: target.name, output: this.output ?? 'stdout' }, 'Model file converted');
    return 0;
  }
}

/** The format `-f` names, which must be able to write. */
function writer(formats: Registry<ModelFormat>, name: string): ModelFormat {
  const writable = formats.values().filter((f) => f.write !== undefined).map((f) => f.name);
  const format = formats.find(name);
  if (format?.write === undefined) throw new UsageError(`-f,--format must be one of ${writable.join(', ')}; got '${name}'`);
  return format;
}

async function writeOutput(path: string, text: string): Promise<void> {
  try {
    await writeFile(path, text, 'utf8');
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'its folder does not exist' : (error as Error).message;
    throw new OutputError(`Could not write '${path}': ${reason}`);
  }
}
