import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Module, type DynamicModule, type INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { getDataSourceToken } from '@nestjs/typeorm';
import { EmbeddedPostgres, freePort } from '@warden/local-runtime';
import { HealthRegistry, type Logger } from '@warden/observability';
import { ObservabilityModule, PinoNestLogger } from '@warden/observability-nest';
import { captureLogger, eventually, TestPostgres, type CapturedLogger } from '@warden/testing';
import pg from 'pg';
import type { DataSource } from 'typeorm';
import { loadAuditConfig } from '../src/config.js';
import { DatabaseModule } from '../src/database/database.module.js';

const MIGRATIONS = ['CreateAuditEvent1763700000000', 'ChainViewsRetention1763800000000'];

/** The audit's store alone, configured from the environment as the service is. */
@Module({})
class StoreOnly {
  static forRoot(env: NodeJS.ProcessEnv, logger: Logger): DynamicModule {
    return {
      module: StoreOnly,
      imports: [ObservabilityModule.forRoot({ service: 'audit', logger }), DatabaseModule.forRoot(loadAuditConfig(env).database, logger)],
    };
  }
}

function openStore(env: NodeJS.ProcessEnv, log: CapturedLogger): Promise<INestApplicationContext> {
  return NestFactory.createApplicationContext(StoreOnly.forRoot(env, log.logger), { logger: new PinoNestLogger(log.logger), abortOnError: false });
}

async function query<R>(url: string, text: string): Promise<R[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(text)).rows as R[];
  } finally {
    await client.end();
  }
}

const migratedLines = (log: CapturedLogger) => log.lines.filter((l) => l.msg === 'database migrated');

describe('the audit store’s connection', () => {
  it('runs on the demo’s embedded PGlite with one connection: migrates, is ready, and lets the connection go on shutdown', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'warden-audit-pglite-'));
    const embedded = await EmbeddedPostgres.start({ dataDir, port: await freePort() });
    const log = captureLogger('audit');
    try {
      const store = await openStore({ DATABASE_URL: embedded.url, DATABASE_POOL_SIZE: '1' }, log);
      const dataSource = store.get<DataSource>(getDataSourceToken());
      expect(dataSource.options).toMatchObject({ type: 'postgres', synchronize: false, migrationsTableName: 'audit_migrations', extra: { max: 1, connectionTimeoutMillis: 5_000 } });
      expect(migratedLines(log).map((l) => l.migrations)).toEqual([MIGRATIONS]);
      expect((await store.get(HealthRegistry).readiness()).checks.database).toEqual({ up: true });
      await store.close();
      expect(dataSource.isInitialized).toBe(false);
      // PGlite serves one connection: another client gets in only once the audit has let its own go
      // (and PGlite has seen it go).
      const applied = await eventually('another client on PGlite', () => query<{ name: string }>(embedded.url, 'SELECT name FROM audit_migrations ORDER BY id').catch(() => null));
      expect(applied).toEqual(MIGRATIONS.map((name) => ({ name })));
    } finally {
      await embedded.stop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 120_000);

  describe('on PostgreSQL', () => {
    let postgres: TestPostgres;

    beforeAll(async () => {
      postgres = await TestPostgres.start();
    }, 60_000);

    afterAll(async () => {
      await postgres?.destroy();
    });

    it('waits for a database that is not up yet, then migrates once; a second start finds nothing to do', async () => {
      const url = await postgres.createDatabase('audit_store_waits');
      await postgres.stop();
      const log = captureLogger('audit');
      const opening = openStore({ DATABASE_URL: url, DATABASE_POOL_SIZE: '4' }, log);
      opening.catch(() => undefined);
      await eventually('the audit waiting for the database', () => log.lines.filter((l) => l.msg === 'database not reachable yet; retrying').length, (n) => n >= 1);
      await postgres.start();
      const store = await opening;
      try {
        expect(migratedLines(log).map((l) => l.migrations)).toEqual([MIGRATIONS]);
        // The audit's own retry, not TypeOrmModule's.
        expect(log.text()).not.toContain('Unable to connect to the database');
      } finally {
        await store.close();
      }
      const again = captureLogger('audit');
      await (await openStore({ DATABASE_URL: url }, again)).close();
      expect(migratedLines(again)).toEqual([]);
      expect(await query(url, 'SELECT name FROM audit_migrations')).toHaveLength(MIGRATIONS.length);
    }, 120_000);

    it('closes every connection of its pool on shutdown', async () => {
      const url = await postgres.createDatabase('audit_store_closes');
      const connections = async () => (await query<{ n: number }>(postgres.url(), `SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = 'audit_store_closes'`))[0]!.n;
      const store = await openStore({ DATABASE_URL: url, DATABASE_POOL_SIZE: '3' }, captureLogger('audit'));
      const dataSource = store.get<DataSource>(getDataSourceToken());
      await Promise.all([1, 2, 3].map(() => dataSource.query('SELECT pg_sleep(0.05)')));
      expect(await connections()).toBeGreaterThan(0);
      await store.close();
      await eventually('the pool closed', connections, (n) => n === 0);
    }, 60_000);

    it('warns that migrations are pending when it is not to run them', async () => {
      const url = await postgres.createDatabase('audit_store_pending');
      const log = captureLogger('audit');
      await (await openStore({ DATABASE_URL: url, AUDIT_RUN_MIGRATIONS: 'false' }, log)).close();
      expect(log.lines.filter((l) => l.level === 'warn').map((l) => l.msg)).toEqual(['database migrations are pending: run `node apps/audit/dist/main.js migrate`']);
      expect(migratedLines(log)).toEqual([]);
    }, 60_000);

    it('fails at once, with the database’s reason, when the database refuses rather than being unreachable', async () => {
      const log = captureLogger('audit');
      await expect(openStore({ DATABASE_URL: postgres.url('audit_store_missing') }, log)).rejects.toThrow('database "audit_store_missing" does not exist');
      expect(log.lines.filter((l) => l.msg === 'database not reachable yet; retrying')).toEqual([]);
    }, 60_000);
  });
});
