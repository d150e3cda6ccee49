import type { FastifyError, FastifyRequest } from 'fastify';
import { apiError, type ApiError } from '../../api-error.js';
import { ID_RULE } from '../../drafts/ids.js';
import { apiErrorHandler, payloadTooLarge } from '../../error-handler.js';
import { overlongSegment } from '../../framework-errors.js';
import {
  bodyViolationError,
  pathIdError,
  queryViolationError,
  type SchemaViolation,
} from '../../drafts/schema-errors.js';
import type { BodyContract } from '../../drafts/schemas.js';
import { DRAFT_BODY_LIMIT, unsupportedMediaType } from './json-body.js';

/** What the draft routes keep in their Fastify route `config`. */
export interface DraftRouteConfig {
  /** The body's contract, for 422 messages. */
  readonly body?: BodyContract;
}

/**
 * The error handler of the draft routes: the one handler of the `{code, message}` families (docs/api-drafts.md),
 * with the drafts' own words for schema violations and for what Fastify refuses of a body or URL.
 */
export const handleDraftError = apiErrorHandler({
  own: draftAnswer,
  tooLarge: (request) =>
    payloadTooLarge(
      request,
      DRAFT_BODY_LIMIT,
      ' (1 MiB) for a draft request: build the model in several requests (one vertex or edge each), or load a whole model file with POST /walker/load',
    ),
});

/**
 * For errors Fastify raises before routing (a URL it cannot decode, an id longer than its router takes): the
 * same answers as the routes give, as refusals (server/framework-errors.ts).
 */
export function draftFrameworkRefusal(error: FastifyError, request: FastifyRequest): ApiError | undefined {
  return draftAnswer(error, request);
}

function draftAnswer(error: FastifyError, request: FastifyRequest): ApiError | undefined {
  const violations = error.validation as readonly SchemaViolation[] | undefined;
  if (violations?.length) {
    if (error.validationContext === 'querystring') return queryViolationError(violations[0]);
    if (error.validationContext === 'params') return pathIdError(violations[0]);
    const contract = (request.routeOptions.config as DraftRouteConfig).body;
    if (error.validationContext === 'body' && contract) return bodyViolationError(violations[0], contract);
  }
  return FASTIFY_ERRORS[error.code]?.(request);
}

const FASTIFY_ERRORS: Record<string, (request: FastifyRequest) => ApiError> = {
  FST_ERR_CTP_INVALID_MEDIA_TYPE: (request) => unsupportedMediaType(request.headers['content-type']),
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: () =>
    apiError('invalid_json', 'The body does not have the length its Content-Length header gives: send it whole.'),
  FST_ERR_CTP_INVALID_JSON_BODY: () => apiError('invalid_json', 'The body is not valid JSON: send one JSON object.'),
  FST_ERR_BAD_URL: () => apiError('invalid_query', 'The URL cannot be decoded: percent-encode ids and query values as UTF-8.'),
  FST_ERR_MAX_PARAM_LENGTH: (request) => overlongIdError(request.url),
};

/**
 * The 404 for a path segment longer than any id: Fastify's router refuses it before any route runs (its
 * `maxParamLength`, which the id rule's length follows). The segment after `vertices`, `edges` or `elements`
 * is an element id; any other is the draft id.
 */
function overlongIdError(url: string): ApiError {
  const { length, after } = overlongSegment(url);
  if (['vertices', 'edges', 'elements'].includes(after)) {
    return apiError('element_not_found', `No vertex or edge can have an id of ${length} characters: ${ID_RULE}. Check the id in the URL.`);
  }
  return apiError('draft_not_found', `No draft has an id of ${length} characters: use the draft_id that POST /walker/drafts answered.`);
}
