import type { ModelFormats } from '../core/model/formats.js';
import { loadModelFile, readModelFile } from '../core/model/load.js';
import type { ModelFileJson } from '../core/model/types.js';
import type { LoadedModelFile } from '../core/model/load.js';

/** Model files given on the command line with `-m <file> "<generator>"`, joined into one walkable file. */
export interface ModelArguments {
  readonly loaded: LoadedModelFile;
  /** The generator of each model of the joined file (the one given with its `-m`). */
  readonly generators: readonly string[];
}

/**
 * Reads every `-m` pair, each file in its own format (JSON, GraphML, ...: `formats` are the registered ones),
 * and joins the files into one model file, so that shared states link models across files and formats. The
 * generator given with `-m` replaces the generator of every model in that file.
 */
export async function readModelArguments(pairs: readonly (readonly string[])[], formats: ModelFormats): Promise<ModelArguments> {
  if (pairs.length === 1) {
    const loaded = await readModelFile(pairs[0][0], { formats });
    return { loaded, generators: loaded.file.models.map(() => pairs[0][1]) };
  }
  // One file of several needs no start element of its own (yEd users draw the Start vertex in one file only):
  // the joined file is checked for one, and for model ids that two files share.
  const files = await Promise.all(pairs.map(([file]) => readModelFile(file, { formats, requireStart: false })));
  const generators = files.flatMap((f, i) => f.file.models.map(() => pairs[i][1]));
  const joined: ModelFileJson = { models: files.flatMap((f) => f.file.models) };
  const seed = files.find((f) => f.file.seed !== undefined)?.file.seed;
  if (seed !== undefined) joined.seed = seed;
  // Blocked elements are already left out of each file, as its reading said.
  const loaded = loadModelFile(joined, { source: pairs.map(([file]) => file).join(', '), blocked: false });
  return { loaded, generators };
}
