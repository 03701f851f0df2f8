import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Cross-site request forgery defence for cookie-authenticated requests (the console). Three layers:
 * the cookie is SameSite=Strict, so other sites' requests do not carry it; a state-changing request must
 * come from the console's own origin (Origin, or Referer when a browser omits Origin); and it must carry
 * the CSRF token of its login session, which only pages of that session know. The token is derived from
 * the session token with an HMAC, so nothing more is stored and another session's token never fits.
 */

export const CSRF_HEADER = 'x-csrf-token';
export const SAFE_METHODS: ReadonlySet<string> = new Set(['GET', 'HEAD', 'OPTIONS']);

export function csrfTokenFor(sessionToken: string): string {
  return createHmac('sha256', sessionToken).update('warden-console-csrf').digest('base64url');
}

export function csrfTokenMatches(sessionToken: string, presented: string | undefined): boolean {
  if (!presented) return false;
  const expected = Buffer.from(csrfTokenFor(sessionToken));
  const given = Buffer.from(presented);
  return expected.length === given.length && timingSafeEqual(expected, given);
}

/**
 * Whether a state-changing request comes from the site it is sent to. `host` is the request's Host
 * header; the origin is taken from Origin, else Referer. Neither present: refused (browsers send Origin
 * on every cross-site POST, so a request without either did not come from a page of another site; but
 * refusing it costs nothing for the console's own pages, which always send Origin).
 */
export function sameOrigin(headers: { origin?: string; referer?: string; host?: string }): boolean {
  if (!headers.host) return false;
  const source = headers.origin && headers.origin !== 'null' ? headers.origin : headers.referer;
  if (!source) return false;
  try {
    return new URL(source).host === headers.host;
  } catch {
    return false;
  }
}
