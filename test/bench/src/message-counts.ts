import type { JetStreamManager } from '@nats-io/jetstream';
import { SERVICES } from '@warden/contracts';
import type { ConnectionTraffic } from './environment.js';

/** Where JetStream's work for the suite stands at one moment: writes per stream, deliveries per consumer. */
export interface BusSnapshot {
  /** Last sequence of each stream (a KV bucket is the stream KV_<bucket>): every write counts, updates of a key too. */
  writes: Record<string, number>;
  /** Messages each consumer delivered (each one acknowledged by the service that reads it), by consumer. */
  deliveries: Record<string, number>;
}

/** What one action cost the bus, on average over a load: JetStream writes and deliveries, by where they went. */
export interface MessagesPerAction {
  actions: number;
  /** Stream writes per action: the session channels' streams (messages) and KV buckets (record writes). */
  streamWrites: number;
  kvWrites: number;
  /** Deliveries per action (each is acknowledged: one acknowledgement message each). */
  deliveries: number;
  writesByStream: Record<string, number>;
  deliveriesByService: Record<string, number>;
  /**
   * Messages nats-server exchanged with each service's connection per action: received from it (its
   * publishes, acknowledgements, KV and API requests, pulls) and sent to it (deliveries, replies, heartbeats).
   */
  serverMessages?: { received: number; sent: number; byService: Record<string, { received: number; sent: number }> };
}

/** The difference of two readings of the services' connection traffic, per action (`warden-<service>` connections only). */
export function serverMessagesPerAction(before: ConnectionTraffic, after: ConnectionTraffic, actions: number): NonNullable<MessagesPerAction['serverMessages']> {
  const byService: Record<string, { received: number; sent: number }> = {};
  let received = 0;
  let sent = 0;
  for (const [name, now] of Object.entries(after)) {
    if (!name.startsWith('warden-') || name === 'warden-bench') continue;
    const then = before[name] ?? { received: 0, sent: 0 };
    // A connection opened again in between counts from zero.
    const r = now.received >= then.received ? now.received - then.received : now.received;
    const s = now.sent >= then.sent ? now.sent - then.sent : now.sent;
    received += r;
    sent += s;
    byService[name.slice('warden-'.length)] = { received: perAction(r, actions), sent: perAction(s, actions) };
  }
  return { received: perAction(received, actions), sent: perAction(sent, actions), byService };
}

export async function snapshotBus(jsm: JetStreamManager): Promise<BusSnapshot> {
  const writes: Record<string, number> = {};
  const deliveries: Record<string, number> = {};
  for await (const stream of jsm.streams.list()) {
    const name = stream.config.name;
    writes[name] = stream.state.last_seq;
    for await (const consumer of jsm.consumers.list(name)) deliveries[`${name}/${consumer.name}`] = consumer.delivered.consumer_seq;
  }
  return { writes, deliveries };
}

/** The service a consumer belongs to, from its name (`<service>-<channel>[-p<n>]`); `other` for the rest. */
function serviceOf(consumer: string): string {
  const name = consumer.slice(consumer.indexOf('/') + 1);
  return SERVICES.find((service) => name.startsWith(`${service}-`)) ?? 'other';
}

const perAction = (value: number, actions: number) => Math.round((value / Math.max(1, actions)) * 100) / 100;

/** The difference of two snapshots, per action. Streams and consumers created in between count from zero. */
export function messagesPerAction(before: BusSnapshot, after: BusSnapshot, actions: number): MessagesPerAction {
  const writesByStream: Record<string, number> = {};
  let streamWrites = 0;
  let kvWrites = 0;
  for (const [stream, last] of Object.entries(after.writes)) {
    const written = last - (before.writes[stream] ?? 0);
    if (written <= 0) continue;
    writesByStream[stream] = perAction(written, actions);
    if (stream.startsWith('KV_')) kvWrites += written;
    else streamWrites += written;
  }
  const byService: Record<string, number> = {};
  let deliveries = 0;
  for (const [consumer, delivered] of Object.entries(after.deliveries)) {
    const count = delivered - (before.deliveries[consumer] ?? 0);
    if (count <= 0) continue;
    deliveries += count;
    const service = serviceOf(consumer);
    byService[service] = (byService[service] ?? 0) + count;
  }
  const deliveriesByService = Object.fromEntries(Object.entries(byService).map(([service, count]) => [service, perAction(count, actions)]));
  return {
    actions,
    streamWrites: perAction(streamWrites, actions),
    kvWrites: perAction(kvWrites, actions),
    deliveries: perAction(deliveries, actions),
    writesByStream,
    deliveriesByService,
  };
}

/** One line for the printed report. */
export function messagesPerActionLine(counts: MessagesPerAction): string {
  const list = (values: Record<string, number>) =>
    Object.entries(values)
      .sort((a, b) => b[1] - a[1])
      .map(([name, v]) => `${name} ${v}`)
      .join(', ');
  return (
    `Bus work per action with the whole suite (${counts.actions} actions): ${counts.streamWrites} stream messages, ${counts.kvWrites} KV writes, ` +
    `${counts.deliveries} deliveries (each acknowledged); writes by stream: ${list(counts.writesByStream)}; deliveries by service: ${list(counts.deliveriesByService)}` +
    (counts.serverMessages
      ? `; messages nats-server received from / sent to each service: ${counts.serverMessages.received} / ${counts.serverMessages.sent} in all, ` +
        Object.entries(counts.serverMessages.byService)
          .sort((a, b) => b[1].received + b[1].sent - a[1].received - a[1].sent)
          .map(([service, m]) => `${service} ${m.received} / ${m.sent}`)
          .join(', ')
      : '')
  );
}
