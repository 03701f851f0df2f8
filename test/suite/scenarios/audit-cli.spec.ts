import { spawn } from 'node:child_process';
import { join } from 'node:path';
import pg from 'pg';
import { createMessage, EXAMPLE_PAYLOADS, publishSubject } from '@warden/contracts';
import { ServiceProcess, WORKSPACE_ROOT } from '@warden/local-runtime';
import { BusConnection } from '@warden/messaging';
import { operatorToken, TestNatsServer, TestPostgres } from '@warden/testing';
import { FAST_LEASES, PARTITIONS } from './path-fixture.js';

const encoder = new TextEncoder();
const WARDEN = join(WORKSPACE_ROOT, 'apps/cli/bin/warden.js');

/** The operator CLI (`warden audit …`) against an audit process on real NATS and PostgreSQL, as the operator user. */
describe('warden audit', () => {
  let nats: TestNatsServer;
  let postgres: TestPostgres;
  let databaseUrl: string;
  let bus: BusConnection;
  let audit: ServiceProcess;
  let adminToken: string;

  beforeAll(async () => {
    nats = await TestNatsServer.start({ partitions: PARTITIONS, agents: ['agent-1'] });
    postgres = await TestPostgres.start();
    databaseUrl = await postgres.createDatabase('audit_cli');
    bus = await BusConnection.open(nats.service);
    adminToken = await operatorToken(bus.nc, 'audit-admin', 'admin');
    audit = await ServiceProcess.start({ app: 'audit', nats: nats.service, partitions: PARTITIONS, env: { ...FAST_LEASES, DATABASE_URL: databaseUrl } });
  }, 90_000);

  afterAll(async () => {
    await audit?.stop();
    await bus?.close();
    await postgres?.destroy();
    await nats?.stop();
  }, 30_000);

  function warden(args: string[], token: string | null = adminToken): Promise<{ code: number; stdout: string; stderr: string }> {
    const { user, password } = nats.operator;
    const { WARDEN_OPERATOR_TOKEN: _inherited, ...env } = process.env;
    return new Promise((resolve) => {
      const child = spawn(process.execPath, [WARDEN, 'audit', ...args], {
        env: { ...env, NO_COLOR: '1', NATS_URL: nats.url, NATS_USER: user ?? '', NATS_PASSWORD: password ?? '', ...(token ? { WARDEN_OPERATOR_TOKEN: token } : {}) },
      });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
      child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
      child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr }));
    });
  }

  async function sql(text: string, params: unknown[] = []) {
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    try {
      return (await client.query(text, params)).rows;
    } finally {
      await client.end();
    }
  }

  async function storeSession(session: string, count: number): Promise<void> {
    const start = Date.now() - 60_000;
    for (let i = 0; i < count; i++) {
      const type = i % 2 ? 'action.outcome' : 'action.proposed';
      const message = createMessage(type, {
        session_id: session,
        agent_id: 'agent-1',
        timestamp: new Date(start + i * 1000).toISOString(),
        payload: { ...EXAMPLE_PAYLOADS[type], action_id: `a${i >> 1}` } as never,
      });
      await bus.js.publish(publishSubject(type === 'action.proposed' ? 'action' : 'outcome', 'agent-1', session), encoder.encode(JSON.stringify(message)), { msgID: message.id });
    }
    const deadline = Date.now() + 20_000;
    while ((await sql('SELECT count(*)::int AS n FROM audit_event WHERE session_id = $1', [session]))[0].n < count) {
      if (Date.now() > deadline) throw new Error('events not stored in time');
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  it('verifies the chain, then names the first broken link of a tampered session and exits 1', async () => {
    await storeSession('cli-good', 4);
    await storeSession('cli-bad', 6);
    const ok = await warden(['verify']);
    expect(ok).toMatchObject({ code: 0, stdout: expect.stringContaining('hash chain holds: 2 session(s), 10 link(s)') });

    const [row] = await sql(`SELECT id FROM audit_event WHERE session_id = 'cli-bad' AND chain_seq = 4`);
    await sql(`UPDATE audit_event SET payload = payload || '{"tool":"Write"}' WHERE id = $1`, [row.id]);
    const broken = await warden(['verify']);
    expect(broken.code).toBe(1);
    expect(broken.stdout).toContain(`cli-bad link 4 (event ${row.id}): altered`);
    expect(broken.stdout).not.toContain('cli-good');
    expect((await warden(['verify', '--session', 'cli-good'])).code).toBe(0);
  });

  it('prints a session timeline and runs retention', async () => {
    await storeSession('cli-timeline', 4);
    const timeline = await warden(['timeline', 'cli-timeline']);
    expect(timeline.code).toBe(0);
    expect(timeline.stdout.trim().split('\n').map((line) => line.split(/\s+/)[2])).toEqual(['action.proposed', 'action.outcome', 'action.proposed', 'action.outcome']);
    const retention = await warden(['retention']);
    expect(retention).toMatchObject({ code: 0, stdout: expect.stringMatching(/retention deleted decisions 0, .*events 0; 0 empty chain/) });
    const query = await warden(['query', 'trace_events', '--param', 'trace_id=nope']);
    expect(query.code).toBe(0);
    expect(JSON.parse(query.stdout)).toMatchObject({ query: 'trace_events', rows: [] });
  });

  it('refuses bad usage with exit 2 and a bad query with the reason', async () => {
    expect(await warden(['frobnicate'])).toMatchObject({ code: 2, stderr: expect.stringContaining('unknown audit command') });
    expect(await warden(['timeline'])).toMatchObject({ code: 2, stderr: expect.stringContaining('needs the session id') });
    expect(await warden(['query', 'breaker_history', '--param', 'breaker=fuse'])).toMatchObject({ code: 1, stderr: expect.stringContaining('invalid_param: breaker') });
  });

  it('sends the operator token: none is a usage error, a viewer may read but not run retention', async () => {
    expect(await warden(['verify'], null)).toMatchObject({ code: 2, stderr: expect.stringContaining('WARDEN_OPERATOR_TOKEN') });
    const viewer = await operatorToken(bus.nc, 'audit-viewer', 'viewer');
    expect((await warden(['query', 'incidents'], viewer)).code).toBe(0);
    expect(await warden(['retention'], viewer)).toMatchObject({ code: 1, stderr: expect.stringContaining('forbidden: operator audit-viewer is a viewer') });
    expect(await warden(['verify'], `wdn_${'q'.repeat(43)}`)).toMatchObject({ code: 1, stderr: expect.stringContaining('unauthorized: invalid_token') });
  });
});
