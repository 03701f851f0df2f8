import { booleanFromEnv, ConfigurationError, integerFromEnv, loadServiceRuntime, type ServiceRuntime } from '@warden/service-bootstrap';
import { parseRetentionDays, RetentionConfigError, type RetentionDays } from './domain/retention-policy.js';
import { MAX_WRITES } from './ingest/event-batcher.js';

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

export interface RetentionConfig {
  /** Days each table keeps its events (0: for ever). */
  days: RetentionDays;
  /** How often retention runs on its own; 0 leaves it to the command. */
  intervalMs: number;
  batchSize: number;
  maxBatchesPerRun: number;
}

export interface AuditConfig extends ServiceRuntime {
  database: DatabaseConfig;
  ingest: IngestConfig;
  retention: RetentionConfig;
  /** How often the gauges read from the store (paused sessions, oldest waiting gate request) refresh. */
  gaugeRefreshMs: number;
}

export const AUDIT_DEFAULTS = {
  databaseUrl: 'postgres://warden:warden@127.0.0.1:5432/warden',
  poolSize: 10,
  runMigrations: true,
  batchSize: 500,
  batchWaitMs: 20,
  retentionIntervalMs: 3_600_000,
  retentionBatchSize: 5_000,
  retentionMaxBatches: 100,
  gaugeRefreshMs: 15_000,
} as const;

/**
 * The audit service's configuration (defaults in brackets): the shared service environment (HTTP port
 * 3107), DATABASE_URL [postgres://warden:warden@127.0.0.1:5432/warden], DATABASE_POOL_SIZE [10],
 * AUDIT_RUN_MIGRATIONS [true], AUDIT_BATCH_SIZE [500], AUDIT_BATCH_WAIT_MS [20],
 * AUDIT_RETENTION [table=days list over events=90, decisions=365, patterns=180, interventions=365,
 * breaker_trips=365, gate_events=365, costs=400; 0 keeps for ever], AUDIT_RETENTION_INTERVAL_MS [3600000; 0: only
 * by command], AUDIT_RETENTION_BATCH_SIZE [5000], AUDIT_RETENTION_MAX_BATCHES [100 per table and run],
 * AUDIT_GAUGE_REFRESH_MS [15000].
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
      // Whole batches must fill, so messages of a session are not held back one by one; the hash chain
      // is ordered and serialised per session by the writer, in the database (see README, Hash chain).
      // Room for a batch filling while the most the batcher writes at once are written.
      sessionOrdering: false,
      maxConcurrentHandlers: Math.max(runtime.messaging.maxConcurrentHandlers ?? 0, ingest.batchSize * (MAX_WRITES + 1)),
    },
    database: {
      url: env.DATABASE_URL || AUDIT_DEFAULTS.databaseUrl,
      poolSize: integerFromEnv(env, 'DATABASE_POOL_SIZE', AUDIT_DEFAULTS.poolSize, 1),
      runMigrations: booleanFromEnv(env, 'AUDIT_RUN_MIGRATIONS', AUDIT_DEFAULTS.runMigrations),
    },
    ingest,
    retention: {
      days: retentionDays(env.AUDIT_RETENTION),
      intervalMs: integerFromEnv(env, 'AUDIT_RETENTION_INTERVAL_MS', AUDIT_DEFAULTS.retentionIntervalMs, 0),
      batchSize: integerFromEnv(env, 'AUDIT_RETENTION_BATCH_SIZE', AUDIT_DEFAULTS.retentionBatchSize, 1),
      maxBatchesPerRun: integerFromEnv(env, 'AUDIT_RETENTION_MAX_BATCHES', AUDIT_DEFAULTS.retentionMaxBatches, 1),
    },
    gaugeRefreshMs: integerFromEnv(env, 'AUDIT_GAUGE_REFRESH_MS', AUDIT_DEFAULTS.gaugeRefreshMs, 100),
  };
}

function retentionDays(text: string | undefined): RetentionDays {
  try {
    return parseRetentionDays(text);
  } catch (error) {
    if (error instanceof RetentionConfigError) throw new ConfigurationError(error.message);
    throw error;
  }
}
