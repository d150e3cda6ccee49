import { Graph } from '../core/model/graph.js';
import { readModelFile } from '../core/model/load.js';
import type { ModelFileJson } from '../core/model/types.js';
import type { LoadedModelFile } from '../core/model/load.js';

/** Model files given on the command line with `-m <file> "<generator>"`, joined into one walkable file. */
export interface ModelArguments {
  readonly loaded: LoadedModelFile;
  /** The generator of each model of the joined file (the one given with its `-m`). */
  readonly generators: readonly string[];
}

/**
 * Reads every `-m` pair and joins the files into one model file, so that shared states link models across
 * files. The generator given with `-m` replaces the generator of every model in that file.
 */
export async function readModelArguments(pairs: readonly (readonly string[])[]): Promise<ModelArguments> {
  const files = await Promise.all(pairs.map(([file]) => readModelFile(file)));
  const generators = files.flatMap((f, i) => f.file.models.map(() => pairs[i][1]));
  if (files.length === 1) return { loaded: files[0], generators };
  const joined: ModelFileJson = { models: files.flatMap((f) => f.file.models) };
  const seed = files.find((f) => f.file.seed !== undefined)?.file.seed;
  if (seed !== undefined) joined.seed = seed;
  return {
    loaded: { file: joined, graph: new Graph(joined), warnings: files.flatMap((f) => f.warnings) },
    generators,
  };
}
