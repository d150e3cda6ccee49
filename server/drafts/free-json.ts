import { shorten } from '../../core/text.js';
import { apiError } from '../api-error.js';
import type { JsonObject } from './schemas.js';

/**
 * Limits of the one free-form JSON a draft stores, `properties` (of the model, a vertex or an edge): every other
 * member has a fixed shape. The body limit alone does not protect the server: 1 MiB of `[[[[...` is 500,000
 * levels, and everything that later walks the value recursively — the response serialiser, the export,
 * `POST /walker/load` — would overflow its stack on it after the change had been accepted.
 */

/**
 * Deepest nesting, counting `properties` itself as level 1. GraphWalker's own properties are flat key/value
 * pairs (layout, colours, descriptions: level 1); 32 leaves room for any structured metadata an editor keeps,
 * and is far below the thousands of levels at which V8's recursive JSON functions overflow.
 */
export const PROPERTIES_MAX_DEPTH = 32;

/**
 * Largest `properties` of one element or of the model, as JSON in UTF-8. The largest in GraphWalker's sample
 * models is 125 bytes; 64 KiB is 500 times that, and keeps any one element a small share of
 * `--max-draft-memory`, so that the memory limit is reached by many elements rather than by a few blobs.
 */
export const PROPERTIES_MAX_BYTES = 64 * 1024;

/**
 * Throws a 422 with `code` when `properties` is nested deeper than {@link PROPERTIES_MAX_DEPTH} or larger than
 * {@link PROPERTIES_MAX_BYTES}; `path` is how messages name it (`vertices[v1].properties`). The depth is checked
 * first, without recursing deeper than the limit, so that measuring the size cannot overflow.
 */
export function checkProperties(properties: JsonObject, path: string, code: 'invalid_element' | 'invalid_model'): void {
  const tooDeep = pathBelowLimit(properties, 1);
  if (tooDeep !== undefined) {
    throw apiError(
      code,
      `${path}${shownPath(tooDeep)}: nested deeper than ${PROPERTIES_MAX_DEPTH} levels. Keep properties to ` +
        `${PROPERTIES_MAX_DEPTH} levels of objects and lists, e.g. {"x": 120, "y": 40}.`,
    );
  }
  const bytes = Buffer.byteLength(JSON.stringify(properties));
  if (bytes > PROPERTIES_MAX_BYTES) {
    throw apiError(
      code,
      `${path} is ${bytes} bytes as JSON, more than the ${PROPERTIES_MAX_BYTES} that properties may hold: keep ` +
        'layout and short metadata there, and large data outside the model.',
    );
  }
}

/** The keys from `value` (at `depth`) down to the first object or list below the limit, if there is one. */
function pathBelowLimit(value: unknown, depth: number): string[] | undefined {
  if (value === null || typeof value !== 'object') return undefined;
  if (depth > PROPERTIES_MAX_DEPTH) return [];
  for (const key of Object.keys(value)) {
    const below = pathBelowLimit((value as Record<string, unknown>)[key], depth + 1);
    if (below !== undefined) {
      below.unshift(Array.isArray(value) ? `[${key}]` : memberStep(key));
      return below;
    }
  }
  return undefined;
}

/** How many steps of a path messages show before `…`: enough to recognise the structure, one line long. */
const STEPS_SHOWN = 6;

function shownPath(steps: readonly string[]): string {
  return steps.length <= STEPS_SHOWN ? steps.join('') : `${steps.slice(0, STEPS_SHOWN).join('')}…`;
}

/** `.name` for a plain name, `["a b"]` for any other key. */
function memberStep(key: string): string {
  return /^[A-Za-z_$][\w$]{0,29}$/.test(key) ? `.${key}` : `[${JSON.stringify(shorten(key, 30))}]`;
}
