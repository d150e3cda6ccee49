import { Command } from 'clipanion';
import type { LoadedModelFile } from '../../core/model/load.js';
import { ListingCommand } from '../listing-command.js';

/** `walker methods`: the names a test class must implement a method for, as GraphWalker's `methods` lists them. */
export class MethodsCommand extends ListingCommand {
  static override paths = [['methods']];

  static override usage = Command.Usage({
    description: 'List the names of the vertices and edges of model files',
    details: `
      Prints each name of a vertex or edge once, one per line, sorted as GraphWalker sorts them (by UTF-16 code
      unit: upper case before lower case, \`e10\` before \`e2\`): the methods a test class implements, one per
      element name. Unnamed elements are left out, and so are blocked ones unless \`--blocked false\` is given.
    `,
    examples: [
      ['The methods of a model', '$0 methods -m login.json'],
      ['Of two files, blocked elements included', '$0 methods -m login.json -m shop.json --blocked false'],
    ],
  });

  protected itemsOf(files: readonly LoadedModelFile[]): string[] {
    return files.flatMap((f) => f.graph.names.filter((name): name is string => name !== undefined && name !== ''));
  }
}
