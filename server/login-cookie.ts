import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { parse, serialize } from 'cookie';

/** The cookie the page's login sets (docs/editor.md, "A service with a token"). */
export const LOGIN_COOKIE = 'walker_login';

/**
 * The cookie's value for a token: a keyed digest of it, so that the cookie proves the token without carrying it,
 * and every process started with the same token (behind one load balancer, docs/scaling.md) accepts it.
 */
export function loginValue(token: string): string {
  return createHmac('sha256', token).update('walker login cookie v1').digest('base64url');
}

/**
 * `Set-Cookie` for a login: HttpOnly (no script reads it), SameSite=Strict (no request another site starts
 * carries it), for the whole service, for the browser session only. An empty value with Max-Age 0 logs out.
 */
export function loginCookie(value: string): string {
  return serialize(LOGIN_COOKIE, value, { httpOnly: true, sameSite: 'strict', path: '/', ...(value === '' ? { maxAge: 0 } : {}) });
}

/** Whether the request's `Cookie` header holds the login cookie of `expected` (a {@link loginValue}). */
export function hasLoginCookie(header: string | undefined, expected: Buffer): boolean {
  if (header === undefined) return false;
  const given = parse(header)[LOGIN_COOKIE];
  if (given === undefined) return false;
  const buffer = Buffer.from(given);
  return buffer.length === expected.length && timingSafeEqual(buffer, expected);
}

/** The token an `Authorization: Bearer <token>` header carries, the scheme in any case. */
export function bearerOf(header: string | undefined): string | undefined {
  return /^Bearer +(\S+) *$/i.exec(header ?? '')?.[1];
}

/** Fixed-length digests of a token, so that comparing two takes the same time whatever their length or content. */
export function tokenDigest(text: string): Buffer {
  return createHash('sha256').update(text).digest();
}

/** Whether a token given is the service's, compared in constant time. */
export function sameToken(given: string, token: string): boolean {
  return timingSafeEqual(tokenDigest(given), tokenDigest(token));
}
