import { Injectable, Module, type DynamicModule, type OnModuleInit } from '@nestjs/common';
import { InjectDataSource, TypeOrmModule } from '@nestjs/typeorm';
import { HealthRegistry, type Logger } from '@warden/observability';
import { DataSource, type DataSourceOptions } from 'typeorm';
import type { DatabaseConfig } from '../config.js';
import { auditDataSourceOptions, isConnectionError, migrate } from './audit-data-source.js';

/** Connects, retrying while the database starts; applies migrations when configured. */
async function openDatabase(options: DataSourceOptions, config: DatabaseConfig, logger: Logger): Promise<DataSource> {
  const deadline = Date.now() + 60_000;
  for (let attempt = 1; ; attempt++) {
    const dataSource = new DataSource(options);
    try {
      await dataSource.initialize();
      if (config.runMigrations) {
        const applied = await migrate(dataSource, config.poolSize);
        if (applied.length) logger.info({ migrations: applied }, 'database migrated');
      } else if (await dataSource.showMigrations()) {
        logger.warn('database migrations are pending: run `node apps/audit/dist/main.js migrate`');
      }
      return dataSource;
    } catch (error) {
      await dataSource.destroy().catch(() => undefined);
      if (!isConnectionError(error) || Date.now() > deadline) throw error;
      logger.warn({ attempt, err: error }, 'database not reachable yet; retrying');
      await new Promise((resolve) => setTimeout(resolve, Math.min(250 * attempt, 2_000)));
    }
  }
}

@Injectable()
class DatabaseHealth implements OnModuleInit {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly health: HealthRegistry,
  ) {}

  onModuleInit(): void {
    this.health.register('database', async () => {
      try {
        await this.dataSource.query('SELECT 1');
        return { up: true };
      } catch (error) {
        return { up: false, detail: `database unreachable: ${(error as Error).message}` };
      }
    });
  }
}

/**
 * The audit store's PostgreSQL connection: one TypeORM DataSource, which TypeOrmModule offers to all the
 * audit's modules (inject it with @InjectDataSource()) and closes, pool and all, on shutdown.
 */
@Module({})
export class DatabaseModule {
  static forRoot(config: DatabaseConfig, logger: Logger): DynamicModule {
    return {
      module: DatabaseModule,
      imports: [
        TypeOrmModule.forRootAsync({
          // openDatabase retries (connection errors only, for up to a minute, with the audit's own log
          // lines) and migrates before any module uses the store, so TypeOrmModule's retry is off.
          useFactory: () => ({ ...auditDataSourceOptions(config), toRetry: () => false }),
          dataSourceFactory: (options) => openDatabase(options!, config, logger),
        }),
      ],
      providers: [DatabaseHealth],
    };
  }
}
