import { ErrorCodes, WalkerError } from '../core/errors.js';
import { readModelValue, type ModelFormats } from '../core/model/formats.js';
import { loadModelFile, readModelFile, readModelText, type LoadedModelFile } from '../core/model/load.js';
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
  /** The registered formats (`registries.formats`): each file is read in its own. */
  readonly formats: ModelFormats;
  /** Leave out elements whose `blocked` property is true (`--blocked`). */
  readonly blocked: boolean;
  /** `--start-element`: the name of the start of the first model of the first file. */
  readonly startElement?: string;
}

/**
 * Reads every `-m` pair, each file in its own format (JSON, GraphML, ...), and joins the files into one model
 * file, so that shared states link models across files and formats. As in GraphWalker, the generator given
 * with `-m` replaces the generator of the file's first model only; the file's other models walk with their
 * own `generator`, and one without is an error that names it.
 */
export async function readModelArguments(pairs: readonly (readonly string[])[], options: ModelArgumentOptions): Promise<ModelArguments> {
  // One file of several needs no start element of its own (yEd users draw the Start vertex in one file only):
  // the joined file is checked for one, and for model ids that two files share.
  const requireStart = pairs.length === 1;
  const files = await Promise.all(
    pairs.map(async ([file], i) => {
      const loaded = await readArgumentFile(file, i === 0 ? options.startElement : undefined, { ...options, requireStart });
      requireOwnGenerators(loaded.file, file);
      return loaded;
    }),
  );
  const generators = files.flatMap((f, i) => f.file.models.map((_, m) => (m === 0 ? pairs[i][1] : undefined)));
  if (files.length === 1) return { loaded: files[0], generators };
  const joined: ModelFileJson = { models: files.flatMap((f) => f.file.models) };
  const seed = files.find((f) => f.file.seed !== undefined)?.file.seed;
  if (seed !== undefined) joined.seed = seed;
  // Blocked elements are already left out of each file, as its reading said.
  const loaded = loadModelFile(joined, { source: pairs.map(([file]) => file).join(', '), blocked: false });
  return { loaded, generators };
}

/**
 * Reads and loads model files given with `-m <file>` alone (`methods`, `requirements`), each in its own
 * format; they are listed, not walked, so none needs a start element.
 */
export async function readModelFiles(
  files: readonly string[],
  options: { readonly formats: ModelFormats; readonly blocked: boolean },
): Promise<LoadedModelFile[]> {
  return Promise.all(files.map((file) => readModelFile(file, { ...options, requireStart: false })));
}

/**
 * One `-m` file, read in its format; a start element by name is set on the file as read, before the load
 * checks that the file has a start.
 */
async function readArgumentFile(
  file: string,
  startElement: string | undefined,
  options: ModelArgumentOptions & { readonly requireStart: boolean },
): Promise<LoadedModelFile> {
  const { formats, blocked, requireStart } = options;
  if (startElement === undefined) return readModelFile(file, { formats, blocked, requireStart });
  const value = withStartElement(readModelValue(await readModelText(file), formats, file), startElement, file, blocked);
  return loadModelFile(value, { source: file, blocked, requireStart });
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
