import { Global, Module, type DynamicModule, type OnApplicationShutdown } from '@nestjs/common';
import type { Logger } from 'pino';
import { createLogger, HealthRegistry, LOGGER, MetricsRegistry } from '@warden/observability';
import { HealthController } from './health.controller.js';
import { MetricsController } from './metrics.controller.js';

export interface ObservabilityOptions {
  service: string;
  logLevel?: string;
  /** Supply an existing logger (the bootstrap creates one before Nest starts). */
  logger?: Logger;
}

/** `/metrics`, `/health/live`, `/health/ready`, the metrics registry and the logger of one service. */
@Global()
@Module({})
export class ObservabilityModule implements OnApplicationShutdown {
  constructor(private readonly metrics: MetricsRegistry) {}

  onApplicationShutdown(): void {
    this.metrics.stop();
  }

  static forRoot(options: ObservabilityOptions): DynamicModule {
    const logger = options.logger ?? createLogger({ service: options.service, level: options.logLevel });
    return {
      module: ObservabilityModule,
      controllers: [HealthController, MetricsController],
      providers: [
        { provide: MetricsRegistry, useValue: new MetricsRegistry(options.service) },
        { provide: HealthRegistry, useValue: new HealthRegistry() },
        { provide: LOGGER, useValue: logger },
      ],
      exports: [MetricsRegistry, HealthRegistry, LOGGER],
    };
  }
}
