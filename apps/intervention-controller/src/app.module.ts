import { Module, type DynamicModule } from '@nestjs/common';
import { serviceInfrastructure } from '@warden/messaging';
import type { Logger } from '@warden/observability';
import type { InterventionControllerConfig } from './config.js';

/**
 * Graduated interventions (soft correction up to emergency stop) chosen from patterns, breaker trips and blocks.
 * The service already consumes, validates and acknowledges every channel the contracts route to it,
 * with dead letters, metrics and health; its feature modules add handlers for the messages it acts on.
 */
@Module({})
export class InterventionControllerAppModule {
  static forRoot(config: InterventionControllerConfig, logger: Logger): DynamicModule {
    return { module: InterventionControllerAppModule, imports: [...serviceInfrastructure(config, logger)] };
  }
}
