import { Controller, Get, HttpCode, Res } from '@nestjs/common';
import type { Response } from 'express';
import { HealthRegistry } from '@warden/observability';

@Controller('health')
export class HealthController {
  constructor(private readonly health: HealthRegistry) {}

  /** The process is up and answering. */
  @Get('live')
  @HttpCode(200)
  live(): { status: 'ok' } {
    return { status: 'ok' };
  }

  /** Ready to serve: every registered check is up (503 with the failing checks otherwise). */
  @Get('ready')
  async ready(@Res({ passthrough: true }) res: Response) {
    const report = await this.health.readiness();
    res.status(report.status === 'ok' ? 200 : 503);
    return report;
  }

  /** Same as readiness, for load balancers that probe one path. */
  @Get()
  async summary(@Res({ passthrough: true }) res: Response) {
    return this.ready(res);
  }
}
