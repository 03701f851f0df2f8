import { Global, Injectable, Module, type DynamicModule, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import { HealthRegistry, LOGGER, type Logger } from '@warden/observability';
import { DataSource } from 'typeorm';
import type { DatabaseConfig } from '../config.js';
import { createAuditDataSource, isConnectionError, migrate } from './audit-data-source.js';

const DATABASE_CONFIG = Symbol('warden.audit.database');

/** Connects, retrying while the database starts; applies migrations when configured. */
async function openDatabase(config: DatabaseConfig, logger: Logger): Promise<DataSource> {
  const deadline = Date.now() + 60_000;
  for (let attempt = 1; ; attempt++) {
    const dataSource = createAuditDataSource(config);
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
class DatabaseLifecycle implements OnModuleInit, OnApplicationShutdown {
  constructor(
    private readonly dataSource: DataSource,
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

  async onApplicationShutdown(): Promise<void> {
    if (this.dataSource.isInitialized) await this.dataSource.destroy();
  }
}

/** The audit store's PostgreSQL connection (TypeORM DataSource), global for the audit's feature modules. */
@Global()
@Module({})
export class DatabaseModule {
  static forRoot(config: DatabaseConfig): DynamicModule {
    return {
      module: DatabaseModule,
      providers: [
        { provide: DATABASE_CONFIG, useValue: config },
        {
          provide: DataSource,
          useFactory: (cfg: DatabaseConfig, logger: Logger) => openDatabase(cfg, logger),
          inject: [DATABASE_CONFIG, LOGGER],
        },
        DatabaseLifecycle,
      ],
      exports: [DataSource],
    };
  }
}

