import { Catch, type ArgumentsHost } from '@nestjs/common';
import { BaseExceptionFilter } from '@nestjs/core';
import { throwError, type Observable } from 'rxjs';

/**
 * Nest's default RPC filter replaces a handler's error with a generic one and logs it. The JetStream
 * transport needs the original (to tell a rejected message from a retryable failure) and logs it
 * itself, so errors from message handlers pass through unchanged. HTTP errors get Nest's usual handling.
 */
@Catch()
export class MessageHandlerErrorFilter extends BaseExceptionFilter {
  override catch(exception: unknown, host: ArgumentsHost): Observable<never> | void {
    if (host.getType() === 'rpc') return throwError(() => exception);
    return super.catch(exception, host);
  }
}
