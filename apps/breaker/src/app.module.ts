import { Module, type DynamicModule } from '@nestjs/common';
import type { Logger } from '@warden/observability';
import { serviceInfrastructure } from '@warden/service-bootstrap';
import { BreakersModule } from './breakers/breakers.module.js';
import type { BreakerConfig } from './config.js';

/** Circuit breakers for iteration, cost, time and error-rate budgets per session (seed 002 §1-5). */
@Module({})
export class BreakerAppModule {
  static forRoot(config: BreakerConfig, logger: Logger): DynamicModule {
    return { module: BreakerAppModule, imports: [...serviceInfrastructure(config, logger), BreakersModule.forRoot(config)] };
  }
}
