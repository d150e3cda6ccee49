import type { LoadedModelFile } from '../core/model/load.js';
import { WalkerCommand } from './command.js';
import { blockedOption, modelFilesOption, pluginsOption } from './common-options.js';
import { readModelFiles } from './models.js';
import { commandServices } from './services.js';
import { sortedLines } from './sorted-lines.js';

/**
 * A command that lists something of model files given with `-m <file>` alone, once each and sorted as
 * GraphWalker sorts (`methods`, `requirements`): the files are read in any registered format, blocked elements
 * left out unless `--blocked false`.
 */
export abstract class ListingCommand extends WalkerCommand {
  models = modelFilesOption();
  blocked = blockedOption();
  plugins = pluginsOption();

  /** What the files list, duplicates and all. */
  protected abstract itemsOf(files: readonly LoadedModelFile[]): string[];

  protected async perform(): Promise<number> {
    const { walker } = await commandServices(this.plugins);
    const files = await readModelFiles(this.models, { formats: walker.registries.formats, blocked: this.blocked });
    this.context.stdout.write(sortedLines(this.itemsOf(files)));
    return 0;
  }
}
