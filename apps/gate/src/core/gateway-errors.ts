import { Catch, HttpException, type ArgumentsHost, type ExceptionFilter } from '@nestjs/common';
import type { Response } from 'express';

/** Every error of the operator API answers `{"status":"error","reason":...}` with its status code. */
@Catch()
export class GatewayExceptionFilter implements ExceptionFilter {
  catch(exception: unknown, host: ArgumentsHost): void {
    const response = host.switchToHttp().getResponse<Response>();
    if (exception instanceof HttpException) {
      const body = exception.getResponse();
      const reason =
        typeof body === 'object' && body && 'reason' in body ? String((body as { reason: unknown }).reason) : exception.message.toLowerCase().replace(/\s+/g, '_');
      const detail = typeof body === 'object' && body && 'detail' in body ? { detail: String((body as { detail: unknown }).detail) } : {};
      response.status(exception.getStatus()).json({ status: 'error', reason, ...detail });
      return;
    }
    response.status(503).json({ status: 'error', reason: `unavailable: ${(exception as Error)?.message ?? 'internal error'}` });
  }
}
