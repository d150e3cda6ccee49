import { readFile } from 'node:fs/promises';
import { ErrorCodes, ModelError, type ErrorCode, type ErrorSubject } from '../errors.js';
import type { Graph } from './graph.js';
import { inspectModelFile, isError, ModelIssueCodes, type ModelCheckOptions, type ModelIssue } from './issues.js';
import { blankComments, findJsonSyntaxError } from './json-syntax.js';
import { readModelValue, type ModelFormats } from './formats.js';
import { decodeModelBytes } from './text-encoding.js';
import type { ModelFileJson } from './types.js';

/** A model file that passed every check: its normalised form, the graph the machine walks, and any warnings. */
export interface LoadedModelFile {
  file: ModelFileJson;
  graph: Graph;
  /** Issues of severity `warning` (e.g. unreachable elements); they do not stop a walk. */
  warnings: ModelIssue[];
  /** The file it was read from, for messages about it found later (the scripts, when a walk is opened). */
  source?: string;
}

/**
 * A model file with errors. The message is that of the first error (and how many more there are); `issues`
 * holds every issue, warnings included, for callers that show them all (`walker check`, draft validation).
 */
export class ModelIssuesError extends ModelError {
  constructor(
    readonly issues: readonly ModelIssue[],
    source?: string,
  ) {
    super(summarise(issues), source === undefined ? {} : { source }, errorCodeOf(issues), subjectOf(issues));
  }
}

/**
 * Parses model JSON as leniently as GraphWalker's Gson reader: a UTF-8 byte-order mark and `//` or `/* *\/`
 * comments are allowed (editors and licence headers put them there). Throws a {@link ModelError} with code
 * `MODEL_SYNTAX` whose message gives line, column and what is wrong.
 */
export function parseModelText(text: string, source?: string): unknown {
  // A space keeps every offset, so the positions in messages match the file.
  const clean = text.charCodeAt(0) === 0xfeff ? ` ${text.slice(1)}` : text;
  try {
    return JSON.parse(clean);
  } catch {
    // Comments are rare; only text that fails plain JSON pays for looking for them.
  }
  const uncommented = blankComments(clean);
  if (uncommented !== undefined && uncommented !== clean) {
    try {
      return JSON.parse(uncommented);
    } catch {
      // Fall through to the precise report below.
    }
  }
  throw syntaxError(clean, source);
}

/**
 * Loads a model file: parses it when given text (see {@link parseModelText}), checks and normalises it (see
 * `collectModelIssues`) and builds its {@link Graph}. Throws a {@link ModelIssuesError} when there is an error.
 */
export function loadModelFile(input: unknown, options: ModelCheckOptions = {}): LoadedModelFile {
  const value = typeof input === 'string' ? parseModelText(input, options.source) : input;
  const { file, graph, issues } = inspectModelFile(value, options);
  if (!file || !graph) throw new ModelIssuesError(issues, options.source);
  const loaded: LoadedModelFile = { file, graph, warnings: issues };
  if (options.source !== undefined) loaded.source = options.source;
  return loaded;
}

/** How to read a model text: the check options, and the formats it may be in (JSON only when none are given). */
export interface ReadModelOptions extends ModelCheckOptions {
  /** The registered formats (`registries.formats`); the text's format is chosen as `formatOf` says. */
  readonly formats?: ModelFormats;
}

/**
 * Loads model text in any registered format: reads it with its format (see `formatOf`), then checks and
 * normalises it like {@link loadModelFile}. `source` names the file in messages and chooses the format by its
 * extension.
 */
export function loadModelText(text: string, options: ReadModelOptions = {}): LoadedModelFile {
  const { formats, ...check } = options;
  return loadModelFile(readModelValue(text, formats, options.source), check);
}

/** Reads and loads a model file in any registered format; the path becomes the `source` named in messages. */
export async function readModelFile(path: string, options: Omit<ReadModelOptions, 'source'> = {}): Promise<LoadedModelFile> {
  return loadModelText(await readModelText(path), { ...options, source: path });
}

/**
 * The text of a model file, in the encoding it declares (text-encoding.ts); a file that cannot be read is a
 * FILE error naming the path and why.
 */
export async function readModelText(path: string): Promise<string> {
  let bytes: Uint8Array;
  try {
    bytes = await readFile(path);
  } catch (error) {
    const problem = `Could not read the model file '${path}': ${readFailure(error)}`;
    throw new ModelError(problem, {}, ErrorCodes.FILE);
  }
  return decodeModelBytes(bytes, path);
}

function syntaxError(text: string, source: string | undefined): ModelError {
  const found = findJsonSyntaxError(text);
  const location = source === undefined ? {} : { source };
  if (!found) return new ModelError('The model file is not valid JSON', location, ErrorCodes.MODEL_SYNTAX);
  const problem = `The model file is not valid JSON: line ${found.line}, column ${found.column}: ${found.problem}`;
  return new ModelError(problem, location, ErrorCodes.MODEL_SYNTAX);
}

/** A readable reason for a failed read, without Node's `ENOENT: ..., open '<path>'` repetition. */
export function readFailure(error: unknown): string {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (code === 'ENOENT') return 'no such file';
  if (code === 'EACCES' || code === 'EPERM') return 'permission denied';
  if (code === 'EISDIR') return 'it is a directory';
  return error instanceof Error ? error.message : String(error);
}

/** The model and element of the first error, which the message leads with. */
function subjectOf(issues: readonly ModelIssue[]): ErrorSubject {
  const first = issues.find(isError);
  return { modelId: first?.modelId ?? undefined, elementId: first?.elementId ?? undefined };
}

function summarise(issues: readonly ModelIssue[]): string {
  const errors = issues.filter(isError);
  const first = errors[0]?.message ?? 'The model file is not valid';
  const more = errors.length - 1;
  return more > 0 ? `${first} (and ${more} more error${more === 1 ? '' : 's'})` : first;
}

/** Syntax-like and start problems keep the error codes callers already branch on. */
function errorCodeOf(issues: readonly ModelIssue[]): ErrorCode {
  const first = issues.find(isError)?.code;
  if (first === ModelIssueCodes.NOT_A_MODEL_FILE) return ErrorCodes.MODEL_SYNTAX;
  // A file without models has no start either, the code such a load always answered.
  if (first === ModelIssueCodes.NO_START_ELEMENT || first === ModelIssueCodes.NO_MODELS) return ErrorCodes.NO_START;
  return ErrorCodes.MODEL_INVALID;
}
