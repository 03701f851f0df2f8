import { DataSource, type DataSourceOptions } from 'typeorm';
import type { DatabaseConfig } from '../config.js';
import { AuditEvent } from './audit-event.entity.js';
import { CreateAuditEvent1763700000000 } from './migrations/1763700000000-create-audit-event.js';
import { ChainViewsRetention1763800000000 } from './migrations/1763800000000-chain-views-retention.js';

export const AUDIT_ENTITIES = [AuditEvent];
export const AUDIT_MIGRATIONS = [CreateAuditEvent1763700000000, ChainViewsRetention1763800000000];

/** Arbitrary but fixed: replicas that start together take turns applying migrations. */
const MIGRATION_LOCK = 7_311_842;

/** The audit store's connection, the same for the service, `main.js migrate` and the benchmark. */
export function auditDataSourceOptions(config: DatabaseConfig): DataSourceOptions {
  return {
    type: 'postgres',
    url: config.url,
    entities: AUDIT_ENTITIES,
    migrations: AUDIT_MIGRATIONS,
    migrationsTableName: 'audit_migrations',
    synchronize: false,
    extra: { max: config.poolSize, connectionTimeoutMillis: 5_000 },
  };
}

export function createAuditDataSource(config: DatabaseConfig): DataSource {
  return new DataSource(auditDataSourceOptions(config));
}

/** Applies pending migrations; returns the names applied. */
export async function migrate(dataSource: DataSource, poolSize: number): Promise<string[]> {
  if (poolSize < 2) return (await dataSource.runMigrations({ transaction: 'each' })).map((m) => m.name);
  // The lock lives on one connection while the migrations run on another.
  const runner = dataSource.createQueryRunner();
  await runner.connect();
  try {
    await runner.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK]);
    return (await dataSource.runMigrations({ transaction: 'each' })).map((m) => m.name);
  } finally {
    await runner.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK]).catch(() => undefined);
    await runner.release();
  }
}

const CONNECTION_ERRORS = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', '57P01', '57P02', '57P03', '08000', '08001', '08003', '08004', '08006', '53300']);

/** True when the database could not be reached, as opposed to refusing the data. */
export function isConnectionError(error: unknown): boolean {
  const err = error as { code?: string; driverError?: { code?: string }; message?: string };
  const code = err?.driverError?.code ?? err?.code;
  if (code && CONNECTION_ERRORS.has(code)) return true;
  return /Connection terminated|connection timeout|Client has encountered a connection error|not queryable|timeout exceeded when trying to connect/i.test(
    err?.message ?? '',
  );
}
