import { shorten } from '../../core/text.js';
import type { ApiErrorCode } from '../api-error.js';

/**
 * The codes the draft-authoring API answers (docs/api-drafts.md), from the one table of the server's errors
 * (server/api-error.ts), which gives their status: what the OpenAPI document lists under each status of a
 * draft route, and what docs/api-drafts.md lists (test/server/drafts/docs.test.ts).
 */
export const DRAFT_ERROR_CODES = [
  'invalid_json',
  'invalid_query',
  'draft_not_found',
  'element_not_found',
  'not_found',
  'revision_conflict',
  'duplicate_element_id',
  'referenced_element',
  'draft_expired',
  'precondition_failed',
  'payload_too_large',
  'unsupported_media_type',
  'invalid_model',
  'unknown_vertex',
  'missing_target_vertex',
  'invalid_weight',
  'invalid_dependency',
  'invalid_element',
  'not_exportable',
  'conversion_limit_reached',
  'draft_limit_reached',
  'model_limit_reached',
  'memory_limit_reached',
  'draft_unavailable',
  'internal',
  'service_unavailable',
  'conversions_busy',
] as const satisfies readonly ApiErrorCode[];

/** A value as it appears after "got" in messages: short and unambiguous. */
export function shown(value: unknown): string {
  if (value === undefined) return 'nothing';
  return shorten(JSON.stringify(value) ?? String(value), 60);
}
