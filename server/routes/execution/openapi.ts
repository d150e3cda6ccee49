import type { SwaggerTransform } from '@fastify/swagger';
import type { FastifySchema } from 'fastify';
import { Type } from 'typebox';
import { ModelFileSchema } from './model-file-schema.js';
import type { Endpoint } from './endpoints.js';

/**
 * How the OpenAPI document shows an execution route, as a @fastify/swagger route transform.
 *
 * Why a transform and not the route's own schema: the route's `response[200]` is what Fastify compiles into
 * the serialiser of the success body, and hasNext/getNext are the hot loop. The nok body answered with the
 * same HTTP 200 could only sit beside it as an `anyOf`, which the serialiser would resolve by validating
 * every body against the branches; and it never reaches the serialiser anyway (wire.ts `sendNok` sends it
 * pre-serialised). So the alternatives the serialiser never sees are added here, to the document only:
 * - 200 is `ok` or `nok`;
 * - the 4xx nok answers of a route (400 for a path that cannot be decoded, 413 for a load body over the limit);
 * - the load body, which no body schema may describe, as load reads any content type as JSON text;
 * - the rest of the path of setData and fail as a named parameter instead of Fastify's `*`.
 * 404 (no such endpoint) and 405 (another method) belong to no operation: the tag's description names them.
 */
export function documentEndpoint(endpoint: Endpoint): SwaggerTransform {
  return ({ schema, url }) => {
    const response = (schema.response ?? {}) as Record<string, object>;
    const doc: FastifySchema = {
      ...schema,
      response: { 200: { description: OK_OR_NOK, oneOf: [response[200], NOK] }, ...failures(endpoint) },
    };
    const tail = TAIL_PARAMETERS[endpoint.url];
    if (tail) {
      doc.params = Type.Object({ [tail.name]: Type.Optional(Type.String({ description: tail.description })) });
      return { schema: doc, url: url.replace(/\*$/, `{${tail.name}}`) };
    }
    if (endpoint.url === '/load') {
      doc.body = { ...ModelFileSchema, description: LOAD_BODY };
      doc.consumes = ['application/json', 'application/graphml+xml', 'text/plain', '*/*'];
    }
    return { schema: doc, url };
  };
}

/** The legacy failure body (docs/api-execution.md, Wire format). */
const NOK = Type.Object({
  result: Type.Enum(['nok'], { type: 'string' }),
  error: Type.String({ description: 'What went wrong, for the user: the loader, machine or script message.' }),
});

const OK_OR_NOK =
  'result ok with the answer, or result nok with an error: an application failure (no model loaded, a bad ' +
  'model, the stop condition fulfilled, a dead end, a script error) answers 200, as GraphWalker does.';

const LOAD_BODY =
  'A GraphWalker JSON model file, or a yEd GraphML one, read as UTF-8 text whatever the Content-Type says ' +
  '(none, text/plain, application/json, application/graphml+xml, form encoding) and told apart by its content. ' +
  'JSON may have comments and a byte-order mark; unknown members are ignored. GraphML carries no generator: ' +
  'give one with the generator parameter.';

const TAIL_PARAMETERS: Readonly<Record<string, { name: string; description: string }>> = {
  '/setData/*': { name: 'script', description: 'JavaScript, percent-encoded whole; / ; and = may stay plain.' },
  '/fail/*': { name: 'reason', description: 'Why the model failed, percent-encoded.' },
};

function failures(endpoint: Endpoint): Record<number, object> {
  const nok = (description: string) => Type.Object(NOK.properties, { description });
  if (endpoint.url === '/load') return { 413: nok('The body is larger than --max-model-bytes.') };
  if (endpoint.url in TAIL_PARAMETERS) return { 400: nok('The path cannot be percent-decoded.') };
  return {};
}
