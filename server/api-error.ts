import { httpErrors, type HttpError } from '@fastify/sensible';
import { ModelError, ScriptError, WalkerError } from '../core/errors.js';
import { ModelIssuesError } from '../core/model/load.js';

/**
 * Every code the HTTP APIs answer with `{code, message}` (the drafts, the sessions, the view, the login, and
 * the refusals before any route runs), with its status and when it is answered. The one table of the server's
 * errors: a code keeps its meaning and status forever, and docs/errors.md lists every row
 * (test/docs/errors-doc.test.ts). `/walker` and `/graphwalker` answer the same errors in their legacy `nok`
 * body, with the same status.
 */
export const ApiErrors = {
  bad_url: { status: 400, when: 'the path cannot be percent-decoded as UTF-8' },
  bad_request: { status: 400, when: 'the bytes are not HTTP/1.1' },
  invalid_json: { status: 400, when: 'a draft request whose body is not JSON, or not as long as its Content-Length says' },
  invalid_query: { status: 400, when: 'a query parameter that is unknown, repeated or of the wrong kind; a draft URL that cannot be decoded' },
  invalid_login: { status: 400, when: '`POST /walker/login` with a body that is not `{"token": "..."}`' },
  unauthorized: { status: 401, when: 'the service has a token and the request carries none, or another' },
  host_not_allowed: { status: 403, when: 'the `Host` header names another host or port than the service answers to' },
  origin_not_allowed: { status: 403, when: 'a browser request from a page of another origin' },
  not_found: { status: 404, when: 'a path or method that no route of its family takes' },
  session_not_found: { status: 404, when: 'no session has the id' },
  draft_not_found: { status: 404, when: 'no draft has the id' },
  element_not_found: { status: 404, when: 'the draft has no vertex or edge of the id' },
  request_timeout: { status: 408, when: 'the headers or the whole request did not arrive in time' },
  revision_conflict: { status: 409, when: 'a draft or its revision changed since the client read it' },
  duplicate_element_id: { status: 409, when: 'an element id the model holds already' },
  referenced_element: { status: 409, when: 'an element that others name (an edge its vertex, the start element its model)' },
  session_expired: { status: 410, when: 'the session expired' },
  draft_expired: { status: 410, when: 'the draft expired' },
  session_closed: { status: 410, when: 'the session of an event stream was deleted or expired while the stream was open' },
  precondition_failed: { status: 412, when: '`If-Match` names no current ETag of the draft' },
  payload_too_large: { status: 413, when: 'a body over the limit of its route' },
  unsupported_media_type: { status: 415, when: 'a draft request whose body is not JSON' },
  invalid_session: { status: 422, when: 'a session body that names neither a model nor a draft, or whose members are wrong' },
  invalid_model: { status: 422, when: 'a model, or a draft request, that breaks the rules of a model file; a model that does not load' },
  unknown_vertex: { status: 422, when: 'an edge names a vertex the model does not have' },
  missing_target_vertex: { status: 422, when: 'an edge without a target vertex' },
  invalid_weight: { status: 422, when: 'a weight that is not a number from 0 to 1' },
  invalid_dependency: { status: 422, when: 'a dependency that is not a whole number from 0 to 100' },
  invalid_element: { status: 422, when: 'a vertex or edge request that breaks the rules of an element' },
  not_exportable: { status: 422, when: 'a valid draft that the export format cannot hold' },
  conversion_limit_reached: { status: 422, when: 'a large model conversion that ran past `--conversion-timeout` or needed more than `--conversion-memory`' },
  session_limit_reached: { status: 429, when: 'as many sessions as `--max-sessions` allows are open' },
  draft_limit_reached: { status: 429, when: 'as many drafts as `--max-drafts` allows are open' },
  model_limit_reached: { status: 429, when: 'a draft holds as many elements as `--max-draft-elements` allows' },
  memory_limit_reached: { status: 429, when: 'the drafts together would hold more than `--max-draft-memory` bytes' },
  headers_too_large: { status: 431, when: 'the request line and headers exceed the header limit' },
  internal: { status: 500, when: 'a bug of walker or of a plugin; it is logged' },
  draft_unavailable: { status: 500, when: 'an internal failure interrupted a change of the draft, which is no longer trusted' },
  service_unavailable: { status: 503, when: 'the service is shutting down' },
  too_many_streams: { status: 503, when: 'an event stream beyond `--max-view-streams` or `--max-view-streams-per-session`' },
  conversions_busy: { status: 503, when: 'a large model conversion while as many wait for the conversion thread as it takes at once' },
} as const satisfies Record<string, { readonly status: number; readonly when: string }>;

/** One of {@link ApiErrors}. */
export type ApiErrorCode = keyof typeof ApiErrors;

/** Where in a model file the problem sits, as data beside the message, when the error knows it. */
export interface ErrorPlace {
  readonly model_id?: string;
  readonly element_id?: string;
  readonly field?: string;
}

/**
 * A failed request: one of @fastify/sensible's HTTP errors (an `http-errors` instance, with `status`,
 * `statusCode` and `expose`) that also carries a code of {@link ApiErrors} and its data.
 */
export interface ApiError<C extends ApiErrorCode = ApiErrorCode> extends HttpError {
  readonly code: C;
  readonly data: ErrorPlace;
}

/**
 * The error of `code`, with its status from the table and a message that says what to fix. Thrown before
 * anything changed, so that a request that fails leaves the service as it was.
 */
export function apiError<C extends ApiErrorCode>(code: C, message: string, data: ErrorPlace = {}): ApiError<C> {
  return httpErrors.createError(ApiErrors[code].status, message, { code, data }) as ApiError<C>;
}

/** True for an error made by {@link apiError}. */
export function isApiError(value: unknown): value is ApiError {
  if (!(value instanceof httpErrors.HttpError)) return false;
  const { code, status } = value as Partial<ApiError>;
  return typeof code === 'string' && Object.hasOwn(ApiErrors, code) && ApiErrors[code].status === status;
}

/** The answer's body in the `{code, message}` APIs: the code, the message, then the data that is set. */
export function errorBody(error: ApiError): Record<string, unknown> {
  const body: Record<string, unknown> = { code: error.code, message: error.message };
  for (const [key, value] of Object.entries(error.data)) if (value !== undefined) body[key] = value;
  return body;
}

/**
 * The one mapping of the engine's errors to the `{code, message}` APIs: a WalkerError reaches them only from a
 * load (a session made from a model or a draft), a model the client must fix, so it is 422 `invalid_model`,
 * with the model and element it concerns. The execution dialects answer every WalkerError with 200 and `nok`
 * instead, as GraphWalker does (server/routes/execution/wire.ts).
 */
export function walkerErrorAnswer(error: WalkerError): ApiError<'invalid_model'> {
  return apiError('invalid_model', error.message, placeOf(error));
}

/** The model, element and field an engine error names, from what core records beside its message. */
export function placeOf(error: WalkerError): ErrorPlace {
  if (error instanceof ModelIssuesError) {
    // The message is the first error's, so the place is too.
    const first = error.issues.find((issue) => issue.severity === 'error');
    return { model_id: first?.modelId ?? undefined, element_id: first?.elementId ?? undefined, field: first?.field ?? undefined };
  }
  if (error instanceof ModelError) {
    const { model, elementId, field } = error.location;
    return { model_id: model, element_id: elementId, field };
  }
  if (error instanceof ScriptError) {
    const { modelId, elementId, field } = error.origin;
    return { model_id: modelId, element_id: elementId, field };
  }
  return {};
}
