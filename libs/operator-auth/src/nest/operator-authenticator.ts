import type { IncomingHttpHeaders } from 'node:http';
import { Inject, Injectable } from '@nestjs/common';
import { OPERATOR_ID_HEADER } from '@warden/contracts';
import { CSRF_HEADER, csrfTokenMatches, SAFE_METHODS, sameOrigin } from '../csrf.js';
import { AUTH_FAILURES, operatorHeaderProblem, presentedCredential, type AuthFailure } from '../credentials.js';
import { OperatorStore, type Operator } from '../operator-store.js';

export const OPERATOR_AUTH_OPTIONS = Symbol('warden.operator-auth.options');

export interface OperatorAuthOptions {
  /** Name of the session cookie to accept besides bearer tokens (the console); none elsewhere. */
  cookie?: string;
}

/** An authenticated request: the operator, how they proved it, and the token (to forward it). */
export interface Authenticated {
  ok: true;
  operator: Operator;
  via: 'bearer' | 'cookie';
  token: string;
}

export interface Refused {
  ok: false;
  status: 401 | 403 | 503;
  reason: AuthFailure | 'csrf_check_failed' | 'auth_unavailable';
  detail: string;
}

const header = (headers: IncomingHttpHeaders, name: string) => headers[name.toLowerCase()];

/**
 * The one authentication of every HTTP surface of Warden: a bearer token (or, where configured, the
 * console's session cookie with its CSRF checks), the operator looked up in the store, and the
 * X-Observatory-Operator-Id rule. Returns an outcome instead of throwing, so that the console's pages
 * can redirect to the login form where the APIs answer 401.
 */
@Injectable()
export class OperatorAuthenticator {
  constructor(
    private readonly store: OperatorStore,
    @Inject(OPERATOR_AUTH_OPTIONS) private readonly options: OperatorAuthOptions,
  ) {}

  async authenticate(request: { method: string; headers: IncomingHttpHeaders }): Promise<Authenticated | Refused> {
    const { headers } = request;
    const presented = presentedCredential(
      { authorization: headers.authorization, cookie: headers.cookie, operatorId: header(headers, OPERATOR_ID_HEADER) },
      this.options,
    );
    if (!presented.ok) return unauthorized(presented.reason);
    const outcome = await this.check(presented.token, header(headers, OPERATOR_ID_HEADER));
    if (!outcome.ok) return outcome;
    if (presented.via === 'cookie' && !SAFE_METHODS.has(request.method.toUpperCase())) {
      const csrf = header(headers, CSRF_HEADER);
      const origin = { origin: headers.origin, referer: headers.referer, host: headers.host };
      if (!sameOrigin(origin) || !csrfTokenMatches(presented.token, Array.isArray(csrf) ? csrf[0] : csrf)) {
        return { ok: false, status: 403, reason: 'csrf_check_failed', detail: 'a change must come from a console page of this login (origin and CSRF token)' };
      }
    }
    return { ...outcome, via: presented.via };
  }

  /** For credentials that do not come over HTTP (the audit query on the bus): a bearer header value. */
  async authenticateBearer(authorization: string | undefined, operatorId?: string): Promise<Authenticated | Refused> {
    const presented = presentedCredential({ authorization });
    if (!presented.ok) return unauthorized(presented.reason);
    return this.check(presented.token, operatorId);
  }

  private async check(token: string, operatorHeader: string | string[] | undefined): Promise<Authenticated | Refused> {
    let checked;
    try {
      checked = await this.store.authenticate(token);
    } catch (error) {
      return { ok: false, status: 503, reason: 'auth_unavailable', detail: (error as Error).message };
    }
    if (!checked.ok) return unauthorized(checked.reason);
    const mismatch = operatorHeaderProblem(checked.operator.id, operatorHeader);
    if (mismatch) return unauthorized(mismatch);
    return { ok: true, operator: checked.operator, via: 'bearer', token };
  }
}

function unauthorized(reason: AuthFailure): Refused {
  return { ok: false, status: 401, reason, detail: AUTH_FAILURES[reason] };
}
