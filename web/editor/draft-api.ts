/** A draft API answer that is not a success: its status and the service's `{code, message}`. */
export class RequestFailed extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/** One request of the draft API: a change is one of these, sent with `If-Match` (docs/editor.md). */
export interface Change {
  readonly method: 'POST' | 'PATCH' | 'DELETE';
  /** Under the draft: '' (the draft itself), `/vertices`, `/edges/e1`, `/elements/v1?cascade=true`... */
  readonly path: string;
  readonly body?: object;
}

/**
 * Sends requests to the service the page came from, as JSON; relative URLs, so that a service behind a path
 * prefix works too. A login cookie (server/login-cookie.ts) goes with them as with every same-origin request.
 */
export async function request<T>(method: string, url: string, body?: unknown, headers: Record<string, string> = {}): Promise<T> {
  const init: RequestInit = { method, headers: { ...headers } };
  if (body !== undefined) {
    init.body = typeof body === 'string' ? body : JSON.stringify(body);
    (init.headers as Record<string, string>)['content-type'] = 'application/json';
  }
  const response = await fetch(url, init);
  const text = await response.text();
  if (!response.ok) {
    let code = String(response.status);
    let message = `${response.status} ${response.statusText}`;
    try {
      const parsed = JSON.parse(text) as { code?: string; message?: string };
      code = parsed.code ?? code;
      message = parsed.message ?? message;
    } catch {
      // Not the service's JSON: the status says enough.
    }
    throw new RequestFailed(response.status, code, message);
  }
  return (text === '' ? undefined : response.headers.get('content-type')?.includes('json') ? JSON.parse(text) : text) as T;
}

/** The URL of a draft, and of what is under it. */
export function draftUrl(draftId: string, path = ''): string {
  return `walker/drafts/${encodeURIComponent(draftId)}${path}`;
}

/** Sends a change to a draft at the revision the editor holds. */
export function sendChange<T>(draftId: string, revision: number, change: Change): Promise<T> {
  return request<T>(change.method, draftUrl(draftId, change.path), change.body, { 'if-match': `"${revision}"` });
}
