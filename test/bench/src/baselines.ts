import { performance } from 'node:perf_hooks';
import { BusConnection, streamConfig, TOPOLOGY_DEFAULTS, type NatsSettings } from '@warden/messaging';
import type { ProgressStatus } from './progress.js';
import { Samples, type LatencySummary } from './stats.js';

export interface RequestReplyResult {
  payloadBytes: number;
  warmup: number;
  rtt: LatencySummary;
  /** Sequential round trips per second (1 / mean, as measured). */
  perSecond: number;
}

export interface JetStreamResult {
  stream: string;
  payloadBytes: number;
  /** Sequential publish, each awaiting its PubAck before the next. */
  sequentialRtt: LatencySummary;
  window: number;
  durationS: number;
  acks: number;
  /** Sustained PubAcks per second with `window` publishes in flight. */
  acksPerSecond: number;
  /** Ack round trip of each publish while the window is full (includes queueing behind the window). */
  windowedRtt: LatencySummary;
}

export type StatusSink = (status: () => ProgressStatus) => void;

const ECHO_SUBJECT = 'bench.echo';

/**
 * Baseline A: what one core NATS round trip costs on this server and machine. A responder on its own
 * connection answers each request with its payload; requests go one after another.
 */
export async function measureRequestReply(
  settings: NatsSettings,
  options: { count: number; payload: Uint8Array },
  status: StatusSink,
): Promise<RequestReplyResult> {
  const responder = await BusConnection.open({ ...settings, name: 'bench-echo-responder' });
  const requester = await BusConnection.open({ ...settings, name: 'bench-echo-requester' });
  try {
    responder.nc.subscribe(ECHO_SUBJECT, {
      callback: (error, msg) => {
        if (!error) msg.respond(msg.data);
      },
    });
    await responder.nc.flush();
    const warmup = Math.max(100, Math.floor(options.count / 10));
    const samples = new Samples();
    let done = 0;
    status(() => ({ done: done / (warmup + options.count), detail: `${done} of ${warmup + options.count} round trips` }));
    for (let i = 0; i < warmup; i++, done++) await requester.nc.request(ECHO_SUBJECT, options.payload, { timeout: 5_000 });
    for (let i = 0; i < options.count; i++, done++) {
      const started = performance.now();
      await requester.nc.request(ECHO_SUBJECT, options.payload, { timeout: 5_000 });
      samples.add(performance.now() - started);
    }
    const rtt = samples.summary();
    return { payloadBytes: options.payload.byteLength, warmup, rtt, perSecond: 1000 / rtt.mean };
  } finally {
    await requester.close();
    await responder.close();
  }
}

/**
 * Baseline B: JetStream's publish-ack cost on this server, on a stream set up like Warden's (file
 * storage, the same de-duplication window, a Nats-Msg-Id per message): first the sequential round
 * trip, then the sustained ack rate with `window` publishes in flight. The stream is removed after.
 */
export async function measureJetStream(
  settings: NatsSettings,
  options: { sequential: number; window: number; durationS: number; payload: Uint8Array },
  status: StatusSink,
): Promise<JetStreamResult> {
  const bus = await BusConnection.open({ ...settings, name: 'bench-jetstream' });
  const stream = 'BENCH';
  try {
    await bus.jsm.streams.add(
      streamConfig({ name: stream, subjects: ['bench.>'], maxAgeMs: 3_600_000, duplicateWindowMs: TOPOLOGY_DEFAULTS.duplicateWindowMs, replicas: 1 }),
    );
    const { js } = bus;
    const runId = Date.now().toString(36);
    let seq = 0;
    const publish = () => js.publish('bench.pub', options.payload, { msgID: `${runId}-${seq++}`, timeout: 10_000 });

    const warmup = Math.max(100, Math.floor(options.sequential / 10));
    const sequential = new Samples();
    let done = 0;
    status(() => ({ done: done / (warmup + options.sequential), detail: `sequential publish ${done} of ${warmup + options.sequential}` }));
    for (let i = 0; i < warmup; i++, done++) await publish();
    for (let i = 0; i < options.sequential; i++, done++) {
      const started = performance.now();
      await publish();
      sequential.add(performance.now() - started);
    }

    const windowed = new Samples();
    let acks = 0;
    const started = performance.now();
    const deadline = started + options.durationS * 1000;
    status(() => {
      const elapsed = (performance.now() - started) / 1000;
      return { done: elapsed / options.durationS, detail: `${Math.round(acks / Math.max(elapsed, 0.001))} acks/s, ${options.window} in flight` };
    });
    // Each worker keeps one publish in flight, so `window` workers keep the window full.
    const worker = async () => {
      while (performance.now() < deadline) {
        const sent = performance.now();
        await publish();
        windowed.add(performance.now() - sent);
        acks++;
      }
    };
    await Promise.all(Array.from({ length: options.window }, worker));
    const elapsedS = (performance.now() - started) / 1000;
    return {
      stream,
      payloadBytes: options.payload.byteLength,
      sequentialRtt: sequential.summary(),
      window: options.window,
      durationS: elapsedS,
      acks,
      acksPerSecond: acks / elapsedS,
      windowedRtt: windowed.summary(),
    };
  } finally {
    await bus.jsm.streams.delete(stream).catch(() => undefined);
    await bus.close();
  }
}
