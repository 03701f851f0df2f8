import { Module, type DynamicModule } from '@nestjs/common';
import type { PatternDetectorConfig } from '../config.js';
import { PatternEventsHandler } from './pattern-events.handler.js';
import { PatternMetrics } from './pattern-metrics.js';
import { PATTERN_KNOWLEDGE, PATTERN_PARTITIONS, PATTERN_SETTINGS, PatternSupervisor } from './pattern-supervisor.js';

/**
 * The detectors wired to the bus and the KV store. Uses BusConnection, MessagePublisher and
 * JetStreamServer from the global messaging module; MetricsRegistry from observability.
 */
@Module({})
export class PatternsModule {
  static forRoot(config: PatternDetectorConfig): DynamicModule {
    return {
      module: PatternsModule,
      controllers: [PatternEventsHandler],
      providers: [
        { provide: PATTERN_SETTINGS, useValue: config.settings },
        { provide: PATTERN_KNOWLEDGE, useValue: config.knowledge },
        { provide: PATTERN_PARTITIONS, useValue: config.messaging.partitions },
        PatternMetrics,
        PatternSupervisor,
      ],
      exports: [PatternSupervisor],
    };
  }
}
