import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { WalkerError } from '../core/errors.js';
import { apiError, errorBody, isApiError, walkerErrorAnswer, type ApiError } from './api-error.js';
import { MAX_MODEL_BYTES } from './resolve-options.js';
import { toError } from './thrown.js';

const JSON_TYPE = 'application/json; charset=utf-8';

/** The message of `internal`: what went wrong is in the log, never in the answer. */
export const INTERNAL_MESSAGE = 'The server failed to handle the request; it is logged.';

/** How a family of `{code, message}` routes words what only it knows. */
export interface ErrorAnswers {
  /**
   * The family's own words for an error Fastify raised (a schema violation, a media type it does not read);
   * undefined for the common ones.
   */
  readonly own?: (error: FastifyError, request: FastifyRequest) => ApiError | undefined;
  /** What a body over the limit says: the limit, and what to do instead; by default the route's limit alone. */
  readonly tooLarge?: (request: FastifyRequest) => ApiError;
}

/**
 * The one error handler of the `{code, message}` route families (drafts, sessions, view, login): an
 * {@link ApiError} as it is; a WalkerError as the engine's errors are answered (server/api-error.ts); the
 * family's own translation of Fastify's errors, then the common one (a body over the limit); anything else
 * is a bug, logged whole and answered 500 `internal`.
 */
export function apiErrorHandler(answers: ErrorAnswers = {}) {
  return function handleApiError(thrown: unknown, request: FastifyRequest, reply: FastifyReply): FastifyReply {
    const error = toError(thrown) as Error & Partial<FastifyError>;
    const answer = answerOf(error, request, answers);
    // A 503 is a refusal the service chose (a cap reached, a thread busy), answered with what to do: logging
    // each as an error would bury the failures in a log that a client retrying a full service fills.
    if (answer.status >= 500 && answer.status !== 503) request.log.error({ err: error }, 'request failed');
    return sendApiError(reply, answer);
  };
}

function answerOf(error: Error & Partial<FastifyError>, request: FastifyRequest, answers: ErrorAnswers): ApiError {
  if (isApiError(error)) return error;
  if (error instanceof WalkerError) return walkerErrorAnswer(error);
  const own = error.code === undefined ? undefined : answers.own?.(error as FastifyError, request);
  if (own !== undefined) return own;
  if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE') return answers.tooLarge?.(request) ?? payloadTooLarge(request, request.routeOptions.bodyLimit, '');
  return apiError('internal', INTERNAL_MESSAGE);
}

/**
 * Answers an API error as `{code, message, ...data}` with its status. A body left unread (413, 415) must not
 * be taken for the next request on a keep-alive connection, so that connection closes.
 */
export function sendApiError(reply: FastifyReply, error: ApiError): FastifyReply {
  if (error.status === 413 || error.status === 415) reply.header('connection', 'close');
  return reply.code(error.status).type(JSON_TYPE).send(JSON.stringify(errorBody(error)));
}

/** The not-found handler of a family: 404 `not_found`, naming the request and where its routes are listed. */
export function unknownRouteHandler(family: string, listedIn: string) {
  return function handleUnknownRoute(request: FastifyRequest, reply: FastifyReply): FastifyReply {
    const path = request.url.split('?')[0];
    return sendApiError(reply, apiError('not_found', `No ${family} route ${request.method} ${path}. The ${family} routes are listed in ${listedIn}.`));
  };
}

/**
 * The 413 of a body over `limit`, the one wording of every family: `load` names the model, any other route the
 * body. `remedy` follows the limit; by default the option that sets it, `--max-model-bytes`, and the ceiling
 * that option was lowered to when it was (server/resolve-options.ts).
 */
export function payloadTooLarge(request: FastifyRequest, limit: number, remedy = maxModelBytesRemedy(limit)): ApiError<'payload_too_large'> {
  const what = request.routeOptions.url?.endsWith('/load') === true ? 'The model' : 'The body';
  return apiError('payload_too_large', `${what} is larger than the limit of ${limit} bytes${remedy}.`);
}

function maxModelBytesRemedy(limit: number): string {
  return ` (--max-model-bytes${limit === MAX_MODEL_BYTES ? '; no more than the longest string Node.js can hold' : ''})`;
}
