import { Module, type DynamicModule } from '@nestjs/common';
import type { Logger } from '@warden/observability';
import { serviceInfrastructure } from '@warden/service-bootstrap';
import type { PatternDetectorConfig } from './config.js';
import { PatternsModule } from './patterns/patterns.module.js';

/**
 * Session-level pattern detection (repetitive errors, polling loops, scope creep, goal drift, resource
 * spirals, hallucination, escalation traps, stagnation) over per-session windows kept in JetStream KV.
 */
@Module({})
export class PatternDetectorAppModule {
  static forRoot(config: PatternDetectorConfig, logger: Logger): DynamicModule {
    return { module: PatternDetectorAppModule, imports: [...serviceInfrastructure(config, logger), PatternsModule.forRoot(config)] };
  }
}
