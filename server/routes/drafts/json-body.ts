import type { FastifyInstance } from 'fastify';
import { apiError, type ApiError } from '../../api-error.js';

/** Largest draft request body (docs/api-drafts.md), whatever the server-wide limit for `load` is. */
export const DRAFT_BODY_LIMIT = 1024 * 1024;

/** `application/json` and the structured-syntax `application/<anything>+json`; parameters such as charset allowed. */
export const JSON_MEDIA_TYPE = /^application\/(?:[\w!#$%&'*.^`|~-]+\+)?json(?:;|$)/;

/**
 * Makes the draft routes read JSON bodies only (docs/api-drafts.md): every inherited parser is removed, so that
 * a body of any other content type answers 415, and JSON is read up to {@link DRAFT_BODY_LIMIT} (413 beyond).
 * An empty body counts as no body, whatever its type, so `POST /walker/drafts` works without one. Parsing is
 * Fastify's own, which refuses `__proto__` keys; a syntax error becomes 400 `invalid_json` with the parser's
 * description of the place.
 */
export function acceptJsonBodies(app: FastifyInstance): void {
  const secureParse = app.getDefaultJsonParser('error', 'ignore');
  app.removeAllContentTypeParsers();
  const options = { parseAs: 'string' as const, bodyLimit: DRAFT_BODY_LIMIT };
  app.addContentTypeParser(JSON_MEDIA_TYPE, options, (request, text: string, done) => {
    if (text.trim() === '') {
      done(null, undefined);
      return;
    }
    secureParse(request, text, (error, value) => {
      if (error) done(invalidJson(text, error), undefined);
      else done(null, value);
    });
  });
  // Any other type: fine when there is no body at all (clients put a Content-Type on bodyless DELETEs too).
  app.addContentTypeParser('*', (request, _payload, done) => {
    const { 'content-length': length, 'transfer-encoding': chunked } = request.headers;
    if (chunked === undefined && (length === undefined || length === '0')) done(null, undefined);
    else done(unsupportedMediaType(request.headers['content-type']), undefined);
  });
}

/** The 415 for a body that is not JSON. */
export function unsupportedMediaType(contentType: string | undefined): ApiError {
  return apiError(
    'unsupported_media_type',
    'Draft requests take JSON bodies only: send Content-Type application/json (or application/*+json), got ' +
      `${contentType === undefined || contentType === '' ? 'none' : `'${contentType}'`}.`,
  );
}

/** The 400 for a body that is not JSON, saying where (JSON.parse's own words) when it can. */
function invalidJson(text: string, error: Error): ApiError {
  let detail = error.message;
  try {
    JSON.parse(text);
  } catch (syntax) {
    detail = (syntax as Error).message;
  }
  return apiError('invalid_json', `The body is not valid JSON: ${detail}. Send one JSON object.`);
}
