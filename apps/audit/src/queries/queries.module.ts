import { Inject, Injectable, Module, type DynamicModule, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { getDataSourceToken, InjectDataSource } from '@nestjs/typeorm';
import { LOGGER, MetricsRegistry, type Logger } from '@warden/observability';
import { DataSource } from 'typeorm';
import { RetentionModule } from '../retention/retention.module.js';
import { RetentionRunner } from '../retention/retention-runner.js';
import { AuditQueryController } from './audit-query.controller.js';
import { AuditQueryResponder } from './audit-query.responder.js';
import { AuditQueryService } from './audit-query-service.js';
import { ChainVerification } from './chain-verification.js';
import { AuditOpenApiController } from './openapi.controller.js';
import { StoreGauges } from './store-gauges.js';

const GAUGE_REFRESH_MS = Symbol('warden.audit.gauge-refresh');

@Injectable()
class StoreGaugesRefresh implements OnApplicationBootstrap, OnApplicationShutdown {
  private timer?: NodeJS.Timeout;
  private readonly gauges: StoreGauges;

  constructor(
    @InjectDataSource() dataSource: DataSource,
    metrics: MetricsRegistry,
    @Inject(GAUGE_REFRESH_MS) private readonly intervalMs: number,
    @Inject(LOGGER) private readonly log: Logger,
  ) {
    this.gauges = new StoreGauges(dataSource, metrics);
  }

  onApplicationBootstrap(): void {
    const refresh = () => this.gauges.refresh().catch((error: Error) => this.log.debug({ err: error }, 'store gauges not refreshed'));
    void refresh();
    this.timer = setInterval(refresh, this.intervalMs);
    this.timer.unref();
  }

  onApplicationShutdown(): void {
    clearInterval(this.timer);
  }
}

/** The read side: HTTP API, bus request/reply, the chain check, and the gauges read from the store. */
@Module({})
export class QueriesModule {
  static forRoot(options: { gaugeRefreshMs: number; retention: Parameters<typeof RetentionModule.forRoot>[0] }): DynamicModule {
    return {
      module: QueriesModule,
      imports: [RetentionModule.forRoot(options.retention)],
      controllers: [AuditQueryController, AuditOpenApiController],
      providers: [
        { provide: GAUGE_REFRESH_MS, useValue: options.gaugeRefreshMs },
        { provide: ChainVerification, useFactory: (dataSource: DataSource) => new ChainVerification(dataSource), inject: [getDataSourceToken()] },
        {
          provide: AuditQueryService,
          useFactory: (dataSource: DataSource, chain: ChainVerification, retention: RetentionRunner) => new AuditQueryService(dataSource, chain, retention),
          inject: [getDataSourceToken(), ChainVerification, RetentionRunner],
        },
        AuditQueryResponder,
        StoreGaugesRefresh,
      ],
    };
  }
}
