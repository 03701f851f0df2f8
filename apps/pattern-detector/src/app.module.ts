import { Module, type DynamicModule } from '@nestjs/common';
import { serviceInfrastructure } from '@warden/messaging';
import type { Logger } from '@warden/observability';
import type { PatternDetectorConfig } from './config.js';

/**
 * Session-level pattern detection (repetitive errors, scope creep, goal drift, resource spirals, escalation traps, stagnation).
 * The service already consumes, validates and acknowledges every channel the contracts route to it,
 * with dead letters, metrics and health; its feature modules add handlers for the messages it acts on.
 */
@Module({})
export class PatternDetectorAppModule {
  static forRoot(config: PatternDetectorConfig, logger: Logger): DynamicModule {
    return { module: PatternDetectorAppModule, imports: [...serviceInfrastructure(config, logger)] };
  }
}
