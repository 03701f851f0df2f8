import { Module, type DynamicModule } from '@nestjs/common';
import { serviceInfrastructure } from '@warden/messaging';
import type { Logger } from '@warden/observability';
import type { LadderConfig } from './config.js';

/**
 * The automation ladder: levels 0-4 earned from each agent's track record.
 * The service already consumes, validates and acknowledges every channel the contracts route to it,
 * with dead letters, metrics and health; its feature modules add handlers for the messages it acts on.
 */
@Module({})
export class LadderAppModule {
  static forRoot(config: LadderConfig, logger: Logger): DynamicModule {
    return { module: LadderAppModule, imports: [...serviceInfrastructure(config, logger)] };
  }
}
