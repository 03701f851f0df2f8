import pg from 'pg';
import { createMessage, EXAMPLE_PAYLOADS, publishSubject, type AnyMessage } from '@warden/contracts';
import { ServiceProcess } from '@warden/local-runtime';
import { BusConnection, streamName } from '@warden/messaging';
import { eventually, TestNatsServer, TestPostgres } from '@warden/testing';
import { FAST_LEASES, PARTITIONS } from '../scenarios/path-fixture.js';

const encoder = new TextEncoder();
const SESSIONS = 20;
/** How long PostgreSQL stays down. */
const OUTAGE_MS = 60_000;
/** While it is down, events keep coming at this pace. */
const EVENT_EVERY_MS = 100;

/**
 * The audit service on a real nats-server and a real PostgreSQL. Events are published before, during
 * and after 60 s in which the database is down: writing is a transient failure, retried for as long as
 * it takes, so every event ends up in the audit exactly once, each session's hash chain without a gap
 * or a repeat, and nothing is dead-lettered.
 */
describe('PostgreSQL down for 60 s under the audit', () => {
  it('stores every event in the audit once', async () => {
    const nats = await TestNatsServer.start({ partitions: PARTITIONS, agents: ['agent-1'] });
    const postgres = await TestPostgres.start();
    let audit: ServiceProcess | undefined;
    let bus: BusConnection | undefined;
    try {
      const databaseUrl = await postgres.createDatabase('audit_outage');
      audit = await ServiceProcess.start({ app: 'audit', nats: nats.service, partitions: PARTITIONS, env: { ...FAST_LEASES, DATABASE_URL: databaseUrl } });
      bus = await BusConnection.open(nats.service);
      const published: AnyMessage[] = [];
      const publish = async () => {
        const message = event(published.length);
        published.push(message);
        await bus!.js.publish(publishSubject(message.type === 'action.proposed' ? 'action' : 'outcome', 'agent-1', message.session_id), encoder.encode(JSON.stringify(message)), { msgID: message.id });
      };
      const stored = () => count(databaseUrl, 'SELECT count(*)::int AS n FROM audit_event');

      for (let i = 0; i < 100; i++) await publish();
      await eventually('the events before the outage in the audit', stored, (n) => n === 100, { timeoutMs: 60_000 });

      await postgres.stop();
      const downUntil = Date.now() + OUTAGE_MS;
      while (Date.now() < downUntil) {
        await publish();
        await new Promise((resolve) => setTimeout(resolve, EVENT_EVERY_MS));
      }
      await postgres.start();
      for (let i = 0; i < 100; i++) await publish();

      await eventually('every event in the audit', stored, (n) => n >= published.length, { timeoutMs: 120_000, intervalMs: 250 });
      const rows = await query<{ id: string; session_id: string; chain_seq: string }>(databaseUrl, 'SELECT id, session_id, chain_seq FROM audit_event ORDER BY session_id, chain_seq');
      expect(rows.map((r) => r.id).sort()).toEqual(published.map((m) => m.id).sort());
      // Each session's chain: links 1..n over exactly its events, none twice, none missing. (Proposals
      // and outcomes come from different streams: the chain holds them in the order they were stored.)
      for (let s = 0; s < SESSIONS; s++) {
        const session = `db-outage-${s}`;
        const chain = rows.filter((r) => r.session_id === session);
        expect(chain.map((r) => Number(r.chain_seq))).toEqual(chain.map((_, i) => i + 1));
        expect(chain.map((r) => r.id).sort()).toEqual(published.filter((m) => m.session_id === session).map((m) => m.id).sort());
      }
      const deadLetters = await bus.jsm.streams.info(streamName('deadletter'));
      expect(deadLetters.state.messages).toBe(0);
    } finally {
      await bus?.close();
      await audit?.stop();
      await postgres.destroy();
      await nats.stop();
    }
  }, 300_000);
});

/** Event `n`: proposals and outcomes of the sessions in turn. */
function event(n: number): AnyMessage {
  const session = `db-outage-${n % SESSIONS}`;
  const step = Math.floor(n / SESSIONS);
  const type = step % 2 ? 'action.outcome' : 'action.proposed';
  return createMessage(type, { session_id: session, agent_id: 'agent-1', payload: { ...EXAMPLE_PAYLOADS[type], action_id: `a${step >> 1}` } as never }) as AnyMessage;
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

async function count(url: string, text: string): Promise<number> {
  return (await query<{ n: number }>(url, text))[0]!.n;
}
