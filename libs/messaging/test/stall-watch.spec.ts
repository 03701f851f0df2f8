import type { ConsumerInfo } from '@nats-io/jetstream';
import { createMessage, EXAMPLE_PAYLOADS, partitionOf, publishSubject } from '@warden/contracts';
import { eventually, TestNatsServer } from '@warden/testing';
import { StallWatch, type WatchedConsumer } from '../src/consumer/stall-watch.js';
import { buildTopology, BusConnection } from '../src/index.js';

const PARTITIONS = 2;
const encoder = new TextEncoder();

/** A consumer as the watch sees it, idle or not, recording what the server said of it. */
class Recorded implements WatchedConsumer {
  judged: ConsumerInfo[] = [];
  constructor(
    readonly spec: { stream: string; name: string },
    private idle: boolean,
  ) {}
  idleSinceLastCheck(): boolean {
    return this.idle;
  }
  judge(info: ConsumerInfo): void {
    this.judged.push(info);
  }
}

/** The idle consumers of a connection checked together, over a real nats-server provisioned as in production. */
describe('the stall watch', () => {
  let nats: TestNatsServer;
  let bus: BusConnection;
  const topology = buildTopology({ partitions: PARTITIONS });
  const partition = partitionOf('stall-1', PARTITIONS);
  const outcome = (service: string) => topology.consumers.find((c) => c.service === service && c.channel === 'outcome' && c.partition === partition)!;

  beforeAll(async () => {
    nats = await TestNatsServer.start({ partitions: PARTITIONS });
    bus = await BusConnection.open(nats.service);
  }, 60_000);

  afterAll(async () => {
    await bus?.close();
    await nats?.stop();
  });

  it('judges every idle consumer of a stream on one listing of its consumers, and leaves the busy ones alone', async () => {
    const message = createMessage('action.outcome', { agent_id: 'agent-1', session_id: 'stall-1', payload: EXAMPLE_PAYLOADS['action.outcome'] });
    await bus.js.publish(publishSubject('outcome', 'agent-1', 'stall-1'), encoder.encode(JSON.stringify(message)), { msgID: message.id });
    const breaker = new Recorded(outcome('breaker'), true);
    const audit = new Recorded(outcome('audit'), true);
    const busy = new Recorded(outcome('reviewer'), false);

    const requests: string[] = [];
    const api = bus.nc.subscribe('$JS.API.>', { callback: (_error, m) => void requests.push(m.subject) });
    await bus.nc.flush();
    const watch = StallWatch.for(bus.js);
    try {
      for (const member of [breaker, audit, busy]) watch.add(member);
      await watch.check();
    } finally {
      for (const member of [breaker, audit, busy]) watch.remove(member);
      api.unsubscribe();
    }

    // A message waits and nobody pulls: what the consumer needs to see that it lost its pull.
    expect(breaker.judged.map((i) => [i.name, i.num_pending, i.num_waiting])).toEqual([[outcome('breaker').name, 1, 0]]);
    expect(audit.judged.map((i) => i.name)).toEqual([outcome('audit').name]);
    expect(busy.judged).toEqual([]);
    expect(requests.filter((s) => s.startsWith('$JS.API.CONSUMER.'))).toEqual([`$JS.API.CONSUMER.LIST.${outcome('breaker').stream}`]);
  });

  it('answers nothing while the bus is away, and judges again once it is back', async () => {
    const lonely = new Recorded(outcome('breaker'), true);
    const watch = StallWatch.for(bus.js);
    watch.add(lonely);
    try {
      await nats.kill();
      await watch.check();
      expect(lonely.judged).toEqual([]);
      await nats.start();
      const judged = await eventually('the consumer judged once the server is back', async () => {
        await watch.check();
        return lonely.judged.map((i) => i.name).includes(outcome('breaker').name);
      });
      expect(judged).toBe(true);
    } finally {
      watch.remove(lonely);
    }
  }, 60_000);
});
