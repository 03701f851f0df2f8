import { Module, type DynamicModule } from '@nestjs/common';
import { getDataSourceToken } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import type { IngestConfig } from '../config.js';
import { AuditEventWriter } from './audit-event-writer.js';
import { IngestHandler } from './ingest.handler.js';
import { INGEST_OPTIONS } from './ingest.options.js';

/** Stores every event of the suite. Uses the audit store's DataSource (DatabaseModule). */
@Module({})
export class IngestModule {
  static forRoot(config: IngestConfig): DynamicModule {
    return {
      module: IngestModule,
      controllers: [IngestHandler],
      providers: [
        { provide: INGEST_OPTIONS, useValue: config },
        { provide: AuditEventWriter, useFactory: (dataSource: DataSource) => new AuditEventWriter(dataSource), inject: [getDataSourceToken()] },
      ],
    };
  }
}
