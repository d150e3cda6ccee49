import { Command } from 'clipanion';
import type { LoadedModelFile } from '../../core/model/load.js';
import { ListingCommand } from '../listing-command.js';

/** `walker requirements`: the requirement keys of model files, as GraphWalker's `requirements` lists them. */
export class RequirementsCommand extends ListingCommand {
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

  protected itemsOf(files: readonly LoadedModelFile[]): string[] {
    return files.flatMap((f) => f.graph.requirements.flat());
  }
}
