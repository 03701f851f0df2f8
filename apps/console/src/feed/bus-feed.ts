import { DeliverPolicy, type ConsumerMessages } from '@nats-io/jetstream';
import { Kvm, type KvEntry } from '@nats-io/kv';
import {
  AUTOMATION_LEVEL_BUCKET,
  BREAKER_STATE_BUCKET,
  LADDER_RECORD_BUCKET,
  parseAutomationLevel,
  parseBreakerState,
  type ChannelId,
} from '@warden/contracts';
import { screenMessage, STREAM_MAX_MESSAGE_BYTES, streamName, type BusConnection } from '@warden/messaging';
import { redactValue, type Logger, type MetricsRegistry } from '@warden/observability';
import { toConsoleEvent } from '../domain/console-event.js';
import type { SessionBoard, TrackRecord } from '../domain/session-board.js';

/** The channels whose streams the console reads: everything a session does and what Warden does about it. */
export const FEED_CHANNELS: readonly ChannelId[] = [
  'session',
  'action',
  'outcome',
  'verdict',
  'decision',
  'control',
  'control_ack',
  'pattern',
  'intervention',
  'breaker',
  'gate',
  'ladder',
];

const RETRY_MS = 1_000;

/**
 * Feeds the board from the bus: one ordered (ephemeral, flow-controlled) consumer per stream, from
 * CONSOLE_HISTORY_HOURS back and then live, and watches of the breaker state, automation level and
 * track record buckets. Nothing is acknowledged or stored: the console only reads. Each message is
 * screened as the services screen it (subject, partition, schema, channel, and an envelope that names
 * the agent and session of its subject): what they would refuse is counted and never shown, so that an
 * agent cannot put an event in front of the operators under another agent's session.
 */
export class BusFeed {
  private readonly pending = new Set<ChannelId>(FEED_CHANNELS);
  private readonly iterators: { stop(): void }[] = [];
  private stopped = false;
  private readonly events;
  private readonly skipped;

  constructor(
    private readonly bus: BusConnection,
    private readonly board: SessionBoard,
    private readonly options: { historyHours: number; partitions: number },
    private readonly log: Logger,
    metrics: MetricsRegistry,
  ) {
    this.events = metrics.counter({ name: 'warden_console_events_total', help: 'Bus messages the console applied, by channel.', labelNames: ['channel'] });
    this.skipped = metrics.counter({ name: 'warden_console_events_skipped_total', help: 'Bus messages the console could not read, by reason.', labelNames: ['reason'] });
    metrics.gauge({ name: 'warden_console_sessions', help: 'Sessions the console follows.', collect() {
      this.set(board.size);
    } });
  }

  /** True once every stream was read up to where it stood when the console started. */
  get caughtUp(): boolean {
    return this.pending.size === 0;
  }

  get waitingFor(): string[] {
    return [...this.pending];
  }

  start(): void {
    for (const channel of FEED_CHANNELS) void this.follow(channel);
    void this.watch(BREAKER_STATE_BUCKET, (entry) => {
      const [agentId, sessionId] = splitKey(entry.key);
      const record = entry.operation === 'PUT' ? parseBreakerState(entry.value) : null;
      const open = record ? record.breakers.filter((b) => b.state !== 'closed' && !b.disabled && !b.metrics_only).map((b) => (b.state === 'open' ? b.breaker : `${b.breaker} (probing)`)) : [];
      this.board.setBreakers(agentId, sessionId, open);
    });
    void this.watch(AUTOMATION_LEVEL_BUCKET, (entry) => {
      const record = entry.operation === 'PUT' ? parseAutomationLevel(entry.value) : null;
      this.board.setLevel(entry.key, record ? record.level : null);
    });
    void this.watch(LADDER_RECORD_BUCKET, (entry) => {
      this.board.setTrackRecord(entry.key, entry.operation === 'PUT' ? trackRecord(entry) : null);
    });
  }

  stop(): void {
    this.stopped = true;
    for (const iterator of this.iterators) iterator.stop();
  }

  private async follow(channel: ChannelId): Promise<void> {
    while (!this.stopped) {
      let messages: ConsumerMessages | undefined;
      try {
        const start = new Date(Date.now() - this.options.historyHours * 3_600_000).toISOString();
        const consumer = await this.bus.js.consumers.get(streamName(channel), { deliver_policy: DeliverPolicy.StartTime, opt_start_time: start });
        if ((await consumer.info()).num_pending === 0) this.pending.delete(channel);
        messages = await consumer.consume({ max_messages: 1000 });
        this.iterators.push(messages);
        for await (const message of messages) {
          this.apply(channel, message.subject, message.data);
          if (message.info.pending === 0) this.pending.delete(channel);
        }
      } catch (error) {
        if (this.stopped) return;
        this.log.warn({ err: error, channel }, 'console feed interrupted; reading the stream again');
      }
      if (messages) this.iterators.splice(this.iterators.indexOf(messages), 1);
      if (!this.stopped) await new Promise((resolve) => setTimeout(resolve, RETRY_MS));
    }
  }

  private apply(channel: ChannelId, subject: string, data: Uint8Array): void {
    const screened = screenMessage(subject, data, { channel, partitions: this.options.partitions, maxPayloadBytes: STREAM_MAX_MESSAGE_BYTES });
    if (screened.verdict === 'reject') {
      this.skipped.inc({ reason: screened.reason });
      return;
    }
    // An operator of any role sees no secret: what the agent sent (the action as the reviewer judged it) too.
    const shown = redactValue(screened.message).value;
    this.board.apply(toConsoleEvent(shown as Parameters<typeof toConsoleEvent>[0]));
    this.events.inc({ channel });
  }

  private async watch(bucket: string, handle: (entry: KvEntry) => void): Promise<void> {
    while (!this.stopped) {
      try {
        const kv = await new Kvm(this.bus.nc).open(bucket);
        const entries = await kv.watch({ key: '>' });
        this.iterators.push(entries);
        for await (const entry of entries) {
          try {
            handle(entry);
          } catch (error) {
            this.log.warn({ err: error, bucket, key: entry.key }, 'unreadable KV entry skipped');
          }
        }
      } catch (error) {
        if (this.stopped) return;
        this.log.warn({ err: error, bucket }, 'console watch interrupted; watching again');
      }
      if (!this.stopped) await new Promise((resolve) => setTimeout(resolve, RETRY_MS));
    }
  }
}

function splitKey(key: string): [string, string] {
  const at = key.indexOf('.');
  return [key.slice(0, at), key.slice(at + 1)];
}

/** The parts of the ladder's record the console shows; the ladder owns the format (apps/ladder/README.md). */
function trackRecord(entry: KvEntry): TrackRecord | null {
  try {
    const value = entry.json<Partial<TrackRecord>>();
    if (typeof value?.level !== 'number' || typeof value.metrics?.totalRuns !== 'number') return null;
    return { level: value.level, pin: value.pin ?? null, metrics: value.metrics, ...(value.emergencyStops !== undefined ? { emergencyStops: value.emergencyStops } : {}) };
  } catch {
    return null;
  }
}
