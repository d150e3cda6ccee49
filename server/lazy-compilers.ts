import { AjvCompiler } from '@fastify/ajv-compiler';
import { SerializerSelector } from '@fastify/fast-json-stringify-compiler';
import type { FastifySchemaValidationError, FastifyServerOptions } from 'fastify';
import type { FastifyValidationResult } from 'fastify/types/schema.js';

/**
 * Fastify's own schema compilers (the ones it uses when given none), each made to compile a route's validator or
 * serializer when a request first needs it instead of when the route is registered. A service registers every
 * route of every family and answers few of them, and compiling them all was a large part of what starting it
 * cost, which every `walker online` and every test that starts one pays (docs/benchmarks.md, "Starting the
 * service"). What a route checks and how it answers stay exactly Fastify's.
 */
export function lazyCompilers(): NonNullable<FastifyServerOptions['schemaController']>['compilersFactory'] {
  const validators = AjvCompiler();
  const serializers = SerializerSelector();
  return {
    buildValidator: (externalSchemas, options) => {
      const compile = validators(externalSchemas, options);
      // Typed as Ajv's own functions, which Fastify only calls and reads `errors` and `schemaEnv` of.
      return ((route: Parameters<typeof compile>[0]) => lazyValidator(() => compile(route) as Validate)) as unknown as typeof compile;
    },
    buildSerializer: (externalSchemas, options) => {
      const compile = serializers(externalSchemas, options);
      return (route) => {
        let serialize: ((doc: unknown) => string) | undefined;
        return (doc: unknown) => (serialize ??= compile(route))(doc);
      };
    },
  };
}

/** What Fastify calls a compiled validator with: the value, and where it sits so that Ajv may replace it. */
export type Validate = ((data: unknown, where?: unknown) => ReturnType<FastifyValidationResult>) & { errors?: FastifySchemaValidationError[] | null; schemaEnv?: unknown };

/**
 * A validator compiled on its first call. Fastify reads `schemaEnv` to decide whether to tell Ajv where the value
 * sits (so that type coercion can replace it), and `errors` after a failed call: both come from the compiled one.
 */
export function lazyValidator(build: () => Validate): Validate {
  let compiled: Validate | undefined;
  const compiledOnce = (): Validate => (compiled ??= build());
  const validate: Validate = (data, where) => {
    const own = compiledOnce();
    const result = where === undefined ? own(data) : own(data, where);
    validate.errors = own.errors;
    return result;
  };
  validate.errors = null;
  Object.defineProperty(validate, 'schemaEnv', { get: () => compiledOnce().schemaEnv });
  return validate;
}
