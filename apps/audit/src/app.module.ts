import { Module, type DynamicModule } from '@nestjs/common';
import { OperatorAuthModule } from '@warden/operator-auth';
import type { Logger } from '@warden/observability';
import { serviceInfrastructure } from '@warden/service-bootstrap';
import type { AuditConfig } from './config.js';
import { DatabaseModule } from './database/database.module.js';
import { IngestModule } from './ingest/ingest.module.js';
import { QueriesModule } from './queries/queries.module.js';

@Module({})
export class AuditAppModule {
  static forRoot(config: AuditConfig, logger: Logger): DynamicModule {
    return {
      module: AuditAppModule,
      imports: [
        ...serviceInfrastructure(config, logger),
        OperatorAuthModule.forRoot(),
        DatabaseModule.forRoot(config.database, logger),
        IngestModule.forRoot(config.ingest),
        QueriesModule.forRoot({ gaugeRefreshMs: config.gaugeRefreshMs, retention: config.retention }),
      ],
    };
  }
}
