import { Controller, Get, Header, Res } from '@nestjs/common';
import type { Response } from 'express';
import { MetricsRegistry } from '@warden/observability';

@Controller('metrics')
export class MetricsController {
  constructor(private readonly metrics: MetricsRegistry) {}

  @Get()
  @Header('Cache-Control', 'no-store')
  async scrape(@Res({ passthrough: true }) res: Response): Promise<string> {
    res.type(this.metrics.contentType);
    return this.metrics.render();
  }
}
