import { Injectable, UnauthorizedException, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { OPERATOR_ID_HEADER } from '@warden/contracts';
import type { Request } from 'express';

/**
 * Who is calling the operator API. Phase 1 (FR-11.6) trusts the X-Observatory-Operator-Id header;
 * a token check replaces this provider (and nothing else) later.
 */
export abstract class OperatorAuthenticator {
  /** The operator id, or null when the request does not identify one. */
  abstract authenticate(request: Request): string | null | Promise<string | null>;
}

@Injectable()
export class OperatorHeaderAuthenticator extends OperatorAuthenticator {
  authenticate(request: Request): string | null {
    const value = request.headers[OPERATOR_ID_HEADER.toLowerCase()];
    const id = (Array.isArray(value) ? value[0] : value)?.trim();
    return id ? id : null;
  }
}

/** The request's operator, set by OperatorGuard. */
export function operatorOf(request: Request): string {
  return (request as Request & { operatorId: string }).operatorId;
}

/**
 * The one operator check of the gate's API: 401 `missing_operator_id` for a request without an operator
 * (a missing or blank header), before the body is read. Controllers read the id with operatorOf.
 */
@Injectable()
export class OperatorGuard implements CanActivate {
  constructor(private readonly authenticator: OperatorAuthenticator) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<Request>();
    const operatorId = await this.authenticator.authenticate(request);
    if (!operatorId) throw new UnauthorizedException({ status: 'error', reason: 'missing_operator_id' });
    (request as Request & { operatorId: string }).operatorId = operatorId;
    return true;
  }
}
