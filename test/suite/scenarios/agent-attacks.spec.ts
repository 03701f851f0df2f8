import { connect, type NatsConnection } from '@nats-io/transport-node';
import { checkpointBucket } from '@warden/contracts';
import { BusConnection, consumerName, streamName } from '@warden/messaging';
import { TestNatsServer } from '@warden/testing';

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/**
 * An agent is the party Warden supervises: it may be wrong, or steered by a prompt injection. With
 * nothing but its own NATS credentials and the NATS client library it must not be able to change what
 * Warden sees. Each test is an attack as an agent would make it; each must be refused or change nothing.
 */
describe('an agent attacking Warden with its own credentials', () => {
  let nats: TestNatsServer;
  let bus: BusConnection;
  let mallory: NatsConnection;

  beforeAll(async () => {
    nats = await TestNatsServer.start({ partitions: 4, agents: ['mallory', 'alice'] });
    bus = await BusConnection.open(nats.service);
    const settings = nats.agent('mallory');
    mallory = await connect({ servers: settings.servers, user: settings.user, pass: settings.password, inboxPrefix: '_INBOX_mallory' });
  }, 60_000);

  afterAll(async () => {
    await mallory?.close();
    await bus?.close();
    await nats?.stop();
  });

  /** A JetStream API request as the agent: the server's answer, or the error the client raised (a permission violation). */
  async function api(subject: string, request: unknown): Promise<{ answer?: Record<string, unknown>; refused?: string }> {
    try {
      const reply = await mallory.request(subject, encoder.encode(JSON.stringify(request)), { timeout: 2_000 });
      return { answer: JSON.parse(decoder.decode(reply.data)) as Record<string, unknown> };
    } catch (error) {
      return { refused: (error as Error).message };
    }
  }

  it('cannot refilter another service\'s consumer to blind it (the audit\'s durable on the control stream)', async () => {
    const stream = streamName('control');
    const audit = consumerName('audit', 'control', 2);
    const before = await bus.jsm.consumers.info(stream, audit);
    const filter = 'warden.control.*.mallory.*';
    const attempt = await api(`$JS.API.CONSUMER.CREATE.${stream}.${audit}.${filter}`, {
      stream_name: stream,
      config: { ...before.config, durable_name: audit, filter_subject: filter },
    });
    expect(attempt.refused).toMatch(/permission/i);
    expect((await bus.jsm.consumers.info(stream, audit)).config.filter_subject).toBe(before.config.filter_subject);
  });

  it('cannot create a consumer on its own checkpoint store that delivers into Warden\'s decisions', async () => {
    const stream = `OBJ_${checkpointBucket('mallory')}`;
    const forged = 'warden.decision.0.alice.s-1';
    const attempt = await api(`$JS.API.CONSUMER.CREATE.${stream}`, {
      stream_name: stream,
      config: { deliver_subject: forged, ack_policy: 'none', deliver_policy: 'all' },
    });
    expect(attempt.refused).toMatch(/permission/i);
    expect((await bus.jsm.streams.info(streamName('decision'))).state.messages).toBe(0);
    expect(await bus.jsm.consumers.list(stream).next()).toEqual([]);
  });

  it('cannot create any consumer at all, filtered to its own subjects or not', async () => {
    const stream = streamName('control');
    const own = await api(`$JS.API.CONSUMER.CREATE.${stream}.mine.warden.control.*.mallory.*`, {
      stream_name: stream,
      config: { name: 'mine', filter_subject: 'warden.control.*.mallory.*', deliver_subject: '_INBOX_mallory.x', ack_policy: 'none' },
    });
    expect(own.refused).toMatch(/permission/i);
  });
});
