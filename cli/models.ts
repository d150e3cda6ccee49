import { ErrorCodes, WalkerError } from '../core/errors.js';
import { Graph } from '../core/model/graph.js';
import { loadModelFile, parseModelText, readModelFile, readModelText, type LoadedModelFile } from '../core/model/load.js';
import type { ModelFileJson } from '../core/model/types.js';
import { withStartElement } from './start-element.js';

/** Model files given on the command line with `-m <file> "<generator>"`, joined into one walkable file. */
export interface ModelArguments {
  readonly loaded: LoadedModelFile;
  /** The generator of each model of the joined file: the one given with its `-m` for a file's first model. */
  readonly generators: readonly (string | undefined)[];
}

/** How the `-m` files are read. */
export interface ModelArgumentOptions {
  /** Leave out elements whose `blocked` property is true (`--blocked`). */
  readonly blocked: boolean;
  /** `--start-element`: the name of the start of the first model of the first file. */
  readonly startElement?: string;
}

/**
 * Reads every `-m` pair and joins the files into one model file, so that shared states link models across
 * files. As in GraphWalker, the generator given with `-m` replaces the generator of the file's first model
 * only; the file's other models walk with their own `generator`, and one without is an error that names it.
 */
export async function readModelArguments(
  pairs: readonly (readonly string[])[],
  options: ModelArgumentOptions,
): Promise<ModelArguments> {
  const files = await Promise.all(
    pairs.map(async ([file], i) => {
      const loaded = await readArgumentFile(file, i === 0 ? options.startElement : undefined, options.blocked);
      requireOwnGenerators(loaded.file, file);
      return loaded;
    }),
  );
  const generators = files.flatMap((f, i) => f.file.models.map((_, m) => (m === 0 ? pairs[i][1] : undefined)));
  if (files.length === 1) return { loaded: files[0], generators };
  const joined: ModelFileJson = { models: files.flatMap((f) => f.file.models) };
  const seed = files.find((f) => f.file.seed !== undefined)?.file.seed;
  if (seed !== undefined) joined.seed = seed;
  return {
    loaded: { file: joined, graph: new Graph(joined), warnings: files.flatMap((f) => f.warnings) },
    generators,
  };
}

/** Reads and loads model files given with `-m <file>` alone (`methods`, `requirements`). */
export async function readModelFiles(files: readonly string[], options: { readonly blocked: boolean }): Promise<LoadedModelFile[]> {
  return Promise.all(files.map((file) => readModelFile(file, { blocked: options.blocked })));
}

/**
 * One `-m` file, read as every command reads model files; a start element by name is set on the file as read,
 * before the load checks that the file has a start.
 */
async function readArgumentFile(file: string, startElement: string | undefined, blocked: boolean): Promise<LoadedModelFile> {
  if (startElement === undefined) return readModelFile(file, { blocked });
  const value = withStartElement(parseModelText(await readModelText(file), file), startElement, file, blocked);
  return loadModelFile(value, { source: file, blocked });
}

/** The models after a file's first walk with their own generator: each must have one. */
function requireOwnGenerators(model: ModelFileJson, file: string): void {
  for (const m of model.models.slice(1)) {
    if (m.generator !== undefined && m.generator.trim() !== '') continue;
    const name = m.name === undefined ? '' : ` ('${m.name}')`;
    throw new WalkerError(
      ErrorCodes.NO_GENERATOR,
      `${file}: model '${m.id}'${name} has no generator. The generator given with -m replaces that of the file's ` +
        'first model only; give this model a "generator" member, e.g. "generator": "random(edge_coverage(100))".',
    );
  }
}
