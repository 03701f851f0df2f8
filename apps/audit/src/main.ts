import 'reflect-metadata';
import { createLogger, type Logger } from '@warden/observability';
import { runService } from '@warden/service-bootstrap';
import { AuditAppModule } from './app.module.js';
import { loadAuditConfig } from './config.js';
import { createAuditDataSource, migrate } from './database/audit-data-source.js';

/** `main.js migrate` applies the database migrations and exits (the `audit:migrate` target). */
async function migrateOnly(logger: Logger): Promise<void> {
  const config = loadAuditConfig();
  const dataSource = createAuditDataSource(config.database);
  await dataSource.initialize();
  try {
    const applied = await migrate(dataSource, config.database.poolSize);
    logger.info({ migrations: applied }, applied.length ? 'database migrated' : 'database already up to date');
  } finally {
    await dataSource.destroy();
  }
}

if (process.argv[2] === 'migrate') {
  const logger = createLogger({ service: 'audit', level: process.env.LOG_LEVEL || 'info' });
  migrateOnly(logger).catch((error: Error) => {
    logger.fatal({ err: error }, `migration failed: ${error.message}`);
    process.exitCode = 1;
  });
} else {
  runService({ service: 'audit', loadConfig: loadAuditConfig, createModule: AuditAppModule.forRoot });
}
