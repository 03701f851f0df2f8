import { Controller, Get } from '@nestjs/common';
import { OPENAPI_DOCUMENT } from './openapi.js';

/** The OpenAPI description of the operator API; readable without an operator id. */
@Controller('gateway')
export class OpenApiController {
  @Get('openapi.json')
  document(): typeof OPENAPI_DOCUMENT {
    return OPENAPI_DOCUMENT;
  }
}
