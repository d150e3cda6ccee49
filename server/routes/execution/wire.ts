import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { WalkerError } from '../../../core/errors.js';
import { shorten } from '../../../core/text.js';
import { apiError, isApiError } from '../../api-error.js';
import { payloadTooLarge } from '../../error-handler.js';
import type { Refusal } from '../../route-family.js';
import { toError } from '../../thrown.js';
import { JSON_TYPE } from './dialect.js';

/**
 * The legacy failure body `{"result":"nok","error":"..."}` and the HTTP status of each kind of failure
 * (docs/api-execution.md). Application failures answer 200, as GraphWalker does; only what never reaches the
 * session — an unknown path, a wrong method, a malformed URL, a body over the limit — answers 4xx.
 */

/** Longest text of an unexpected error that goes into a response; the whole error goes to the log. */
const MAX_UNEXPECTED_MESSAGE = 200;

/**
 * Sends a nok body. It is serialised here, not by the route's response schema, whose 200 shape is the
 * success body and would drop `error`.
 */
export function sendNok(reply: FastifyReply, status: number, message: string): FastifyReply {
  return reply.code(status).type(JSON_TYPE).send(JSON.stringify({ result: 'nok', error: message }));
}

/**
 * The error handler of the execution scope. A WalkerError carries a message meant for the user and is passed
 * through; Fastify's own client errors (4xx) keep their status; anything else — any thrown value, Error or
 * not — is a bug of ours or of a plugin: logged whole, answered with a short message and never a stack trace.
 */
export function createErrorHandler(maxModelBytes: number) {
  return function handleError(thrown: unknown, request: FastifyRequest, reply: FastifyReply): FastifyReply {
    const error = toError(thrown) as Error & Partial<FastifyError>;
    if (error instanceof WalkerError) return sendNok(reply, 200, error.message);
    // Refused before the walk, with a status of its own: the service is closing (server/closing.ts).
    if (isApiError(error)) return sendNok(reply, error.status, error.message);
    if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
      // The body is left unread: it must not be taken for the next request on a keep-alive connection.
      reply.header('connection', 'close');
      const tooLarge = payloadTooLarge(request, maxModelBytes);
      return sendNok(reply, tooLarge.status, tooLarge.message);
    }
    const status = error.statusCode ?? 500;
    if (error.code?.startsWith('FST_') && status >= 400 && status < 500) return sendNok(reply, status, error.message);
    request.log.error({ err: error }, 'unexpected error in an execution endpoint');
    return sendNok(reply, 200, `Unexpected error: ${firstLine(error.message) || `${error.name} without a message`}`);
  };
}

/** Answers a path under `/walker` that is no execution endpoint (drafts have their own handler). */
export function handleNotFound(request: FastifyRequest, reply: FastifyReply): FastifyReply {
  return sendNok(reply, 404, `No such endpoint: ${request.method} ${pathOf(request.url)}`);
}

/** A handler for the methods an endpoint does not take: 405 with an `Allow` header naming the ones it does. */
export function methodNotAllowed(allowed: readonly string[]) {
  const allow = allowed.join(', ');
  return function handle(request: FastifyRequest, reply: FastifyReply): FastifyReply {
    reply.header('allow', allow);
    return sendNok(reply, 405, `Method ${request.method} is not allowed on ${pathOf(request.url)}; use ${allow}.`);
  };
}

/**
 * The refusal of a URL Fastify cannot decode (a bad percent-escape in a setData script, say) under `/walker`
 * and `/graphwalker`, which the family's refusal body answers as nok; other router errors are worded as
 * everywhere (server/framework-errors.ts).
 */
export function badUrlRefusal(error: FastifyError): Refusal | undefined {
  if (error.code !== 'FST_ERR_BAD_URL') return undefined;
  const message = `The URL cannot be decoded (${firstLine(error.message)}): percent-encode scripts and reasons, % as %25.`;
  return apiError('bad_url', message);
}

function firstLine(text: string): string {
  return shorten(text.split('\n', 1)[0], MAX_UNEXPECTED_MESSAGE);
}

function pathOf(url: string): string {
  const query = url.indexOf('?');
  return query < 0 ? url : url.slice(0, query);
}
