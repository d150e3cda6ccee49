import type { FastifyInstance, FastifyRequest, HTTPMethods } from 'fastify';
import type { RouteFamily } from '../../route-family.js';
import { ENDPOINTS, type Endpoint } from './endpoints.js';
import { documentEndpoint } from './openapi.js';
import { createErrorHandler, handleBadUrl, handleNotFound, methodNotAllowed } from './wire.js';

/**
 * Methods that get a 405 on an endpoint path that does not take them. HEAD is among them: Fastify would run
 * a GET handler for it, and hasNext and getNext change the walk.
 */
const ANSWERED_METHODS: readonly HTTPMethods[] = ['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS'];

/**
 * The execution endpoints under `/walker`, in GraphWalker's legacy wire format: `{"result":"ok", ...}` or
 * `{"result":"nok","error":"..."}` (docs/api-execution.md). Every request runs through the one session's
 * queue, so requests are served strictly one at a time.
 */
async function executionRoutes(scope: FastifyInstance): Promise<void> {
  const { session, options } = scope.services;
  const { maxModelBytes } = options;

  // load reads its body whatever the Content-Type says (AltWalker sends none, old clients text/plain).
  scope.removeAllContentTypeParsers();
  scope.addContentTypeParser('*', { parseAs: 'string', bodyLimit: maxModelBytes }, (_request, body, done) => {
    done(null, body);
  });
  scope.setErrorHandler(createErrorHandler(maxModelBytes));
  scope.setNotFoundHandler(handleNotFound);

  for (const endpoint of ENDPOINTS) {
    // One route per method, so that each is an OpenAPI operation with an id of its own.
    for (const [i, method] of endpoint.methods.entries()) {
      const { operationId, summary, description } = endpoint;
      scope.route({
        method,
        url: endpoint.url,
        schema: {
          tags: ['execution'],
          operationId: i === 0 ? operationId : `${operationId}${method[0]}${method.slice(1).toLowerCase()}`,
          summary,
          description,
          ...endpoint.schema,
        },
        config: { swaggerTransform: documentEndpoint(endpoint) },
        bodyLimit: maxModelBytes,
        exposeHeadRoute: false,
        onRequest: endpoint.url === '/load' ? acceptAnyContentType : undefined,
        handler: (request) => session.run((s) => endpoint.run(s, request)),
      });
    }
    registerMethodNotAllowed(scope, endpoint);
  }
}

/**
 * The catch-all parser only takes well-formed media types; a missing, empty or malformed Content-Type would
 * otherwise be refused with 415. The body is model text (JSON, GraphML) whatever the header claims.
 */
function acceptAnyContentType(request: FastifyRequest, _reply: unknown, done: () => void): void {
  request.headers['content-type'] = 'application/octet-stream';
  done();
}

/** The 405 answers of an endpoint: a catch-all, not an operation, so the OpenAPI document leaves it out. */
function registerMethodNotAllowed(scope: FastifyInstance, endpoint: Endpoint): void {
  const others = ANSWERED_METHODS.filter((m) => !(endpoint.methods as readonly string[]).includes(m));
  const handler = methodNotAllowed(endpoint.methods);
  scope.route({ method: others, url: endpoint.url, schema: { hide: true }, handler });
}

const family: RouteFamily = {
  name: 'execution',
  prefix: '/walker',
  plugin: executionRoutes,
  frameworkErrorHandler: handleBadUrl,
  // Refused before the session, like a 404: the legacy body, so that clients reading `result` see `nok`.
  refusalBody: (_code, message) => ({ result: 'nok', error: message }),
};

export default family;
