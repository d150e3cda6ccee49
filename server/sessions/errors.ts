import { ApiError } from '../api-error.js';

/**
 * The error codes of the session lifecycle routes (docs/api-sessions.md) with their HTTP status, answered
 * in the draft API's body `{code, message}`. Inside a session the execution endpoints answer as `/walker`.
 */
export const SessionErrorCodes = {
  session_not_found: 404,
  /** A path under /walker/sessions that names no route. */
  not_found: 404,
  revision_conflict: 409,
  session_expired: 410,
  payload_too_large: 413,
  /** The body names neither a model nor a draft, or its members are wrong. */
  invalid_session: 422,
  /** The model (or the draft's revision) does not load; the message is the loader's. */
  invalid_model: 422,
  session_limit_reached: 429,
  internal: 500,
} as const;

export type SessionErrorCode = keyof typeof SessionErrorCodes;

/** A failed lifecycle request, thrown before anything changed. */
export class SessionError extends ApiError<SessionErrorCode> {
  override readonly name = 'SessionError';

  constructor(code: SessionErrorCode, message: string) {
    super(code, SessionErrorCodes[code], message);
  }
}
