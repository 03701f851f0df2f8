import type { Request, Response } from 'express';
import { csrfTokenFor, roleAllows, type Authenticated, type OperatorAuthenticator, type Permission } from '@warden/operator-auth';
import type { PageContext } from '../views/layout.js';

/**
 * A page's operator: the login of its cookie, or a redirect to the login form (303) when there is none
 * or it expired; 503 when the operator store cannot be read.
 */
export async function pageOperator(authenticator: OperatorAuthenticator, req: Request, res: Response): Promise<Authenticated | null> {
  const outcome = await authenticator.authenticate(req);
  if (outcome.ok) return outcome;
  if (outcome.status === 503) {
    res.status(503).type('text/plain').send('Warden cannot check logins right now (the operator store is unreachable). Try again shortly.');
    return null;
  }
  res.redirect(303, `/login?next=${encodeURIComponent(req.originalUrl)}`);
  return null;
}

export function pageContext(auth: Authenticated, approvals: number): PageContext {
  return { operator: auth.operator, csrf: csrfTokenFor(auth.token), approvals };
}

export const can = (auth: Authenticated, permission: Permission) => roleAllows(auth.operator.role, permission);
