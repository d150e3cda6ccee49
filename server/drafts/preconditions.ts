import { shorten } from '../../core/text.js';
import { apiError } from '../api-error.js';

/**
 * Revisions as HTTP sees them. A draft's revision is the strong ETag of the draft and of everything under it
 * (`"8"`), so that a client can make a change conditional either way — with `expected_revision` (a body member, or
 * a query parameter of element deletion) or with `If-Match` — and a reader can revalidate with `If-None-Match`.
 * One rule for both ways: a change applies only at the revision the client names, and a mismatch changes nothing.
 */

/** What a change may be conditional on. */
export interface Preconditions {
  /** `expected_revision` of the body or the query. */
  readonly expectedRevision?: number;
  /** The `If-Match` header as sent. */
  readonly ifMatch?: string;
}

/** The ETag of a revision. */
export function etagOf(revision: number): string {
  return `"${revision}"`;
}

/**
 * Throws unless the draft is at the revision the request names: 412 `precondition_failed` for `If-Match`
 * (checked first, as HTTP preconditions come before the request's own checks), 409 `revision_conflict` for
 * `expected_revision`. When both are sent, both must hold.
 */
export function checkPreconditions(draftId: string, revision: number, pre: Preconditions | undefined): void {
  if (pre?.ifMatch !== undefined && !ifMatchHolds(pre.ifMatch, revision)) {
    throw apiError(
      'precondition_failed',
      `The draft is at revision ${revision} (ETag ${etagOf(revision)}), which If-Match ` +
        `${shownIfMatch(pre.ifMatch)} does not name: read the draft again (GET /walker/drafts/${draftId}) and ` +
        `retry with If-Match: ${etagOf(revision)}.`,
    );
  }
  const expected = pre?.expectedRevision;
  if (expected === undefined || expected === revision) return;
  throw apiError(
    'revision_conflict',
    `The draft is at revision ${revision}, but the request expects revision ${expected}: ` +
      `read the draft again (GET /walker/drafts/${draftId}) and retry with expected_revision ${revision}.`,
  );
}

/**
 * True when a GET may answer 304: `If-None-Match` is `*` or names the revision, compared weakly as HTTP asks
 * (`W/"8"` names revision 8 too). A value that does not parse is ignored, and the full answer goes out.
 */
export function unchangedSince(ifNoneMatch: string | undefined, revision: number): boolean {
  if (ifNoneMatch === undefined) return false;
  const tags = parseEntityTags(ifNoneMatch);
  return tags === '*' || (tags?.some((t) => t.opaque === etagOf(revision)) ?? false);
}

/** `If-Match` compares strongly: a weak tag never matches, and a list that does not parse matches nothing. */
function ifMatchHolds(ifMatch: string, revision: number): boolean {
  const tags = parseEntityTags(ifMatch);
  return tags === '*' || (tags?.some((t) => !t.weak && t.opaque === etagOf(revision)) ?? false);
}

/** The If-Match value as messages show it, with why it cannot match when that is not plain. */
function shownIfMatch(ifMatch: string): string {
  const value = shorten(ifMatch, 60);
  const tags = parseEntityTags(ifMatch);
  if (tags === undefined) return `'${value}' (not a list of quoted ETags such as "8")`;
  if (tags !== '*' && tags.every((t) => t.weak)) return `'${value}' (weak ETags never match If-Match)`;
  return `'${value}'`;
}

/** An entity tag: `opaque` keeps its quotes, as comparisons use them. */
interface EntityTag {
  readonly weak: boolean;
  readonly opaque: string;
}

/** One `[W/]"..."` of a list (RFC 9110 §8.8.3: any visible character but the double quote), and its comma. */
const TAG = String.raw`\s*(W/)?("[\x21\x23-\x7e\x80-\xff]*")\s*(?:,|$)`;

/**
 * `*` or a comma-separated list of entity tags (RFC 9110 §13.1.1); undefined when the value is neither. The
 * grammar is one regular expression, so it is parsed here rather than with a package: the maintained header
 * packages treat the list as plain comma-separated strings, which splits a tag that contains a comma.
 */
function parseEntityTags(value: string): '*' | EntityTag[] | undefined {
  if (value.trim() === '*') return '*';
  const tags: EntityTag[] = [];
  const tag = new RegExp(TAG, 'y');
  while (tag.lastIndex < value.length) {
    const match = tag.exec(value);
    if (match === null) return undefined;
    tags.push({ weak: match[1] !== undefined, opaque: match[2] });
  }
  return tags.length > 0 ? tags : undefined;
}
