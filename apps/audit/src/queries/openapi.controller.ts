import { Controller, Get } from '@nestjs/common';
import { AUDIT_OPENAPI_DOCUMENT } from './openapi.js';

@Controller('audit')
export class AuditOpenApiController {
  @Get('openapi.json')
  document(): typeof AUDIT_OPENAPI_DOCUMENT {
    return AUDIT_OPENAPI_DOCUMENT;
  }
}
