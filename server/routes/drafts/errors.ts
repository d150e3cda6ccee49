import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { DraftError } from '../../drafts/errors.js';
import { ID_RULE } from '../../drafts/ids.js';
import { overlongSegment } from '../../framework-errors.js';
import {
  bodyViolationError,
  pathIdError,
  queryViolationError,
  type SchemaViolation,
} from '../../drafts/schema-errors.js';
import type { BodyContract } from '../../drafts/schemas.js';
import { unsupportedMediaType } from './json-body.js';

/** What the draft routes keep in their Fastify route `config`. */
export interface DraftRouteConfig {
  /** The body's contract, for 422 messages. */
  readonly body?: BodyContract;
}

/**
 * The error handler of the draft routes: every failure answers its real status with `{code, message}`
 * (docs/api-drafts.md), never the execution routes' `result` wrapper. Fastify's own errors (body too large, media
 * type, schema violations) are translated; anything unexpected is logged and answers 500 `internal`.
 */
export function handleDraftError(error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  const answer = toDraftError(error, request);
  if (answer.status >= 500) request.log.error({ err: error }, 'draft request failed');
  // A body left unread (413, 415) must not be taken for the next request on a keep-alive connection.
  if (answer.status === 413 || answer.status === 415) reply.header('connection', 'close');
  void reply.code(answer.status).type('application/json; charset=utf-8').send(answer.toJSON());
}

/** The 404 for a path under the prefix that has no route. */
export function handleUnknownRoute(request: FastifyRequest, reply: FastifyReply): void {
  const error = new DraftError(
    'not_found',
    `No draft route ${request.method} ${request.url.split('?')[0]}. The draft routes are listed in ` +
      'docs/api-drafts.md (e.g. POST /walker/drafts, POST /walker/drafts/{draft_id}/vertices).',
  );
  void reply.code(error.status).send(error.toJSON());
}

/**
 * For errors Fastify raises before routing (a URL it cannot decode, an id longer than its router takes): the
 * same `{code, message}` answers as the routes give, as refusals (server/framework-errors.ts).
 */
export function draftFrameworkRefusal(error: FastifyError, request: FastifyRequest): DraftError {
  return toDraftError(error, request);
}

function toDraftError(error: FastifyError, request: FastifyRequest): DraftError {
  if (error instanceof DraftError) return error;
  const violations = error.validation as readonly SchemaViolation[] | undefined;
  if (violations?.length) {
    if (error.validationContext === 'querystring') return queryViolationError(violations[0]);
    if (error.validationContext === 'params') return pathIdError(violations[0]);
    const contract = (request.routeOptions.config as DraftRouteConfig).body;
    if (error.validationContext === 'body' && contract) return bodyViolationError(violations[0], contract);
  }
  const translate = FASTIFY_ERRORS[error.code];
  if (translate) return translate(request);
  return new DraftError('internal', 'The server failed to handle the request; it is logged.');
}

const FASTIFY_ERRORS: Record<string, (request: FastifyRequest) => DraftError> = {
  FST_ERR_CTP_BODY_TOO_LARGE: () =>
    new DraftError(
      'payload_too_large',
      'The body is larger than 1 MiB, the limit of a draft request: build the model in several requests ' +
        '(one vertex or edge each), or load a whole model file with POST /walker/load.',
    ),
  FST_ERR_CTP_INVALID_MEDIA_TYPE: (request) => unsupportedMediaType(request.headers['content-type']),
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: () =>
    new DraftError('invalid_json', 'The body does not have the length its Content-Length header gives: send it whole.'),
  FST_ERR_CTP_INVALID_JSON_BODY: () =>
    new DraftError('invalid_json', 'The body is not valid JSON: send one JSON object.'),
  FST_ERR_BAD_URL: () =>
    new DraftError('invalid_query', 'The URL cannot be decoded: percent-encode ids and query values as UTF-8.'),
  FST_ERR_MAX_PARAM_LENGTH: (request) => overlongIdError(request.url),
};

/**
 * The 404 for a path segment longer than any id: Fastify's router refuses it before any route runs (its
 * `maxParamLength`, which the id rule's length follows). The segment after `vertices`, `edges` or `elements`
 * is an element id; any other is the draft id.
 */
function overlongIdError(url: string): DraftError {
  const { length, after } = overlongSegment(url);
  if (['vertices', 'edges', 'elements'].includes(after)) {
    return new DraftError(
      'element_not_found',
      `No vertex or edge can have an id of ${length} characters: ${ID_RULE}. Check the id in the URL.`,
    );
  }
  return new DraftError(
    'draft_not_found',
    `No draft has an id of ${length} characters: use the draft_id that POST /walker/drafts answered.`,
  );
}
