import type { FastifyReply, FastifyRequest } from 'fastify';
import { etagOf, unchangedSince, type Preconditions } from '../../drafts/preconditions.js';

/**
 * Revisions on the wire (docs/api-drafts.md, Revisions and ETags): the ETag of every answer that shows a
 * revision, the preconditions of a change, and the 304 of a read whose copy is still current. The rules
 * themselves are the draft domain's (server/drafts/preconditions.ts); this is only where HTTP carries them.
 */

/** What a change request makes itself conditional on: `expected_revision` and the `If-Match` header. */
export function preconditionsOf(request: FastifyRequest, expectedRevision: number | undefined): Preconditions {
  return { expectedRevision, ifMatch: request.headers['if-match'] };
}

/** Puts the revision the answer shows in its `ETag` header. */
export function withETag<R extends FastifyReply>(reply: R, revision: number): R {
  void reply.header('etag', etagOf(revision));
  return reply;
}

/**
 * For a read: sets the `ETag` and, when the request's `If-None-Match` names the current revision, answers 304
 * without a body and returns true, so that the handler skips building an answer nobody needs.
 */
export function answeredNotModified(request: FastifyRequest, reply: FastifyReply, revision: number): boolean {
  withETag(reply, revision);
  if (!unchangedSince(request.headers['if-none-match'], revision)) return false;
  void reply.code(304).send();
  return true;
}
