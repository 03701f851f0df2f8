import { Module, type DynamicModule } from '@nestjs/common';
import type { BreakerConfig } from '../config.js';
import { BreakerEventsHandler } from './breaker-events.handler.js';
import { BreakerMetrics } from './breaker-metrics.js';
import { BreakerStore } from './breaker-store.js';
import { BREAKER_PARTITIONS, BREAKER_SETTINGS, BreakerSupervisor } from './breaker-supervisor.js';

/**
 * The session breakers wired to the bus and the KV store. Uses BusConnection, MessagePublisher and
 * JetStreamServer from the global messaging module; MetricsRegistry and LOGGER from observability.
 */
@Module({})
export class BreakersModule {
  static forRoot(config: BreakerConfig): DynamicModule {
    return {
      module: BreakersModule,
      controllers: [BreakerEventsHandler],
      providers: [
        { provide: BREAKER_SETTINGS, useValue: config.settings },
        { provide: BREAKER_PARTITIONS, useValue: config.messaging.partitions },
        BreakerMetrics,
        BreakerStore,
        BreakerSupervisor,
      ],
      exports: [BreakerSupervisor],
    };
  }
}
