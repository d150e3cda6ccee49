import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { shorten } from '../core/text.js';
import { apiError } from './api-error.js';
import { INTERNAL_MESSAGE } from './error-handler.js';
import { familyOfUrl, sendRefusal, type Refusal, type RouteFamily } from './route-family.js';

/** Longest piece of a refused URL a message quotes. */
const MAX_QUOTED_URL = 200;

/** Fastify's `maxParamLength`, its default: the longest path parameter its router takes. */
const ROUTER_PARAM_LENGTH = 100;

/**
 * Fastify answers a URL it cannot decode, or a path parameter longer than its router takes ({@link
 * ROUTER_PARAM_LENGTH}), before any route or hook runs, so no family's error handler sees it. Each is answered here as a
 * refusal in the format of the family whose prefix is the longest that matches the URL ({@link sendRefusal}):
 * worded by the family when it has something better to say ({@link RouteFamily.frameworkRefusal}), else by
 * {@link frameworkRefusal}.
 */
export function frameworkErrorsOf(families: readonly RouteFamily[]) {
  return function frameworkErrors(error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
    const refusal = familyOfUrl(families, request.url)?.frameworkRefusal?.(error, request) ?? frameworkRefusal(error, request.url);
    if (refusal.status >= 500) request.log.error({ err: error }, 'the router failed on a request');
    sendRefusal(reply, families, request.url, refusal);
  };
}

/** The refusal of an error Fastify raises before routing, in words that say what to fix (docs/errors.md). */
export function frameworkRefusal(error: FastifyError, url: string): Refusal {
  if (error.code === 'FST_ERR_BAD_URL') {
    const message = `The URL '${shorten(url, MAX_QUOTED_URL)}' cannot be decoded: percent-encode ids, scripts and reasons as UTF-8, and % itself as %25.`;
    return apiError('bad_url', message);
  }
  if (error.code === 'FST_ERR_MAX_PARAM_LENGTH') {
    const { length, after } = overlongSegment(url);
    const message = `No route takes a path segment of ${length} characters (after '${shorten(after, 40)}'): check the id in the URL.`;
    return apiError('not_found', message);
  }
  return apiError('internal', INTERNAL_MESSAGE);
}

/**
 * The first segment of the path of `url` that is longer than the router takes, by its length after percent-decoding (as
 * the router measures it), and the segment before it, which says what kind of id it stands for.
 */
export function overlongSegment(url: string): { readonly length: number; readonly after: string } {
  const segments = url.split('?')[0].split('/').map(decoded);
  const index = segments.findIndex((segment) => segment.length > ROUTER_PARAM_LENGTH);
  return { length: segments[index]?.length ?? 0, after: segments[index - 1] ?? '' };
}

function decoded(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
