import { Module, type DynamicModule } from '@nestjs/common';
import type { Logger } from '@warden/observability';
import { serviceInfrastructure } from '@warden/service-bootstrap';
import type { InterventionControllerConfig } from './config.js';
import { InterventionsModule } from './interventions/interventions.module.js';

/**
 * Graduated interventions (soft correction up to emergency stop) chosen from patterns, breaker trips,
 * blocked verdicts and rejected gate requests (seed 000).
 */
@Module({})
export class InterventionControllerAppModule {
  static forRoot(config: InterventionControllerConfig, logger: Logger): DynamicModule {
    return { module: InterventionControllerAppModule, imports: [...serviceInfrastructure(config, logger), InterventionsModule.forRoot(config)] };
  }
}
