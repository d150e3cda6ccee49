import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fastifyPlugin from 'fastify-plugin';
import { toError } from './thrown.js';

/** The logger levels at which the request lines are written (no logger at all has no level). */
const REQUEST_LINE_LEVELS: readonly string[] = ['debug', 'trace'];

/**
 * What the service writes to Fastify's pino logger (`buildApp({ logger: { level, stream } })`, which
 * `walker online --log-level` sets):
 * - debug: one line per request, with its method, URL, status and response time. Fastify's own two request
 *   lines ("incoming request", "request completed", at info) are off (`disableRequestLogging` of buildApp's
 *   LogController),
 *   so info stays quiet however busy the service is;
 * - info: the address it listens on (`startServer`), and that it stopped (here, when an app that listened closes);
 * - warn: at start, an option that was lowered (`maxModelBytes`, by buildApp) and a bind open to the network
 *   without a token (by startServer);
 * - error: unexpected failures, whole, by the error handler of the scope they happen in.
 * Wrapped with fastify-plugin so that its hooks and error handler apply to the whole app, every route family
 * included, not to a scope of its own.
 */
export const loggingPlugin = fastifyPlugin(
  async (app: FastifyInstance) => {
    // The hook only when its lines are written: an onResponse hook is a cost on every step of the hot loop.
    if (REQUEST_LINE_LEVELS.includes(app.log.level)) app.addHook('onResponse', logRequest);
    // Only an app that listened stops: one closed because startup failed (a bad -m model) never ran.
    let listened = false;
    app.addHook('onListen', async () => void (listened = true));
    app.addHook('onClose', async (closed) => void (listened && closed.log.info('Stopped')));
    app.setErrorHandler(logUnexpected);
  },
  { name: 'walker-logging', fastify: '5.x' },
);

async function logRequest(request: FastifyRequest, reply: FastifyReply): Promise<void> {
  const { method, url } = request;
  const { statusCode } = reply;
  request.log.debug({ method, url, statusCode, responseTime: reply.elapsedTime }, `${method} ${url} ${statusCode}`);
}

/**
 * Errors outside the route families (which have handlers of their own), whatever value was thrown
 * (server/thrown.ts): `disableRequestLogging` also silences
 * Fastify's default handler, so a 5xx is logged here before that handler answers it as it always does.
 */
function logUnexpected(thrown: unknown, request: FastifyRequest, reply: FastifyReply): void {
  const error = toError(thrown) as FastifyError;
  if ((error.statusCode ?? 500) >= 500) request.log.error({ err: error }, 'unexpected error');
  reply.send(error);
}
