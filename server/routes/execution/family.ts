import type { FastifyInstance, FastifyReply, FastifyRequest, HTTPMethods } from 'fastify';
import type { RouteFamily } from '../../route-family.js';
import { andThen } from '../../../core/awaitable.js';
import type { Awaitable, SessionWalk } from '../../../core/session.js';
import { encodingOf, JSON_TYPE, type Dialect, type Encoding } from './dialect.js';
import { ENDPOINTS, type Endpoint, type EndpointName } from './endpoints.js';
import { documentEndpoint } from './openapi.js';
import { badUrlRefusal, createErrorHandler, handleNotFound, methodNotAllowed } from './wire.js';

/**
 * Methods that get a 405 on an endpoint path that does not take them. HEAD is among them: Fastify would run
 * a GET handler for it, and hasNext and getNext change the walk.
 */
const ANSWERED_METHODS: readonly HTTPMethods[] = ['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS'];

/**
 * The route family of one dialect: every endpoint of the table under the dialect's prefix, answered in its
 * encoding. Every request runs through the one session's queue, so requests are served strictly one at a
 * time, whichever dialect they come in.
 */
export function executionFamily(dialect: Dialect): RouteFamily {
  return {
    name: dialect.name,
    prefix: dialect.prefix,
    tag: { name: dialect.tag, description: dialect.tagDescription },
    plugin: async (scope) => {
      const { session } = scope.services;
      registerExecutionRoutes(scope, dialect, () => session);
    },
    frameworkRefusal: badUrlRefusal,
    // Refused before the session, like a 404: the legacy body, so that clients reading `result` see `nok`.
    refusalBody: (_code, message) => ({ result: 'nok', error: message }),
  };
}

/** What the execution endpoints run in: a walk behind a queue that keeps its requests in order. */
export interface QueuedWalk {
  run<T>(task: (walk: SessionWalk) => Awaitable<T>): Promise<T>;
}

/**
 * Registers every endpoint of the table in `scope`, answered in the dialect's encoding, on the walk
 * `sessionOf` finds for the request: the default session for `/walker` and `/graphwalker`, the one named in
 * the path under `/walker/sessions/{id}`. A lookup that throws is answered by the scope's error handler.
 */
export function registerExecutionRoutes(
  scope: FastifyInstance,
  dialect: Dialect,
  sessionOf: (request: FastifyRequest) => QueuedWalk,
  options: {
    /** Answers what the lookup throws (and a session's own refusals) before the wire's own error handler sees the rest. */
    readonly lookupErrors?: (error: unknown, reply: FastifyReply) => boolean;
  } = {},
): void {
  const { maxModelBytes } = scope.services.options;
  acceptAnyBodyAsText(scope, maxModelBytes);
  const handleError = createErrorHandler(maxModelBytes);
  const { lookupErrors } = options;
  scope.setErrorHandler(
    lookupErrors === undefined
      ? handleError
      : (error, request, reply) => (lookupErrors(error, reply) ? reply : handleError(error, request, reply)),
  );
  scope.setNotFoundHandler(handleNotFound);
  if (dialect.contentType !== JSON_TYPE) {
    // After serialisation, so that the compiled serialisers still write the bodies; failures included.
    scope.addHook('onSend', (_request, reply, payload, done) => {
      reply.header('content-type', dialect.contentType);
      done(null, payload);
    });
  }

  for (const endpoint of ENDPOINTS) {
    const encoding = encodingOf(dialect, endpoint);
    if (encoding === undefined) continue;
    const handler = handlerOf(endpoint, encoding, sessionOf);
    // One route per method, so that each is an OpenAPI operation with an id of its own.
    for (const [i, method] of endpoint.methods.entries()) {
      const operationId = `${dialect.operationPrefix}${dialect.operationPrefix === '' ? endpoint.name : capitalised(endpoint.name)}`;
      scope.route({
        method,
        url: endpoint.url,
        schema: {
          tags: [dialect.tag],
          operationId: i === 0 ? operationId : `${operationId}${capitalised(method.toLowerCase())}`,
          summary: endpoint.summary,
          description: encoding.description,
          ...(endpoint.querystring === undefined ? {} : { querystring: endpoint.querystring }),
          response: encoding.response,
        },
        config: { swaggerTransform: documentEndpoint(endpoint) },
        bodyLimit: maxModelBytes,
        exposeHeadRoute: false,
        onRequest: endpoint.url === '/load' ? acceptAnyContentType : undefined,
        handler,
      });
    }
    registerMethodNotAllowed(scope, endpoint);
  }
}

/**
 * Runs the endpoint in the session's queue and encodes what it yields; the hot path of every request, which
 * stays free of promises while the walk runs in this thread.
 */
function handlerOf(endpoint: Endpoint, encoding: Encoding<EndpointName>, sessionOf: (request: FastifyRequest) => QueuedWalk) {
  const { precondition } = encoding;
  const encode = (result: unknown) => encoding.encode(result as never);
  const runEndpoint = (walk: SessionWalk, input: unknown) => andThen(endpoint.run(walk, input as never), encode);
  return (request: FastifyRequest) => {
    const input = endpoint.input(request);
    return sessionOf(request).run((walk) =>
      precondition === undefined ? runEndpoint(walk, input) : andThen(precondition(walk), () => runEndpoint(walk, input)),
    );
  };
}

function capitalised(word: string): string {
  return `${word[0].toUpperCase()}${word.slice(1)}`;
}

/** Model bodies are read whatever the Content-Type says (AltWalker sends none, old clients text/plain). */
export function acceptAnyBodyAsText(scope: FastifyInstance, bodyLimit: number): void {
  scope.removeAllContentTypeParsers();
  scope.addContentTypeParser('*', { parseAs: 'string', bodyLimit }, (_request, body, done) => {
    done(null, body);
  });
}

/**
 * The catch-all parser only takes well-formed media types; a missing, empty or malformed Content-Type would
 * otherwise be refused with 415. The body is model text (JSON, GraphML) whatever the header claims.
 */
export function acceptAnyContentType(request: FastifyRequest, _reply: FastifyReply, done: () => void): void {
  request.headers['content-type'] = 'application/octet-stream';
  done();
}

/** The 405 answers of an endpoint: a catch-all, not an operation, so the OpenAPI document leaves it out. */
function registerMethodNotAllowed(scope: FastifyInstance, endpoint: Endpoint): void {
  const others = ANSWERED_METHODS.filter((m) => !(endpoint.methods as readonly string[]).includes(m));
  const handler = methodNotAllowed(endpoint.methods);
  scope.route({ method: others, url: endpoint.url, schema: { hide: true }, handler });
}
