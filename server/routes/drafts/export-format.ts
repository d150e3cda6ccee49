import type { ModelFormat } from '../../../core/format.js';
import type { Registry } from '../../../core/registry.js';
import { apiError } from '../../api-error.js';

/**
 * The format an export is asked for: the `format` parameter, else the first media type of `Accept` that a
 * writing format other than JSON has (`application/graphml+xml`), else undefined: the draft API's JSON answer,
 * `{model, revision}`. An unknown or write-less format name is a 400 `invalid_query`.
 */
export function exportFormat(
  formats: Registry<ModelFormat>,
  name: string | undefined,
  accept: string | undefined,
): ModelFormat | undefined {
  const writable = formats.values().filter((f) => f.write !== undefined);
  if (name !== undefined) {
    const format = formats.find(name);
    if (format?.write === undefined) {
      const names = writable.map((f) => f.name).join(', ');
      throw apiError('invalid_query', `Query parameter 'format' must be one of ${names}, got '${name}'.`);
    }
    return format.name === 'json' ? undefined : format;
  }
  for (const type of mediaTypes(accept)) {
    if (type === 'application/json' || type === '*/*') return undefined;
    const format = writable.find((f) => f.mediaType === type && f.name !== 'json');
    if (format !== undefined) return format;
  }
  return undefined;
}

/** The media types of an Accept header, most wanted first (by `q`, then by order). */
function mediaTypes(accept: string | undefined): string[] {
  if (accept === undefined) return [];
  return accept
    .split(',')
    .map((part, index) => {
      const [type, ...parameters] = part.split(';').map((p) => p.trim().toLowerCase());
      const q = parameters.find((p) => p.startsWith('q='));
      return { type, index, weight: q === undefined ? 1 : Number(q.slice(2)) || 0 };
    })
    .filter((t) => t.type !== '' && t.weight > 0)
    .sort((a, b) => b.weight - a.weight || a.index - b.index)
    .map((t) => t.type);
}
