import pg from 'pg';
import { CHANNELS, createMessage, definitionOf, EXAMPLE_PAYLOADS, MESSAGE_DEFINITIONS, newMessageId, requestSubject, type MessageOf } from '@warden/contracts';
import { headers as natsHeaders } from '@nats-io/transport-node';
import { describeServiceContract, operatorToken, TestPostgres } from '@warden/testing';
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


const AGENT = 'agent-1';

/** Publishes a message on its channel's subject for its session, under a given Nats-Msg-Id. */
async function publish(harness: { publishRaw(channel: never, sessionId: string, data: Uint8Array, id?: string): Promise<string> }, message: { id: string; type: string; session_id: string }, msgId = message.id) {
  const channel = definitionOf(message.type)!.channel;
  await harness.publishRaw(channel as never, message.session_id, encoder.encode(JSON.stringify(message)), msgId);
}

/** A message of `type` with the contract's example payload, changed by `payload`. */
function message<T extends Parameters<typeof createMessage>[0]>(type: T, sessionId: string, at: Date, payload: Record<string, unknown> = {}, extra: Record<string, unknown> = {}) {
  const base = EXAMPLE_PAYLOADS[type] as Record<string, unknown>;
  return { ...createMessage(type, { session_id: sessionId, agent_id: AGENT, timestamp: at.toISOString(), payload: { ...base, ...payload } as never }), ...extra } as MessageOf<T>;
}

async function count(ids: string[]): Promise<number> {
  const [row] = await rows('SELECT count(*)::int AS n FROM audit_event WHERE id = ANY($1)', [ids]);
  return row.n as number;
}

async function waitForCount(ids: string[], expected: number, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if ((await count(ids)) >= expected) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`expected ${expected} of ${ids.length} events stored, found ${await count(ids)}`);
}

async function metric(url: string, name: string, labels: Record<string, string> = {}): Promise<number> {
  const text = await (await fetch(`${url}/metrics`)).text();
  let total = 0;
  for (const line of text.split('\n')) {
    if (!line.startsWith(`${name}{`) && !line.startsWith(`${name} `)) continue;
    if (Object.entries(labels).every(([k, v]) => line.includes(`${k}="${v}"`))) total += Number(line.slice(line.lastIndexOf(' ') + 1));
  }
  return total;
}

/** The admin's API token the calls of this file send unless they say otherwise (set once the harness runs). */
let adminToken = '';

async function getJson(url: string, init: RequestInit = {}, token: string | null = adminToken): Promise<{ status: number; body: Record<string, any> }> {
  const response = await fetch(url, { ...init, headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(init.headers as Record<string, string>) } });
  return { status: response.status, body: (await response.json()) as Record<string, any> };
}

describeServiceContract(
  {
    service: 'audit',
    createModule: (env, logger) => AuditAppModule.forRoot(loadAuditConfig(env), logger),
    prepare: async () => {
      postgres = await TestPostgres.start();
      databaseUrl = await postgres.createDatabase('audit_contract');
      return {
        env: { DATABASE_URL: databaseUrl, AUDIT_BATCH_WAIT_MS: '5', AUDIT_RETENTION_INTERVAL_MS: '0', AUDIT_GAUGE_REFRESH_MS: '200' },
        cleanup: () => postgres.destroy(),
      };
    },
  },
  (harness) => {
    /** An audit.query on the bus, with an operator's token in its Authorization header (null: none). */
    async function ask(query: unknown, token: string | null = adminToken): Promise<MessageOf<'audit.result'>> {
      const h = natsHeaders();
      if (token) h.set('Authorization', `Bearer ${token}`);
      return (await harness.bus.nc.request(requestSubject('audit_query'), encoder.encode(JSON.stringify(query)), { timeout: 10_000, headers: h })).json<MessageOf<'audit.result'>>();
    }

    beforeAll(async () => {
      adminToken = await operatorToken(harness.bus.nc, 'audit-admin', 'admin');
    });

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

      it('keeps an action whose text holds a lone surrogate, with the surrogate escaped, and chains it', async () => {
        const action = harness.example('action.proposed') as { id: string; session_id: string; payload: Record<string, unknown> };
        action.session_id = `surrogate-${newMessageId().slice(0, 8)}`;
        action.payload = { ...action.payload, action_id: 'lone', tool: 'Bash', input: { command: 'ls \ud800 \udfff ok \ud83d\ude00' } };
        await harness.publishRaw('action', action.session_id, encoder.encode(JSON.stringify(action)), action.id);
        const [row] = await waitForRows(`SELECT payload->'input'->>'command' AS command, hash FROM audit_event WHERE id = $1`, [action.id], 1);
        // Written out, where jsonb refuses them; a well-formed pair (an emoji) stays as it is.
        expect(row.command).toBe('ls \\ud800 \\udfff ok \ud83d\ude00');
        expect(row.hash).toMatch(/^[0-9a-f]{64}$/);
      });

      it('stores every event type once when each is delivered twice, counts it once, and chains the session', async () => {
        const session = `twice-${newMessageId().slice(0, 8)}`;
        const decisionsBefore = await metric(harness.service.url, 'warden_suite_decisions_total', { decision: 'deny', verdict: 'block' });
        const ids: string[] = [];
        for (const definition of MESSAGE_DEFINITIONS) {
          if (CHANNELS[definition.channel].kind === 'request') continue;
          const event = harness.example(definition.type, session) as { id: string; type: string; session_id: string };
          await publish(harness, event, `${event.id}-first`);
          await publish(harness, event, `${event.id}-second`);
          ids.push(event.id);
        }
        await waitForCount(ids, ids.length);
        await new Promise((resolve) => setTimeout(resolve, 500));
        const stored = await rows('SELECT type, count(*)::int AS n FROM audit_event WHERE id = ANY($1) GROUP BY type', [ids]);
        expect(stored).toHaveLength(ids.length);
        expect(stored.every((r) => r.n === 1)).toBe(true);
        expect(await metric(harness.service.url, 'warden_suite_decisions_total', { decision: 'deny', verdict: 'block' })).toBe(decisionsBefore + 1);
        const chain = await rows('SELECT chain_seq FROM audit_event WHERE session_id = $1 ORDER BY chain_seq', [session]);
        expect(chain.map((r) => Number(r.chain_seq))).toEqual(chain.map((_, i) => i + 1));
        const verify = await getJson(`${harness.service.url}/audit/chain/verify?session_id=${session}`);
        expect(verify.body.rows[0]).toMatchObject({ ok: true, sessions_checked: 1, links_checked: chain.length });
      });

      it('loses nothing and stores nothing twice when PostgreSQL stops during ingest', async () => {
        const session = `pgstop-${newMessageId().slice(0, 8)}`;
        const start = Date.now();
        const events = Array.from({ length: 40 }, (_, i) => message('action.proposed', session, new Date(start + i), { action_id: `a${i}` }));
        for (const event of events.slice(0, 10)) await publish(harness, event);
        const retriesBefore = await metric(harness.service.url, 'warden_messages_failed_total', { disposition: 'retry' });
        await postgres.stop();
        try {
          for (const event of events.slice(10)) await publish(harness, event);
          for (const event of events.slice(0, 5)) await publish(harness, event, `${event.id}-again`);
          await new Promise((resolve) => setTimeout(resolve, 1_500));
          // The writes failed while the database was down: the messages were left for redelivery.
          expect(await metric(harness.service.url, 'warden_messages_failed_total', { disposition: 'retry' })).toBeGreaterThan(retriesBefore);
        } finally {
          await postgres.start();
        }
        const ids = events.map((e) => e.id);
        await waitForCount(ids, ids.length, 60_000);
        await new Promise((resolve) => setTimeout(resolve, 500));
        expect(await count(ids)).toBe(40);
        const verify = await getJson(`${harness.service.url}/audit/chain/verify?session_id=${session}`);
        expect(verify.body.rows[0]).toMatchObject({ ok: true, links_checked: 40 });
      }, 120_000);

      it('never writes a secret into any column of a row', async () => {
        const session = `secret-${newMessageId().slice(0, 8)}`;
        const secrets = [
          'AKIAIOSFODNN7EXAMPLE',
          'sk-ant-api03-abcdefghijklmnopqrstuvwxyz012345',
          'ghp_abcdefghijklmnopqrstuvwxyz0123456789',
          'correct-horse-battery-staple',
          'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U',
          'MIIEowIBAAKCAQEAu1SU1LfVLPHCozMxH2Mo4lgOEePzNm0tRgeLezV6ffAt0gunVTLw7onLRnrq0',
          'pa55w0rd-in-url',
        ];
        const event = message('action.proposed', session, new Date(), {
          input: {
            command: `AWS_ACCESS_KEY_ID=${secrets[0]} ANTHROPIC_API_KEY=${secrets[1]} ./deploy.sh`,
            headers: { Authorization: `Bearer ${secrets[2]}` },
            password: secrets[3],
            note: `token ${secrets[4]}`,
            key: `-----BEGIN RSA PRIVATE KEY-----\n${secrets[5]}\n-----END RSA PRIVATE KEY-----`,
            url: `postgres://admin:${secrets[6]}@db:5432/app`,
          },
        });
        const before = await metric(harness.service.url, 'warden_secrets_redacted_total');
        await publish(harness, event);
        await waitForCount([event.id], 1);
        const [row] = await rows('SELECT t::text AS everything FROM audit_event t WHERE id = $1', [event.id]);
        for (const secret of secrets) expect(row.everything).not.toContain(secret);
        expect(row.everything).toContain('[REDACTED:');
        expect(await metric(harness.service.url, 'warden_secrets_redacted_total')).toBeGreaterThanOrEqual(before + secrets.length);
        const verify = await getJson(`${harness.service.url}/audit/chain/verify?session_id=${session}`);
        expect(verify.body.rows[0].ok).toBe(true);
      });

      it('finds a row altered in the database, by HTTP and over the bus', async () => {
        const session = `tamper-${newMessageId().slice(0, 8)}`;
        const start = Date.now();
        const events = Array.from({ length: 5 }, (_, i) => message('action.outcome', session, new Date(start + i), { action_id: `a${i}` }));
        for (const event of events) await publish(harness, event);
        await waitForCount(events.map((e) => e.id), 5);
        expect((await getJson(`${harness.service.url}/audit/chain/verify?session_id=${session}`)).body.rows[0].ok).toBe(true);
        const [target] = await rows('SELECT id FROM audit_event WHERE session_id = $1 AND chain_seq = 3', [session]);
        await rows(`UPDATE audit_event SET payload = jsonb_set(payload, '{status}', '"success"') WHERE id = $1`, [target.id]);
        const verify = await getJson(`${harness.service.url}/audit/chain/verify?session_id=${session}`);
        expect(verify.body.rows[0]).toMatchObject({ ok: false, first_broken: { sessionId: session, chainSeq: 3, eventId: target.id, problem: 'altered' } });
        const all = await getJson(`${harness.service.url}/audit/chain/verify`);
        expect(all.body.rows[0].ok).toBe(false);
        expect(all.body.rows[0].broken.map((b: { sessionId: string }) => b.sessionId)).toContain(session);

        await rows('DELETE FROM audit_event WHERE session_id = $1 AND chain_seq = 5', [session]);
        await rows(`UPDATE audit_event SET payload = jsonb_set(payload, '{status}', '"error"') WHERE id = $1`, [target.id]);
        const query = createMessage('audit.query', { session_id: '_', agent_id: '_', payload: { query: 'chain_verify', params: { session_id: session } } });
        const result = await ask(query);
        expect(result).toMatchObject({ type: 'audit.result', causation_id: query.id, payload: { query: 'chain_verify' } });
        expect(result.payload.rows[0]).toMatchObject({ ok: false, first_broken: { chainSeq: 5, problem: 'missing' } });
      });

      it('retention deletes only what is past its table’s retention, and the chain still verifies', async () => {
        const session = `retention-${newMessageId().slice(0, 8)}`;
        const day = 86_400_000;
        const now = Date.now();
        const oldAction = message('action.proposed', session, new Date(now - 100 * day));
        const oldCost = message('breaker.cost_recorded', session, new Date(now - 100 * day + 1));
        const oldDecision = message('decision.made', session, new Date(now - 400 * day));
        const recentAction = message('action.proposed', session, new Date(now - 10 * day));
        const recentDecision = message('decision.made', session, new Date(now - 300 * day));
        const all = [oldDecision, recentDecision, oldAction, oldCost, recentAction];
        for (const event of all) await publish(harness, event);
        await waitForCount(all.map((e) => e.id), all.length);
        const run = await getJson(`${harness.service.url}/audit/retention/run`, { method: 'POST' });
        expect(run.status).toBe(200);
        expect(run.body.rows[0].ran).toBe(true);
        expect(run.body.rows[0].deleted.events).toBeGreaterThanOrEqual(1);
        expect(run.body.rows[0].deleted.decisions).toBeGreaterThanOrEqual(1);
        const left = (await rows('SELECT id FROM audit_event WHERE session_id = $1', [session])).map((r) => r.id).sort();
        expect(left).toEqual([oldCost.id, recentAction.id, recentDecision.id].sort());
        const tombstones = (await rows('SELECT event_id FROM audit_chain_tombstone WHERE session_id = $1', [session])).map((r) => r.event_id).sort();
        expect(tombstones).toEqual([oldAction.id, oldDecision.id].sort());
        expect((await getJson(`${harness.service.url}/audit/chain/verify?session_id=${session}`)).body.rows[0]).toMatchObject({ ok: true, links_checked: 5 });
        const [logged] = await rows(`SELECT count(*)::int AS n FROM audit_retention_run WHERE table_name = 'events'`);
        expect(logged.n).toBeGreaterThanOrEqual(1);
      });

      it('answers the queries of a session drill-down, with HITL interventions where the pause happened', async () => {
        const session = `drill-${newMessageId().slice(0, 8)}`;
        const gate = `gate_${newMessageId().slice(0, 6)}`;
        const t0 = Date.now() - 60_000;
        const at = (s: number) => new Date(t0 + s * 1000);
        const events = [
          message('session.started', session, at(0)),
          message('action.proposed', session, at(1), { action_id: 'a1' }),
          message('review.verdict', session, at(2), { action_id: 'a1', verdict: 'allow' }),
          message('decision.made', session, at(3), { action_id: 'a1', decision: 'allow', verdict: 'allow' }),
          message('hitl.paused', session, at(4)),
          // Published late: its record says when the rewrite took effect, inside the pause.
          message('hitl.intervention_recorded', session, at(9), { occurred_at: at(5).toISOString(), command_type: 'hitl_rewrite' }),
          message('hitl.resumed', session, at(6)),
          message('decision.made', session, at(7), { action_id: 'a2', decision: 'allow', verdict: 'allow' }),
          message('gate.requested', session, at(8), { gate_id: gate, request_id: `${gate}-1` }),
          message('gate.responded', session, at(10), { gate_id: gate, request_id: `${gate}-1`, approved: true, response_ms: 2000 }),
          message('gate.requested', session, at(11), { gate_id: gate, request_id: `${gate}-2` }),
          message('gate.responded', session, at(12), { gate_id: gate, request_id: `${gate}-2`, approved: false, response_ms: 4000, outcome: 'rejected' }),
          message('breaker.cost_recorded', session, at(13), { phase: 'implementation', model: 'model-a', cost_usd: 0.5 }),
          message('breaker.cost_recorded', session, at(14), { phase: 'testing', model: 'model-b', cost_usd: 0.25 }),
          message('breaker.tripped', session, at(15), { breaker: 'cost' }),
          message('incident.created', session, at(16)),
        ];
        for (const event of events) await publish(harness, event);
        await waitForCount(events.map((e) => e.id), events.length);
        const url = harness.service.url;

        const timeline = (await getJson(`${url}/audit/sessions/${session}/timeline`)).body;
        expect(timeline.rows.map((r: { type: string }) => r.type)).toEqual([
          'session.started', 'action.proposed', 'review.verdict', 'decision.made', 'hitl.paused', 'hitl.intervention_recorded',
          'hitl.resumed', 'decision.made', 'gate.requested', 'gate.responded', 'gate.requested', 'gate.responded',
          'breaker.cost_recorded', 'breaker.cost_recorded', 'breaker.tripped', 'incident.created',
        ]);
        expect(timeline.rows.slice(3, 8).map((r: { pause_window: number | null }) => r.pause_window)).toEqual([null, 1, 1, 1, null]);
        expect(timeline.rows[5]).toMatchObject({ kind: 'hitl_intervention', at: at(5).toISOString() });

        const pages: string[] = [];
        let cursor: string | undefined;
        do {
          const page = (await getJson(`${url}/audit/sessions/${session}/timeline?limit=3${cursor ? `&cursor=${cursor}` : ''}`)).body;
          pages.push(...page.rows.map((r: { id: string }) => r.id));
          cursor = page.next_cursor;
        } while (cursor);
        expect(pages).toEqual(timeline.rows.map((r: { id: string }) => r.id));

        const trace = (await getJson(`${url}/audit/traces/${events[1]!.trace_id}/events`)).body;
        expect(trace.rows.map((r: { id: string }) => r.id)).toEqual([events[1]!.id]);

        expect((await getJson(`${url}/audit/gates/stats?gate_id=${gate}`)).body.rows.find((r: { gate_id: string }) => r.gate_id === gate)).toMatchObject({
          requested: 2,
          approved: 1,
          rejected: 1,
          approval_rate: 0.5,
          mean_response_ms: 3000,
        });
        expect((await getJson(`${url}/audit/gates/events?session_id=${session}`)).body.rows).toHaveLength(6);
        expect((await getJson(`${url}/audit/costs?session_id=${session}`)).body.rows[0]).toMatchObject({
          total_usd: 0.75,
          events: 2,
          by_phase: { implementation: 0.5, testing: 0.25 },
          by_model: { 'model-a': 0.5, 'model-b': 0.25 },
        });
        expect((await getJson(`${url}/audit/breakers/trips?session_id=${session}&breaker=cost`)).body.rows).toHaveLength(1);
        expect((await getJson(`${url}/audit/breakers/trips?session_id=${session}&breaker=time`)).body.rows).toHaveLength(0);
        expect((await getJson(`${url}/audit/incidents?session_id=${session}`)).body.rows).toHaveLength(1);

        const paused = `paused-${newMessageId().slice(0, 8)}`;
        const pause = message('hitl.paused', paused, new Date());
        await publish(harness, pause);
        await waitForCount([pause.id], 1);
        const pausedIds = (await getJson(`${url}/audit/sessions/paused?limit=1000`)).body.rows.map((r: { session_id: string }) => r.session_id);
        expect(pausedIds).toContain(paused);
        expect(pausedIds).not.toContain(session);

        const query = createMessage('audit.query', { session_id: '_', agent_id: '_', payload: { query: 'session_timeline', params: { session_id: session }, limit: 1000 } });
        const reply = await ask(query);
        expect(reply.payload.rows.map((r) => r.id)).toEqual(timeline.rows.map((r: { id: string }) => r.id));
      });

      it.each([
        ['/audit/breakers/trips?breaker=fuse', 'invalid_param: breaker'],
        ['/audit/costs', 'missing_param: one of'],
        ['/audit/incidents?limit=0', 'invalid_param: limit'],
        ['/audit/incidents?colour=red', 'unknown_param: colour'],
        ['/audit/sessions/bad%20id/timeline', 'invalid_param: session_id'],
        ['/audit/incidents?cursor=garbage', 'invalid_param: cursor'],
      ])('answers GET %s with 400 and the reason', async (path, reason) => {
        const { status, body } = await getJson(`${harness.service.url}${path}`);
        expect(status).toBe(400);
        expect(body.reason).toContain(reason);
      });

      it('answers a bad query on the bus with the reason', async () => {
        const query = createMessage('audit.query', { session_id: '_', agent_id: '_', payload: { query: 'breaker_history', params: { breaker: 'fuse' } } });
        const reply = await ask(query);
        expect(reply.payload).toMatchObject({ query: 'breaker_history', rows: [], error: expect.stringContaining('invalid_param: breaker') });
        const garbage = (await harness.bus.nc.request(requestSubject('audit_query'), encoder.encode('{"not":"a query"'), { timeout: 10_000 })).json<{ error: string }>();
        expect(garbage.error).toContain('invalid_json');
      });

      it('serves its OpenAPI description', async () => {
        const { status, body } = await getJson(`${harness.service.url}/audit/openapi.json`);
        expect(status).toBe(200);
        expect(Object.keys(body.paths)).toContain('/audit/sessions/{session_id}/timeline');
      });

      it('needs an operator on HTTP: 401 with the reason, 403 for a role that may not, and then nothing runs', async () => {
        const url = `${harness.service.url}/audit/incidents`;
        const none = await fetch(url);
        expect(none.status).toBe(401);
        expect(none.headers.get('www-authenticate')).toContain('Bearer');
        expect(await none.json()).toMatchObject({ status: 'error', reason: 'missing_credentials' });
        expect((await getJson(url, { headers: { 'X-Observatory-Operator-Id': 'audit-admin' } }, null)).body.reason).toBe('missing_credentials');
        expect((await getJson(url, {}, `wdn_${'z'.repeat(43)}`)).body).toMatchObject({ reason: 'invalid_token' });
        expect((await getJson(url, { headers: { authorization: 'Token abc' } }, null)).body).toMatchObject({ reason: 'malformed_authorization' });
        expect((await getJson(url, { headers: { 'X-Observatory-Operator-Id': 'someone-else' } })).body).toMatchObject({ reason: 'operator_id_mismatch' });

        const viewer = await operatorToken(harness.bus.nc, 'audit-viewer', 'viewer');
        expect((await getJson(url, {}, viewer)).status).toBe(200);
        const runsBefore = (await rows('SELECT count(*)::int AS n FROM audit_retention_run'))[0].n;
        for (const token of [null, viewer]) {
          const refused = await getJson(`${harness.service.url}/audit/retention/run`, { method: 'POST' }, token);
          expect(refused).toMatchObject({ status: token ? 403 : 401, body: { status: 'error', reason: token ? 'forbidden' : 'missing_credentials' } });
        }
        expect((await rows('SELECT count(*)::int AS n FROM audit_retention_run'))[0].n).toBe(runsBefore);
        expect((await getJson(`${harness.service.url}/audit/openapi.json`, {}, null)).status).toBe(200);
      });

      it('needs an operator on the bus too, and says why it refused', async () => {
        const query = createMessage('audit.query', { session_id: '_', agent_id: '_', payload: { query: 'incidents', params: {} } });
        expect((await ask(query, null)).payload).toEqual({ query: 'incidents', rows: [], error: expect.stringMatching(/^unauthorized: missing_credentials/) });
        expect((await ask(query, `wdn_${'z'.repeat(43)}`)).payload.error).toMatch(/^unauthorized: invalid_token/);
        expect((await ask(query)).payload.error).toBeUndefined();
        const viewer = await operatorToken(harness.bus.nc, 'audit-viewer-bus', 'viewer');
        const retention = createMessage('audit.query', { session_id: '_', agent_id: '_', payload: { query: 'retention_run', params: {} } });
        expect((await ask(retention, viewer)).payload.error).toBe('forbidden: operator audit-viewer-bus is a viewer; retention_run needs administer');
      });

      it('reports the database in its readiness', async () => {
        const ready = (await (await fetch(`${harness.service.url}/health/ready`)).json()) as { checks: Record<string, unknown> };
        expect(ready.checks.database).toEqual({ up: true });
      });
    });
  },
);
