import { Type } from 'typebox';

/**
 * The one rule for the ids a draft holds (model, vertex and edge ids): every id the API accepts can be put in a
 * URL and addressed afterwards. The request schemas (schemas.ts) and the path parameters (the element routes)
 * use {@link Id}, built from the constants below, and the error messages quote {@link ID_RULE}.
 */

/**
 * Longest id, in UTF-16 code units (JavaScript's `length`). Fastify's router refuses a path parameter longer
 * than its `maxParamLength` (100 by default), measured the same way after percent-decoding, before any route
 * runs; an id longer than that could be created but never addressed. The draft tests address an id of exactly
 * this length, so a router limit lowered below it fails them.
 */
export const ID_MAX_LENGTH = 100;

/**
 * The whole rule as a JSON Schema pattern, for the draft scope's Ajv, which compiles patterns without the `u`
 * flag (validator.ts) so that `[\s\S]` is one UTF-16 code unit: 1 to {@link ID_MAX_LENGTH} of them; not `.` or
 * `..`, which HTTP clients remove from a path as dot segments (percent-encoded too); and no unpaired surrogate,
 * which no URL can carry (percent-encoding needs well-formed UTF-16). A validator that does use the `u` flag
 * reads the same rule, but counts an emoji as one.
 */
export const ID_PATTERN =
  String.raw`^(?=[\s\S]{1,${ID_MAX_LENGTH}}$)(?!\.\.?$)(?:[^\uD800-\uDFFF]|[\uD800-\uDBFF][\uDC00-\uDFFF])*$`;

/** The rule in words, for messages and the docs. */
export const ID_RULE =
  `ids are 1 to ${ID_MAX_LENGTH} characters (as JavaScript counts them: an emoji is 2), other than '.' and '..', ` +
  'without unpaired surrogates';

/** The schema of an id in a body or a path; its description ends with the rule. */
export function Id(description: string) {
  return Type.String({
    minLength: 1,
    maxLength: ID_MAX_LENGTH,
    pattern: ID_PATTERN,
    description: `${description} The ${ID_RULE}.`,
  });
}
