import { looksLikeToken } from './secrets.js';

/**
 * Which credential a request presents, decided from its headers alone (no lookup yet):
 *
 * - `Authorization: Bearer <token>` (API tokens from `warden operator token`, or a console session
 *   token the console forwards on its operator's behalf);
 * - on the console only, its HttpOnly session cookie.
 *
 * The FRD's `X-Observatory-Operator-Id` header names an operator but proves nothing: it is accepted only
 * beside a credential, and only when it names the operator that credential authenticates.
 */

/** The reasons of a 401, as answered in `{"status":"error","reason":…}`. */
export const AUTH_FAILURES = {
  missing_credentials: 'send Authorization: Bearer <token> (X-Observatory-Operator-Id alone proves nothing)',
  malformed_authorization: 'the Authorization header must be "Bearer <token>" with a Warden token',
  invalid_token: 'the token is unknown, revoked or expired',
  session_expired: 'the console login expired: log in again',
  operator_id_mismatch: 'X-Observatory-Operator-Id names another operator than the token authenticates',
} as const;
export type AuthFailure = keyof typeof AUTH_FAILURES;

export interface RequestHeaders {
  authorization?: string | string[];
  cookie?: string | string[];
  operatorId?: string | string[];
}

export type PresentedCredential =
  | { ok: true; token: string; via: 'bearer' | 'cookie' }
  | { ok: false; reason: AuthFailure };

const first = (value: string | string[] | undefined): string | undefined => (Array.isArray(value) ? value[0] : value);

/** Reads `name` from a Cookie header; undefined when absent. */
export function cookieValue(header: string | string[] | undefined, name: string): string | undefined {
  const text = first(header);
  if (!text) return undefined;
  for (const part of text.split(';')) {
    const at = part.indexOf('=');
    if (at < 0) continue;
    if (part.slice(0, at).trim() === name) return part.slice(at + 1).trim();
  }
  return undefined;
}

/** The credential of a request. A bearer header wins over the cookie; a malformed one is not ignored. */
export function presentedCredential(headers: RequestHeaders, options: { cookie?: string } = {}): PresentedCredential {
  const authorization = first(headers.authorization)?.trim();
  if (authorization) {
    const match = /^Bearer\s+(\S+)$/i.exec(authorization);
    if (!match || !looksLikeToken(match[1]!)) return { ok: false, reason: 'malformed_authorization' };
    return { ok: true, token: match[1]!, via: 'bearer' };
  }
  if (options.cookie) {
    const token = cookieValue(headers.cookie, options.cookie);
    if (token) return looksLikeToken(token) ? { ok: true, token, via: 'cookie' } : { ok: false, reason: 'invalid_token' };
  }
  return { ok: false, reason: 'missing_credentials' };
}

/**
 * The header rule: absent or blank (trimmed, FR-11.6), the operator is the authenticated one; otherwise
 * it must name exactly that operator.
 */
export function operatorHeaderProblem(authenticatedId: string, header: string | string[] | undefined): AuthFailure | null {
  const named = first(header)?.trim();
  if (!named) return null;
  return named === authenticatedId ? null : 'operator_id_mismatch';
}
