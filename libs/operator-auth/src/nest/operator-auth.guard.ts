import {
  ForbiddenException,
  HttpException,
  Injectable,
  SetMetadata,
  UnauthorizedException,
  type CanActivate,
  type ExecutionContext,
} from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request, Response } from 'express';
import { leastRoleFor, roleAllows, type Permission } from '../roles.js';
import type { Operator } from '../operator-store.js';
import { OperatorAuthenticator, type Authenticated } from './operator-authenticator.js';

const PERMISSION = 'warden:operator-permission';

/** What a route (or a whole controller) needs; `read` when not said. */
export const Requires = (permission: Permission) => SetMetadata(PERMISSION, permission);

type AuthenticatedRequest = Request & { operatorAuth?: Authenticated };

/** The request's authenticated operator, set by OperatorAuthGuard. */
export function operatorOf(request: Request): Operator {
  const auth = (request as AuthenticatedRequest).operatorAuth;
  if (!auth) throw new Error('operatorOf: the route is not behind OperatorAuthGuard');
  return auth.operator;
}

/** How the request authenticated (the console forwards its operator's token to the gate). */
export function authenticationOf(request: Request): Authenticated {
  const auth = (request as AuthenticatedRequest).operatorAuth;
  if (!auth) throw new Error('authenticationOf: the route is not behind OperatorAuthGuard');
  return auth;
}

/**
 * Guards an HTTP route: 401 with the reason for missing or bad credentials, 403 when the operator's
 * role lacks the route's permission, before any body is read; nothing else runs then.
 */
@Injectable()
export class OperatorAuthGuard implements CanActivate {
  constructor(
    private readonly authenticator: OperatorAuthenticator,
    private readonly reflector: Reflector,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<AuthenticatedRequest>();
    const response = context.switchToHttp().getResponse<Response>();
    const permission = this.reflector.getAllAndOverride<Permission | undefined>(PERMISSION, [context.getHandler(), context.getClass()]) ?? 'read';
    const outcome = await this.authenticator.authenticate(request);
    if (!outcome.ok) {
      const body = { status: 'error', reason: outcome.reason, detail: outcome.detail };
      if (outcome.status === 401) {
        response.setHeader('WWW-Authenticate', `Bearer realm="warden", error="invalid_token", error_description="${outcome.reason}"`);
        throw new UnauthorizedException(body);
      }
      if (outcome.status === 403) throw new ForbiddenException(body);
      throw new HttpException(body, 503);
    }
    if (!roleAllows(outcome.operator.role, permission)) {
      throw new ForbiddenException({
        status: 'error',
        reason: 'forbidden',
        detail: `operator ${outcome.operator.id} is a ${outcome.operator.role}; this needs ${leastRoleFor(permission)} (${permission})`,
      });
    }
    request.operatorAuth = outcome;
    return true;
  }
}
