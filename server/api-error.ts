/**
 * A failed request of an API that answers real status codes with `{code, message}` (the drafts, the session
 * lifecycle): a stable code from the API's table, its status, and a message that says what to fix.
 */
export class ApiError<C extends string = string> extends Error {
  constructor(
    readonly code: C,
    readonly status: number,
    message: string,
  ) {
    super(message);
  }

  /** The response body: `{code, message}`. */
  toJSON(): { code: C; message: string } {
    return { code: this.code, message: this.message };
  }
}
