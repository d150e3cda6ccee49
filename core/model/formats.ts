import { extname } from 'node:path';
import { ErrorCodes, ModelError, WalkerError } from '../errors.js';
import type { ModelFormat } from '../format.js';
import type { Registry } from '../registry.js';
import { jsonFormat } from './json-format.js';

/** The registered model formats, or none but JSON when a caller has no registries. */
export type ModelFormats = Pick<Registry<ModelFormat>, 'values'>;

/**
 * The format that reads a text: the one whose extension the file name has, else the first registered format
 * whose `detect` recognises the content, else JSON (whose syntax error then says what is wrong). The extension
 * decides first, as for GraphWalker, so that a broken `.graphml` file is reported as broken GraphML.
 */
export function formatOf(text: string, formats: ModelFormats | undefined, path?: string): ModelFormat {
  const all = formats?.values() ?? [jsonFormat];
  const extension = path === undefined ? '' : extname(path).toLowerCase();
  const named = extension === '' ? undefined : all.find((f) => f.extensions.includes(extension));
  if (named !== undefined) {
    if (named.read !== undefined) return named;
    const readable = all.filter((f) => f.read !== undefined).map((f) => f.name).join(', ');
    throw new ModelError(
      `walker writes the ${named.name} format but cannot read it; give a model file in one of: ${readable}`,
      { source: path },
      ErrorCodes.MODEL_SYNTAX,
    );
  }
  return all.find((f) => f.read !== undefined && f.detect?.(text) === true) ?? jsonFormat;
}

/** The model file a text holds, read by its format (see {@link formatOf}); not yet checked or normalised. */
export function readModelValue(text: string, formats: ModelFormats | undefined, path?: string): unknown {
  return readWith(formatOf(text, formats, path), text, path);
}

/**
 * Reads `text` with `format`, which {@link formatOf} chose. A format says what is wrong with a `WalkerError`
 * (a `ModelError`, docs/plugins.md); any other error it throws is taken for the same, named with the format
 * and the file, rather than passed on as a failure of walker's own: a plugin's format that throws a plain
 * `Error` on bad input otherwise made `check` exit with an unexpected error and a load answer 500.
 */
export function readWith(format: ModelFormat, text: string, path?: string): unknown {
  try {
    return (format.read as NonNullable<ModelFormat['read']>)(text, path === undefined ? {} : { path });
  } catch (error) {
    if (error instanceof WalkerError) throw error;
    const message = error instanceof Error ? error.message : String(error);
    throw new ModelError(`the ${format.name} format could not read it: ${message}`, { source: path }, ErrorCodes.MODEL_SYNTAX);
  }
}
