import { Command } from 'clipanion';
import { WalkerCommand } from '../command.js';
import { blockedOption, modelFilesOption, pluginsOption } from '../common-options.js';
import { commandServices } from '../services.js';
import { readModelFiles } from '../models.js';
import { sortedLines } from '../sorted-lines.js';

/** `walker requirements`: the requirement keys of model files, as GraphWalker's `requirements` lists them. */
export class RequirementsCommand extends WalkerCommand {
  static override paths = [['requirements']];

  static override usage = Command.Usage({
    description: 'List the requirement keys of model files',
    details: `
      Prints each requirement key of a vertex or edge once, one per line, sorted as GraphWalker sorts them (by
      UTF-16 code unit). A model's own \`requirements\` member is not listed: as in GraphWalker, only elements
      carry requirements a walk can pass. Blocked elements are left out unless \`--blocked false\` is given.
    `,
    examples: [
      ['The requirements of a model', '$0 requirements -m login.json'],
      ['Of two files', '$0 requirements -m login.json -m shop.json'],
    ],
  });

  models = modelFilesOption();
  blocked = blockedOption();
  plugins = pluginsOption();

  protected async perform(): Promise<number> {
    const { walker } = await commandServices(this.plugins);
    const files = await readModelFiles(this.models, { formats: walker.registries.formats, blocked: this.blocked });
    this.context.stdout.write(sortedLines(files.flatMap((f) => f.graph.requirements.flat())));
    return 0;
  }
}
