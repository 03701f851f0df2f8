import { Module, type DynamicModule } from '@nestjs/common';
import { serviceInfrastructure } from '@warden/messaging';
import type { Logger } from '@warden/observability';
import type { BreakerConfig } from './config.js';

/**
 * Circuit breakers for iteration, cost, time and error-rate budgets per session.
 * The service already consumes, validates and acknowledges every channel the contracts route to it,
 * with dead letters, metrics and health; its feature modules add handlers for the messages it acts on.
 */
@Module({})
export class BreakerAppModule {
  static forRoot(config: BreakerConfig, logger: Logger): DynamicModule {
    return { module: BreakerAppModule, imports: [...serviceInfrastructure(config, logger)] };
  }
}
