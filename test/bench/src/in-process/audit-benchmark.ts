import 'reflect-metadata';
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { promisify } from 'node:util';
import type { INestApplication } from '@nestjs/common';
import { createMessage, EXAMPLE_PAYLOADS, publishSubject, type MessageType, type SessionChannelId, definitionOf } from '@warden/contracts';
import { freePort, WardenNatsServer } from '@warden/local-runtime';
import { buildTopology, BusConnection, provision } from '@warden/messaging';
import { createLogger, MetricsRegistry } from '@warden/observability';
import { startService } from '@warden/service-bootstrap';
import pg from 'pg';
import { AuditAppModule, canonicalTexts, createAuditDataSource, EVENT_COLUMNS, EVENT_ROWS_SOURCE, eventRowParameters, linkEvents, loadAuditConfig, migrate } from '@warden/audit/in-process';

/**
 * Measures the audit's ingest against real NATS JetStream and PostgreSQL: events persisted per second
 * by the real ingest path (JetStream consumers, redaction, batching, per-session hash chain, idempotent
 * insert, acknowledgement after commit) beside a raw multi-row INSERT of the same rows into the same
 * PostgreSQL in the same run, and the ingest lag while events arrive at a steady rate. Run by the suite's
 * benchmark (test/bench) and on its own: `node test/bench/dist/in-process/audit-benchmark.js --help`.
 */

const HELP = `Usage: node test/bench/dist/in-process/audit-benchmark.js [options]

Measures the audit's ingest: events/s persisted through JetStream into PostgreSQL, a raw multi-row
INSERT baseline into the same database, and the ingest lag at a steady publish rate. Prints JSON
with --json (one line, last on stdout).

Options:
  --database-url URL  PostgreSQL [$DATABASE_URL]; without one, a throwaway cluster is started
                      (initdb and pg_ctl from /usr/lib/postgresql/*/bin, or $PG_BIN_DIR)
  --nats URL          NATS with JetStream [$NATS_URL]; without one, a nats-server is started
  --user U            NATS user [$NATS_USER]
  --password P        NATS password [$NATS_PASSWORD]
  --partitions N      partitions of the server's mapping (default 8)
  --count N           events of the throughput runs (default 20000)
  --sessions N        sessions the events are spread over (default 200)
  --batch N           rows per insert, for both the baseline and the ingest (default 500)
  --rate N            events/s of the lag run (default 2000)
  --seconds N         length of the lag run (default 10)
  --json              print the figures as JSON only
  --help              this text
`;

interface Options {
  databaseUrl?: string;
  nats?: string;
  user?: string;
  password?: string;
  partitions: number;
  count: number;
  sessions: number;
  batch: number;
  rate: number;
  seconds: number;
  json: boolean;
}

function parseOptions(argv: string[]): Options {
  const options: Options = {
    databaseUrl: process.env.DATABASE_URL || undefined,
    nats: process.env.NATS_URL || undefined,
    user: process.env.NATS_USER || undefined,
    password: process.env.NATS_PASSWORD || undefined,
    partitions: 8,
    count: 20_000,
    sessions: 200,
    batch: 500,
    rate: 2_000,
    seconds: 10,
    json: false,
  };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const value = () => {
      const v = argv[++i];
      if (v === undefined) throw new Error(`${arg} needs a value`);
      return v;
    };
    const number = (name: 'partitions' | 'count' | 'sessions' | 'batch' | 'rate' | 'seconds') => {
      const v = Number(value());
      if (!Number.isInteger(v) || v < 1) throw new Error(`${arg} needs a whole number >= 1, got ${argv[i]}`);
      options[name] = v;
    };
    if (arg === '--help' || arg === '-h') {
      process.stdout.write(HELP);
      process.exit(0);
    } else if (arg === '--json') options.json = true;
    else if (arg === '--database-url') options.databaseUrl = value();
    else if (arg === '--nats') options.nats = value();
    else if (arg === '--user') options.user = value();
    else if (arg === '--password') options.password = value();
    else if (['--partitions', '--count', '--sessions', '--batch', '--rate', '--seconds'].includes(arg)) number(arg.slice(2) as 'count');
    else throw new Error(`unknown option ${arg} (see --help)`);
  }
  return options;
}

const run = promisify(execFile);
const round = (value: number, digits = 1) => Math.round(value * 10 ** digits) / 10 ** digits;

/** A throwaway PostgreSQL cluster on a free loopback port (as the postgres user when run as root). */
async function startPostgres(): Promise<{ url: string; stop(): Promise<void> }> {
  const root = '/usr/lib/postgresql';
  const bin =
    process.env.PG_BIN_DIR ??
    (existsSync(root) ? readdirSync(root).filter((v) => existsSync(join(root, v, 'bin', 'initdb'))).sort((a, b) => Number(b) - Number(a)).map((v) => join(root, v, 'bin'))[0] : undefined);
  if (!bin) throw new Error('no PostgreSQL found: give --database-url, or install postgresql (or set PG_BIN_DIR)');
  const isRoot = process.getuid?.() === 0;
  const as = (binary: string, args: string[]) => (isRoot ? run('runuser', ['-u', 'postgres', '--', binary, ...args]) : run(binary, args));
  const dir = mkdtempSync(join(tmpdir(), 'warden-audit-bench-pg-'));
  if (isRoot) {
    const uid = Number((await run('id', ['-u', 'postgres'])).stdout.trim());
    const gid = Number((await run('id', ['-g', 'postgres'])).stdout.trim());
    chownSync(dir, uid, gid);
  }
  const port = await freePort();
  await as(join(bin, 'initdb'), ['-D', join(dir, 'data'), '-U', 'postgres', '-A', 'trust', '--no-sync', '-E', 'UTF8']);
  // Durable commits as in production (fsync on); the tables are the same for the baseline and the ingest.
  await as(join(bin, 'pg_ctl'), ['-D', join(dir, 'data'), '-o', `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1`, '-l', join(dir, 'server.log'), '-w', 'start']);
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    async stop() {
      await as(join(bin, 'pg_ctl'), ['-D', join(dir, 'data'), '-m', 'immediate', '-w', 'stop']).catch(() => undefined);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

const TYPES: MessageType[] = ['action.proposed', 'review.verdict', 'decision.made', 'action.outcome', 'breaker.cost_recorded'];

/** A realistic mix of the suite's events over `sessions` sessions. */
function events(count: number, sessions: number, prefix: string) {
  return Array.from({ length: count }, (_, i) => {
    const type = TYPES[i % TYPES.length]!;
    return createMessage(type, { session_id: `${prefix}-${i % sessions}`, agent_id: 'agent-1', payload: EXAMPLE_PAYLOADS[type] as never });
  });
}

async function publishAll(bus: BusConnection, messages: ReturnType<typeof events>, window = 500): Promise<void> {
  const encoder = new TextEncoder();
  for (let i = 0; i < messages.length; i += window) {
    await Promise.all(
      messages.slice(i, i + window).map((m) => {
        const channel = definitionOf(m.type)!.channel as SessionChannelId;
        return bus.js.publish(publishSubject(channel, m.agent_id, m.session_id), encoder.encode(JSON.stringify(m)), { msgID: m.id });
      }),
    );
  }
}

/**
 * Raw multi-row INSERT of the same rows into a table like audit_event, one batch per statement: every
 * column the ingest writes, the chain links included (computed before the clock starts), with the
 * ingest's own insert statement and parameters, so the only difference left is the ingest's own work.
 */
async function baseline(client: pg.Client, messages: ReturnType<typeof events>, batch: number): Promise<number> {
  const rows = linkEvents(
    messages.map((m, i) => ({
      id: m.id,
      type: m.type,
      version: m.version,
      channel: definitionOf(m.type)!.channel,
      sessionId: m.session_id,
      agentId: m.agent_id,
      traceId: m.trace_id,
      causationId: m.causation_id ?? null,
      occurredAt: new Date(m.timestamp),
      streamSequence: String(i + 1),
      payload: m.payload,
      control: m.control ?? null,
      canonical: canonicalTexts(m.payload, m.control ?? null),
    })),
    new Map(),
  ).chained;
  await client.query('DROP TABLE IF EXISTS audit_bench_baseline');
  await client.query('CREATE TABLE audit_bench_baseline (LIKE audit_event INCLUDING DEFAULTS INCLUDING INDEXES)');
  const started = performance.now();
  for (let i = 0; i < rows.length; i += batch) {
    await client.query(`INSERT INTO audit_bench_baseline (${EVENT_COLUMNS}) SELECT * FROM ${EVENT_ROWS_SOURCE}`, eventRowParameters(rows.slice(i, i + batch)));
  }
  const seconds = (performance.now() - started) / 1000;
  await client.query('DROP TABLE audit_bench_baseline');
  return rows.length / seconds;
}

async function stored(client: pg.Client, prefix: string): Promise<number> {
  return (await client.query(`SELECT count(*)::int AS n FROM audit_event WHERE session_id LIKE $1`, [`${prefix}-%`])).rows[0].n as number;
}

/** Percentile of a Prometheus histogram's buckets (upper bound of the bucket the rank falls in). */
function histogramQuantile(text: string, name: string, q: number): number | null {
  const buckets = [...text.matchAll(new RegExp(`^${name}_bucket\\{le="([^"]+)"[^}]*\\} (\\d+)`, 'gm'))].map((m) => ({ le: m[1] === '+Inf' ? Infinity : Number(m[1]), n: Number(m[2]) }));
  const total = buckets.at(-1)?.n ?? 0;
  if (!total) return null;
  return buckets.find((b) => b.n >= q * total)?.le ?? null;
}

export async function measureAuditIngest(options: Options) {
  const ownPostgres = options.databaseUrl ? null : await startPostgres();
  const databaseUrl = options.databaseUrl ?? ownPostgres!.url;
  const natsDir = options.nats ? null : mkdtempSync(join(tmpdir(), 'warden-audit-bench-nats-'));
  const ownNats = natsDir
    ? await WardenNatsServer.start({ dir: natsDir, port: await freePort(), partitions: options.partitions, service: { user: 'warden', password: randomBytes(12).toString('hex') }, agents: [] })
    : null;
  const natsSettings = ownNats ? ownNats.service : { servers: options.nats!, user: options.user, password: options.password };
  let app: INestApplication | undefined;
  const bus = await BusConnection.open({ ...natsSettings, name: 'warden-audit-benchmark' });
  const client = new pg.Client({ connectionString: databaseUrl });
  try {
    await provision(bus.nc, bus.jsm, buildTopology({ partitions: options.partitions }));
    const dataSource = createAuditDataSource({ url: databaseUrl, poolSize: 2, runMigrations: true });
    await dataSource.initialize();
    await migrate(dataSource, 2);
    await dataSource.destroy();
    await client.connect();

    const run = `bench${Date.now().toString(36)}`;
    const throughputEvents = events(options.count, options.sessions, `${run}-t`);
    const baselineRate = await baseline(client, throughputEvents, options.batch);

    // The ingest: the backlog is in JetStream before audit starts; the rate is taken from the first
    // stored event to the last.
    await publishAll(bus, throughputEvents);
    const env = {
      ...process.env,
      DATABASE_URL: databaseUrl,
      NATS_URL: natsSettings.servers,
      NATS_USER: natsSettings.user ?? '',
      NATS_PASSWORD: natsSettings.password ?? '',
      WARDEN_PARTITIONS: String(options.partitions),
      HTTP_PORT: String(await freePort()),
      AUDIT_BATCH_SIZE: String(options.batch),
      AUDIT_RETENTION_INTERVAL_MS: '0',
      LOG_LEVEL: 'warn',
    };
    const logger = createLogger({ service: 'audit', level: 'warn' });
    app = await startService({ module: AuditAppModule.forRoot(loadAuditConfig(env), logger), logger, http: { host: '127.0.0.1', port: Number(env.HTTP_PORT) } });
    // Progress is read from the audit's own count of committed events (raised after each commit), in
    // this process: polling the table instead would load the PostgreSQL under test. The database count
    // afterwards confirms every event is stored.
    const registry = app.get(MetricsRegistry);
    const committed = async () => ((await registry.registry.getSingleMetric('warden_audit_events_stored_total')?.get())?.values ?? []).reduce((n, v) => n + v.value, 0);
    let first: { at: number; n: number; cpu: NodeJS.CpuUsage } | null = null;
    let last = { at: performance.now(), n: 0 };
    const deadline = Date.now() + 600_000;
    while (last.n < options.count) {
      if (Date.now() > deadline) throw new Error(`only ${last.n} of ${options.count} events stored after 10 minutes`);
      await new Promise((resolve) => setTimeout(resolve, 5));
      last = { at: performance.now(), n: await committed() };
      if (!first && last.n > 0) first = { ...last, cpu: process.cpuUsage() };
    }
    const ingestRate = first && last.at > first.at ? (last.n - first.n) / ((last.at - first.at) / 1000) : NaN;
    // CPU of this process (the audit, once the backlog is published) per event over the same span.
    const cpu = first ? process.cpuUsage(first.cpu) : null;
    const ingestCpuMicros = cpu && last.n > first!.n ? (cpu.user + cpu.system) / (last.n - first!.n) : NaN;
    const inStore = await stored(client, `${run}-t`);
    if (inStore !== options.count) throw new Error(`the audit counted ${last.n} events committed but the database holds ${inStore} of ${options.count}`);
    const batchText = await registry.render();
    const batchSum = Number(/^warden_audit_batch_size_sum\{[^}]*\} ([\d.e+]+)/m.exec(batchText)?.[1] ?? NaN);
    const batchCount = Number(/^warden_audit_batch_size_count\{[^}]*\} ([\d.e+]+)/m.exec(batchText)?.[1] ?? NaN);

    // The lag at a steady publish rate: what the audit histogram saw for these events alone.
    registry.registry.getSingleMetric('warden_audit_ingest_lag_seconds')?.reset();
    const lagEvents = events(options.rate * options.seconds, options.sessions, `${run}-l`);
    const perTick = Math.max(1, Math.round(options.rate / 20));
    const started = performance.now();
    for (let i = 0; i < lagEvents.length; i += perTick) {
      await publishAll(bus, lagEvents.slice(i, i + perTick));
      const due = started + ((i + perTick) / options.rate) * 1000;
      const wait = due - performance.now();
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    }
    const publishedRate = lagEvents.length / ((performance.now() - started) / 1000);
    while ((await committed()) < options.count + lagEvents.length) await new Promise((resolve) => setTimeout(resolve, 20));
    if ((await stored(client, `${run}-l`)) !== lagEvents.length) throw new Error('the lag run did not store every event');
    const metrics = await registry.render();

    await client.query(`DELETE FROM audit_event WHERE session_id LIKE $1`, [`${run}-%`]);
    await client.query(`DELETE FROM audit_chain_head WHERE session_id LIKE $1`, [`${run}-%`]);
    return {
      database: databaseUrl.replace(/\/\/[^@/]*@/, '//'),
      events: options.count,
      sessions: options.sessions,
      batch: options.batch,
      baselineInsertPerSec: round(baselineRate),
      ingestPersistedPerSec: round(ingestRate),
      ingestVsBaseline: round(ingestRate / baselineRate, 3),
      ingestMeanBatch: round(batchSum / batchCount),
      ingestCpuMicrosPerEvent: round(ingestCpuMicros),
      lag: {
        publishRatePerSec: round(publishedRate),
        events: lagEvents.length,
        p50Seconds: histogramQuantile(metrics, 'warden_audit_ingest_lag_seconds', 0.5),
        p99Seconds: histogramQuantile(metrics, 'warden_audit_ingest_lag_seconds', 0.99),
      },
    };
  } finally {
    await app?.close().catch(() => undefined);
    await client.end().catch(() => undefined);
    await bus.close();
    await ownNats?.stop();
    if (natsDir) rmSync(natsDir, { recursive: true, force: true });
    await ownPostgres?.stop();
  }
}

async function main(): Promise<void> {
  let options: Options;
  try {
    options = parseOptions(process.argv.slice(2));
  } catch (error) {
    process.stderr.write(`audit-benchmark: ${(error as Error).message}\n`);
    process.exit(2);
  }
  const figures = await measureAuditIngest(options);
  if (options.json) {
    process.stdout.write(`${JSON.stringify(figures)}\n`);
    return;
  }
  process.stdout.write(
    [
      `Audit ingest into ${figures.database}, ${figures.events} events over ${figures.sessions} sessions, batches of ${figures.batch}`,
      `raw multi-row INSERT baseline: ${figures.baselineInsertPerSec} events/s`,
      `ingest (JetStream -> audit -> PostgreSQL, hash chain, ack after commit): ${figures.ingestPersistedPerSec} events/s (${figures.ingestVsBaseline} of the baseline, ${figures.ingestMeanBatch} events per insert, ${figures.ingestCpuMicrosPerEvent} µs CPU per event)`,
      `ingest lag at ${figures.lag.publishRatePerSec} events/s: p50 <= ${figures.lag.p50Seconds} s, p99 <= ${figures.lag.p99Seconds} s (histogram bucket bounds)`,
      '',
    ].join('\n'),
  );
}

if (import.meta.url === `file://${process.argv[1]}`) {
  main().then(
    () => process.exit(0),
    (error: Error) => {
      process.stderr.write(`audit-benchmark: ${error.stack ?? error.message}\n`);
      process.exit(1);
    },
  );
}
