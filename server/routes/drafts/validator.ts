import { Ajv } from 'ajv';
import type { FastifySchemaCompiler } from 'fastify';
import { lazyValidator, type Validate } from '../../lazy-compilers.js';

/**
 * The schema compiler of the draft routes. Fastify's default Ajv settings would coerce types (`"5"` becomes
 * `5`) and silently drop members that `additionalProperties: false` forbids; the draft API promises a 422 for
 * both (docs/api-drafts.md), so this scope uses an Ajv that only checks. `verbose` adds the offending value and
 * schema to each error, for messages that name the member and what it must be; `allErrors` stays off, as
 * Fastify advises, so a hostile body cannot make validation expensive. `unicodeRegExp: false` compiles
 * patterns without the `u` flag, so that the id pattern (ids.ts) measures lengths in UTF-16 code units, as
 * Fastify's router measures path parameters.
 */
export function draftSchemaCompiler(): FastifySchemaCompiler<object> {
  const ajv = new Ajv({
    allErrors: false,
    coerceTypes: false,
    removeAdditional: false,
    useDefaults: false,
    verbose: true,
    allowUnionTypes: true,
    unicodeRegExp: false,
  });
  return ({ schema, httpPart }): Validate => {
    // Compiled when a request first needs it, as every route's validator is (server/lazy-compilers.ts).
    const validate = lazyValidator(() => ajv.compile(schema) as unknown as Validate);
    // Fastify hands a missing body to the validator as null; a draft request without a body has no members.
    if (httpPart !== 'body') return validate;
    const validateBody = (data: unknown) => {
      if (data === null) return { value: {} };
      const valid = validate(data);
      validateBody.errors = validate.errors;
      return valid;
    };
    validateBody.errors = validate.errors;
    return validateBody;
  };
}
