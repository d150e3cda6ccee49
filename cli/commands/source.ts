import { readFile } from 'node:fs/promises';
import { Command, UsageError } from 'clipanion';
import { ErrorCodes, WalkerError } from '../../core/errors.js';
import { readFailure } from '../../core/model/load.js';
import { WalkerCommand } from '../command.js';
import { blockedOption, pluginsOption } from '../common-options.js';
import { readModelFiles } from '../models.js';
import { listOption } from '../option.js';
import { commandServices } from '../services.js';
import { expandSourceTemplate, parseSourceTemplate } from '../source-template.js';

/** `walker source`: GraphWalker's template expansion, one block of code per element name of a model. */
export class SourceCommand extends WalkerCommand {
  static override paths = [['source']];

  static override usage = Command.Usage({
    description: "Expand a GraphWalker source template with a model's element names",
    details: `
      Reads the model file (any format walker reads) and the template, and prints, for each model of the file,
      the template's \`HEADER<{{ ... }}>HEADER\` part once, then its body once per name of a vertex or edge,
      each name once, sorted as GraphWalker sorts them, with every \`{LABEL}\` replaced by the name, then its
      \`FOOTER<{{ ... }}>FOOTER\` part once, as GraphWalker's \`source\` prints them: existing templates keep
      working. Unnamed elements are left out, and so are blocked ones unless \`--blocked false\` is given.
      \`walker generate\` is walker's own way to start a test module.
    `,
    examples: [
      ['Python stubs for the steps of a model', '$0 source -i login.json python.template > login.py'],
      ['Of a yEd model, blocked elements included', '$0 source -i Login.graphml perl.template -b false > login.pl'],
    ],
  });

  input = listOption('-i,--input <model> <template>', { required: true, description: 'The model file, and the template file' });
  blocked = blockedOption();
  plugins = pluginsOption();

  protected async perform(): Promise<number> {
    if (this.input.length > 1) throw new UsageError('-i,--input takes one model file and one template: give it once');
    const [modelFile, templateFile] = this.input[0];
    const template = parseSourceTemplate(await readTemplate(templateFile));
    if (template === undefined) {
      throw new WalkerError(
        ErrorCodes.FILE,
        `The template '${templateFile}' has no HEADER<{{ ... }}>HEADER, body and FOOTER<{{ ... }}>FOOTER: write the ` +
          'code that comes once between the HEADER markers, the code for each element after them with {LABEL} ' +
          'where its name goes, and the code that ends the file between the FOOTER markers',
      );
    }
    const { walker } = await commandServices(this.plugins);
    const [loaded] = await readModelFiles([modelFile], { formats: walker.registries.formats, blocked: this.blocked });
    if (loaded.file.models.length === 0) throw new WalkerError(ErrorCodes.MODEL_INVALID, `No valid models found in: '${modelFile}'. Its 'models' list is empty.`);
    for (const model of loaded.file.models) {
      const names = [...model.vertices, ...model.edges].flatMap((e) => (e.name === undefined || e.name === '' ? [] : [e.name]));
      this.context.stdout.write(expandSourceTemplate(template, names));
    }
    return 0;
  }
}

async function readTemplate(path: string): Promise<string> {
  try {
    return await readFile(path, 'utf8');
  } catch (error) {
    throw new WalkerError(ErrorCodes.FILE, `Could not read the template '${path}': ${readFailure(error)}`);
  }
}
