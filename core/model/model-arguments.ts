import { ErrorCodes, WalkerError } from '../errors.js';
import { readModelValue, type ModelFormats } from './formats.js';
import { isError } from './issues.js';
import { ModelIssuesError, readModelFile, readModelText, type LoadedModelFile } from './load.js';
import { inspectModelSet, type ModelSetPart } from './model-set.js';
import type { ModelJson } from './types.js';

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
 * file as `walker check` joins them (`inspectModelSet`): shared states link models across files and formats,
 * and one file may hold the start of all. As in GraphWalker, the generator given with `-m` replaces the
 * generator of the file's first model only; the file's other models walk with their own `generator`, and one
 * without is an error that names it. A file with an error stops the command with that file's issues.
 */
export async function readModelArguments(pairs: readonly (readonly string[])[], options: ModelArgumentOptions): Promise<ModelArguments> {
  const parts = await Promise.all(pairs.map(([file], i) => readPart(file, i === 0 ? options.startElement : undefined, options)));
  const { issues, loaded, partOf } = inspectModelSet(parts, { blocked: options.blocked });
  const failed = issues.find((i) => isError(i.issue));
  if (failed !== undefined || loaded === undefined) {
    const part = failed?.part ?? 0;
    throw new ModelIssuesError(issues.filter((i) => i.part === part).map((i) => i.issue), parts[part].source);
  }
  const firsts = loaded.file.models.map((_, m) => m === 0 || partOf[m] !== partOf[m - 1]);
  loaded.file.models.forEach((model, m) => {
    if (!firsts[m]) requireOwnGenerator(model, pairs[partOf[m]][0]);
  });
  return { loaded, generators: firsts.map((first, m) => (first ? pairs[partOf[m]][1] : undefined)) };
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

/** One `-m` file read in its format; the load sets a start element by name on its first model. */
async function readPart(file: string, startElement: string | undefined, options: ModelArgumentOptions): Promise<ModelSetPart> {
  const value = readModelValue(await readModelText(file), options.formats, file);
  return startElement === undefined ? { source: file, value } : { source: file, value, startElement };
}

/** A model after its file's first walks with its own generator, so it must have one. */
function requireOwnGenerator(model: ModelJson, file: string): void {
  if (model.generator !== undefined && model.generator.trim() !== '') return;
  const name = model.name === undefined ? '' : ` ('${model.name}')`;
  throw new WalkerError(
    ErrorCodes.NO_GENERATOR,
    `${file}: model '${model.id}'${name} has no generator. The generator given with -m replaces that of the file's ` +
      'first model only; give this model a "generator" member, e.g. "generator": "random(edge_coverage(100))".',
  );
}
