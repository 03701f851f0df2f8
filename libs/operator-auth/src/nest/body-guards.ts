import type { NextFunction, Request, Response } from 'express';
import type { OperatorAuthenticator } from './operator-authenticator.js';

/** How deep a JSON body may nest: a tool input an operator rewrites is a few levels, never hundreds. */
export const MAX_BODY_NESTING = 64;

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Checks the operator's credentials before a body is read: a request without a valid login is answered
 * (401, 403 or 503, as the routes answer) without parsing what it sent. The routes check again, with
 * their permission. `open`: paths that read their body before anyone is logged in (a login form).
 */
export function credentialsBeforeBody(authenticator: OperatorAuthenticator, open: ReadonlySet<string> = new Set()) {
  return (req: Request, res: Response, next: NextFunction): void => {
    if (SAFE_METHODS.has(req.method) || open.has(req.path)) return next();
    authenticator.authenticate(req).then(
      (outcome) => {
        if (outcome.ok) return next();
        if (outcome.status === 401) res.setHeader('WWW-Authenticate', `Bearer realm="warden", error="invalid_token", error_description="${outcome.reason}"`);
        // The body is not read: the connection closes after the answer rather than draining it.
        res.setHeader('connection', 'close');
        res.status(outcome.status).json({ status: 'error', reason: outcome.reason, detail: outcome.detail });
      },
      (error: unknown) => next(error),
    );
  };
}

class NestingTooDeep extends Error {
  readonly status = 400;
  readonly type = 'warden.body_nesting';
}

/** body-parser's `verify` for JSON: refuses a body nesting deeper than MAX_BODY_NESTING before it is parsed. */
export function boundedNesting(_req: unknown, _res: unknown, buffer: Buffer): void {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < buffer.length; i++) {
    const c = buffer[i];
    if (inString) {
      if (c === 0x5c) i++; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b) {
      if (++depth > MAX_BODY_NESTING) throw new NestingTooDeep(`the body nests deeper than ${MAX_BODY_NESTING} levels`);
    } else if (c === 0x7d || c === 0x5d) depth--;
  }
}

/** Answers a body refused for its nesting with 400 and the reason; other errors go on. */
export function nestingRefused(error: unknown, _req: Request, res: Response, next: NextFunction): void {
  if (error instanceof NestingTooDeep || (error as { type?: string } | null)?.type === 'warden.body_nesting') {
    res.status(400).json({ status: 'error', reason: 'body_too_deep', detail: (error as Error).message });
    return;
  }
  next(error);
}
