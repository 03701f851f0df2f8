import { Inject, Injectable, Module, type DynamicModule, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { LOGGER, MetricsRegistry, type Logger } from '@warden/observability';
import { getDataSourceToken } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import type { RetentionConfig } from '../config.js';
import { RetentionRunner } from './retention-runner.js';

const RETENTION_CONFIG = Symbol('warden.audit.retention');

/** Runs retention every intervalMs (0: only on request); a failed run is logged and tried at the next tick. */
@Injectable()
class RetentionSchedule implements OnApplicationBootstrap, OnApplicationShutdown {
  private timer?: NodeJS.Timeout;

  constructor(
    private readonly runner: RetentionRunner,
    @Inject(RETENTION_CONFIG) private readonly config: RetentionConfig,
    @Inject(LOGGER) private readonly log: Logger,
  ) {}

  onApplicationBootstrap(): void {
    if (!this.config.intervalMs) return;
    this.timer = setInterval(() => {
      this.runner.run().then(
        (report) => {
          const deleted = Object.values(report.deleted).reduce((a, b) => a + (b ?? 0), 0);
          if (deleted || report.chains_removed) this.log.info({ deleted: report.deleted, chains_removed: report.chains_removed }, 'retention deleted old events');
        },
        (error: Error) => this.log.warn({ err: error }, 'retention run failed; trying again at the next interval'),
      );
    }, this.config.intervalMs);
    this.timer.unref();
  }

  onApplicationShutdown(): void {
    clearInterval(this.timer);
  }
}

/** Retention of the audit store, by table, on a schedule and on request (see RetentionRunner). */
@Module({})
export class RetentionModule {
  static forRoot(config: RetentionConfig): DynamicModule {
    return {
      module: RetentionModule,
      providers: [
        { provide: RETENTION_CONFIG, useValue: config },
        {
          provide: RetentionRunner,
          useFactory: (dataSource: DataSource, metrics: MetricsRegistry) =>
            new RetentionRunner(dataSource, { days: config.days, batchSize: config.batchSize, maxBatchesPerRun: config.maxBatchesPerRun }, metrics),
          inject: [getDataSourceToken(), MetricsRegistry],
        },
        RetentionSchedule,
      ],
      exports: [RetentionRunner],
    };
  }
}
