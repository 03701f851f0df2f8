import { booleanFromEnv, integerFromEnv, loadServiceRuntime, type ServiceRuntime } from '@warden/messaging';

export interface DatabaseConfig {
  url: string;
  /** Connections in the pool; 1 for the embedded PGlite server, which serves one connection. */
  poolSize: number;
  /** Apply pending migrations at start (guarded by an advisory lock when several replicas start). */
  runMigrations: boolean;
}

export interface IngestConfig {
  /** Events written in one multi-row insert. */
  batchSize: number;
  /** How long the first event of a batch waits for others. */
  batchWaitMs: number;
}

export interface AuditConfig extends ServiceRuntime {
  database: DatabaseConfig;
  ingest: IngestConfig;
}

export const AUDIT_DEFAULTS = {
  databaseUrl: 'postgres://warden:warden@127.0.0.1:5432/warden',
  poolSize: 10,
  runMigrations: true,
  batchSize: 500,
  batchWaitMs: 20,
} as const;

/**
 * The audit service's configuration (defaults in brackets): the shared service environment (HTTP port
 * 3107), DATABASE_URL [postgres://warden:warden@127.0.0.1:5432/warden], DATABASE_POOL_SIZE [10],
 * AUDIT_RUN_MIGRATIONS [true], AUDIT_BATCH_SIZE [500], AUDIT_BATCH_WAIT_MS [20].
 */
export function loadAuditConfig(env: NodeJS.ProcessEnv = process.env): AuditConfig {
  const runtime = loadServiceRuntime('audit', env);
  const ingest = {
    batchSize: integerFromEnv(env, 'AUDIT_BATCH_SIZE', AUDIT_DEFAULTS.batchSize, 1),
    batchWaitMs: integerFromEnv(env, 'AUDIT_BATCH_WAIT_MS', AUDIT_DEFAULTS.batchWaitMs, 0),
  };
  return {
    ...runtime,
    messaging: {
      ...runtime.messaging,
      // The audit log is a sink: order inside a batch does not matter, and whole batches must fill.
      sessionOrdering: false,
      maxConcurrentHandlers: Math.max(runtime.messaging.maxConcurrentHandlers ?? 0, ingest.batchSize * 2),
    },
    database: {
      url: env.DATABASE_URL || AUDIT_DEFAULTS.databaseUrl,
      poolSize: integerFromEnv(env, 'DATABASE_POOL_SIZE', AUDIT_DEFAULTS.poolSize, 1),
      runMigrations: booleanFromEnv(env, 'AUDIT_RUN_MIGRATIONS', AUDIT_DEFAULTS.runMigrations),
    },
    ingest,
  };
}
