import { shorten } from '../../core/text.js';
import { ApiError } from '../api-error.js';

/**
 * The error codes of the draft-authoring API (docs/api-drafts.md) with their HTTP status. The table
 * is the contract: a code keeps its meaning and status forever, and docs/api-drafts.md lists every one.
 */
export const DraftErrorCodes = {
  invalid_json: 400,
  invalid_query: 400,
  draft_not_found: 404,
  element_not_found: 404,
  /** A path under /walker/drafts that names no route (or a method the route does not have). */
  not_found: 404,
  revision_conflict: 409,
  duplicate_element_id: 409,
  referenced_element: 409,
  draft_expired: 410,
  /** `If-Match` names no current ETag of the draft (docs/api-drafts.md, Revisions and ETags). */
  precondition_failed: 412,
  payload_too_large: 413,
  unsupported_media_type: 415,
  invalid_model: 422,
  unknown_vertex: 422,
  missing_target_vertex: 422,
  invalid_weight: 422,
  invalid_dependency: 422,
  invalid_element: 422,
  /** The draft is valid, but the export's format cannot hold it (GraphML and an id with a control character). */
  not_exportable: 422,
  draft_limit_reached: 429,
  model_limit_reached: 429,
  /** The drafts together would hold more than `--max-draft-memory` bytes. */
  memory_limit_reached: 429,
  /** An internal failure interrupted a change of this draft; it is no longer trusted and cannot be used. */
  draft_unavailable: 500,
  internal: 500,
} as const;

/** One of {@link DraftErrorCodes}. */
export type DraftErrorCode = keyof typeof DraftErrorCodes;

/**
 * A failed draft request: the code and status of the table above and a message that says what to fix. Thrown
 * by the draft domain before it changes anything, so a request that fails leaves the draft as it was.
 */
export class DraftError extends ApiError<DraftErrorCode> {
  override readonly name = 'DraftError';

  constructor(code: DraftErrorCode, message: string) {
    super(code, DraftErrorCodes[code], message);
  }
}

/** A value as it appears after "got" in messages: short and unambiguous. */
export function shown(value: unknown): string {
  if (value === undefined) return 'nothing';
  return shorten(JSON.stringify(value) ?? String(value), 60);
}
