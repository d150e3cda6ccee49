import { extname } from 'node:path';
import { ErrorCodes, ModelError } from '../errors.js';
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
  const format = formatOf(text, formats, path);
  return (format.read as NonNullable<ModelFormat['read']>)(text, path === undefined ? {} : { path });
}
