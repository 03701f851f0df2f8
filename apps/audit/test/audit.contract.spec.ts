import pg from 'pg';
import { describeServiceContract, TestPostgres } from '@warden/testing';
import { AuditAppModule } from '../src/app.module.js';
import { loadAuditConfig } from '../src/config.js';

const encoder = new TextEncoder();
let postgres: TestPostgres;
let databaseUrl: string;

async function rows(sql: string, params: unknown[] = []) {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    return (await client.query(sql, params)).rows;
  } finally {
    await client.end();
  }
}

async function waitForRows(sql: string, params: unknown[], count: number) {
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline) {
    const found = await rows(sql, params);
    if (found.length >= count) return found;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`expected ${count} rows for ${sql}`);
}

describeServiceContract(
  {
    service: 'audit',
    createModule: (env, logger) => AuditAppModule.forRoot(loadAuditConfig(env), logger),
    prepare: async () => {
      postgres = await TestPostgres.start();
      databaseUrl = await postgres.createDatabase('audit_contract');
      return { env: { DATABASE_URL: databaseUrl }, cleanup: () => postgres.destroy() };
    },
  },
  (harness) => {
    describe('the audit store', () => {
      it('stores an event once, even when it is delivered twice', async () => {
        const action = harness.example('action.proposed') as { id: string; session_id: string };
        const bytes = encoder.encode(JSON.stringify(action));
        await harness.publishRaw('action', action.session_id, bytes, `${action.id}-first`);
        await harness.publishRaw('action', action.session_id, bytes, `${action.id}-second`);
        await waitForRows('SELECT id FROM audit_event WHERE id = $1', [action.id], 1);
        await new Promise((resolve) => setTimeout(resolve, 300));
        expect(await rows('SELECT id, session_id, agent_id, type, channel FROM audit_event WHERE id = $1', [action.id])).toEqual([
          { id: action.id, session_id: action.session_id, agent_id: 'agent-1', type: 'action.proposed', channel: 'action' },
        ]);
      });

      it('never stores a secret of a tool input', async () => {
        const action = harness.example('action.proposed') as { id: string; session_id: string; payload: Record<string, unknown> };
        action.payload.input = { command: 'PGPASSWORD=hunter2hunter2 psql -h db', env: { GITHUB_TOKEN: 'ghp_abcdefghijklmnopqrstuvwxyz0123456789' } };
        await harness.publishRaw('action', action.session_id, encoder.encode(JSON.stringify(action)), action.id);
        const [row] = await waitForRows('SELECT payload::text AS payload FROM audit_event WHERE id = $1', [action.id], 1);
        expect(row.payload).not.toContain('hunter2hunter2');
        expect(row.payload).not.toContain('ghp_abcdefghijklmnopqrstuvwxyz0123456789');
        expect(row.payload).toContain('[REDACTED:');
        const metrics = await (await fetch(`${harness.service.url}/metrics`)).text();
        expect(metrics).toMatch(/warden_secrets_redacted_total\{kind="assigned_secret",service="audit"\} [1-9]/);
      });

      it('keeps an event whose text holds NUL characters', async () => {
        const outcome = harness.example('action.outcome') as { id: string; session_id: string; payload: Record<string, unknown> };
        outcome.payload.output_excerpt = 'binary\u0000output';
        await harness.publishRaw('outcome', outcome.session_id, encoder.encode(JSON.stringify(outcome)), outcome.id);
        const [row] = await waitForRows(`SELECT payload->>'output_excerpt' AS excerpt FROM audit_event WHERE id = $1`, [outcome.id], 1);
        expect(row.excerpt).toBe('binary\ufffdoutput');
      });

      it('reports the database in its readiness', async () => {
        const ready = (await (await fetch(`${harness.service.url}/health/ready`)).json()) as { checks: Record<string, unknown> };
        expect(ready.checks.database).toEqual({ up: true });
      });
    });
  },
);
