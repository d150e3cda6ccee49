import type { FastifyInstance } from 'fastify';
import fastifyPlugin from 'fastify-plugin';
import { apiError, type ApiError } from './api-error.js';
import type { Services } from './composition.js';
import { sendRefusal, type RouteFamily } from './route-family.js';

/** What a request answers once the service has begun to close (docs/api-execution.md, "Starting and stopping"). */
export const CLOSING_MESSAGE =
  'The service is shutting down and takes no more requests: send this one again once it has restarted, or to another instance.';

/**
 * A request refused because the service is closing: 503 `service_unavailable`, in the format of the route it
 * was sent to (`nok` under `/walker`), and its connection closes after the answer.
 */
export function serviceClosingError(): ApiError<'service_unavailable'> {
  return apiError('service_unavailable', CLOSING_MESSAGE);
}

/** What {@link closingPlugin} needs. */
export interface ClosingPluginOptions {
  readonly services: Services;
  /** The route families, whose {@link RouteFamily.refusalBody} words the refusal under their prefix. */
  readonly families: readonly RouteFamily[];
}

/**
 * Stops the app taking work once it begins to close ({@link Services.beginClosing}, which `startServer` calls
 * on a signal and a `preClose` hook calls for any other close). A request that arrives afterwards, on a
 * keep-alive connection or pipelined, is answered 503 before anything runs, instead of being served; every
 * answer sent afterwards, the refusals included, closes its connection, so that no client sends another
 * request on it. Registered first, so that a request refused here costs nothing else.
 */
export const closingPlugin = fastifyPlugin(
  async (app: FastifyInstance, { services, families }: ClosingPluginOptions) => {
    app.addHook('onRequest', (request, reply, done) => {
      if (!services.closing) return done();
      sendRefusal(reply, families, request.url, serviceClosingError());
    });
    app.addHook('onSend', (_request, reply, payload, done) => {
      if (services.closing) reply.header('connection', 'close');
      done(null, payload);
    });
    app.addHook('preClose', (done) => {
      services.beginClosing();
      done();
    });
  },
  { name: 'walker-closing', fastify: '5.x' },
);
