import { AckPolicy } from '@nats-io/jetstream';
import { createMessage, EXAMPLE_PAYLOADS, partitionOf, publishSubject } from '@warden/contracts';
import { TestNatsServer } from '@warden/testing';
import { prepareConsumerForOwner, type TakeoverRecord } from '../src/consumer/consumer-takeover.js';
import { buildTopology, BusConnection, PARTITION_BUCKET, RecordStore } from '../src/index.js';

const PARTITIONS = 2;
const encoder = new TextEncoder();

/** A partition consumer handed to a new owner, over a real nats-server provisioned as in production. */
describe('a partition consumer prepared for its new owner', () => {
  let nats: TestNatsServer;
  let bus: BusConnection;
  let takeovers: RecordStore<TakeoverRecord>;
  const spec = buildTopology({ partitions: PARTITIONS }).consumers.find((c) => c.service === 'breaker' && c.channel === 'outcome' && c.partition === partitionOf('takeover-1', PARTITIONS))!;

  beforeAll(async () => {
    nats = await TestNatsServer.start({ partitions: PARTITIONS, topology: { ackWaitMs: 20_000 } });
    bus = await BusConnection.open(nats.service);
    takeovers = new RecordStore<TakeoverRecord>(bus.nc, PARTITION_BUCKET);
  }, 60_000);

  afterAll(async () => {
    await bus?.close();
    await nats?.stop();
  });

  /** Publishes `count` outcomes of the session the consumer's partition holds; returns their stream sequences. */
  async function publish(count: number): Promise<number[]> {
    const seqs: number[] = [];
    for (let i = 0; i < count; i++) {
      const message = createMessage('action.outcome', { agent_id: 'agent-1', session_id: 'takeover-1', payload: { ...EXAMPLE_PAYLOADS['action.outcome'], action_id: `a${i}` } });
      const subject = publishSubject('outcome', 'agent-1', 'takeover-1');
      seqs.push((await bus.js.publish(subject, encoder.encode(JSON.stringify(message)), { msgID: message.id })).seq);
    }
    return seqs;
  }

  it('starts again at the ack floor, first, keeping the provisioned ack wait, and leaves no record behind', async () => {
    const seqs = await publish(3);
    const consumer = await bus.js.consumers.get(spec.stream, spec.name);
    const first = await consumer.next();
    first!.ack();
    await first!.ackAck();
    await consumer.next(); // delivered, never acknowledged: its owner died
    const pending = await prepareConsumerForOwner(bus.jsm, spec, takeovers);
    expect(pending).toBe(1);
    const info = await bus.jsm.consumers.info(spec.stream, spec.name);
    expect(info.config.opt_start_seq).toBe(seqs[1]);
    expect(info.config.ack_wait).toBe(20_000 * 1_000_000);
    expect(info.config.ack_policy).toBe(AckPolicy.Explicit);
    expect(await takeovers.get(`takeover.${spec.stream}.${spec.name}`)).toBeUndefined();
    const next = await (await bus.js.consumers.get(spec.stream, spec.name)).next();
    expect(next!.seq).toBe(seqs[1]);
    next!.ack();
  });

  it('adds the consumer an interrupted takeover deleted, from where it was to start', async () => {
    const [seq] = await publish(1);
    await takeovers.put(`takeover.${spec.stream}.${spec.name}`, { start: seq! });
    await bus.jsm.consumers.delete(spec.stream, spec.name);
    expect(await prepareConsumerForOwner(bus.jsm, spec, takeovers)).toBe(0);
    expect((await bus.jsm.consumers.info(spec.stream, spec.name)).config.opt_start_seq).toBe(seq);
    expect(await takeovers.get(`takeover.${spec.stream}.${spec.name}`)).toBeUndefined();
  });

  it('does not invent a consumer that was never provisioned', async () => {
    const missing = { ...spec, name: 'breaker-outcome-p99' };
    await expect(prepareConsumerForOwner(bus.jsm, missing, takeovers)).rejects.toThrow(/consumer not found/);
  });
});
