import { GATE_APPROVAL_BUCKET } from '@warden/contracts';
import type { GateRequestRecord } from '@warden/gate';
import { RecordConflictError, RecordStore, type BusConnection } from '@warden/messaging';
import type { Logger, MetricsRegistry } from '@warden/observability';
import type { ApprovalNotices } from '../relay/hitl-relay.js';
import type { ApprovalDelivery } from './approval-settings.js';

export type ApprovalEventType = 'gate.request.created' | 'gate.request.escalated' | 'gate.request.changed' | 'gate.request.resolved';
const EVENT_TYPES: readonly ApprovalEventType[] = ['gate.request.created', 'gate.request.escalated', 'gate.request.changed', 'gate.request.resolved'];

/** One thing to tell a channel about a request, in the order it happened. */
export interface ApprovalEvent {
  /** Stable per request and event: a receiver drops a repeat by it. */
  id: string;
  type: ApprovalEventType;
  at: string;
  request: GateRequestRecord;
}

/** What a channel keeps of a request (the outbox entry `<channel>.<request>` in warden_gate_approvals). */
export interface OutboxEntry {
  channel: string;
  request_id: string;
  /** Events not delivered yet, oldest first. */
  queue: ApprovalEvent[];
  /** Events ever queued (numbers the event ids). */
  queued: number;
  /** Slack: the message posted for the request; later events update it. */
  message?: { channel: string; ts: string };
  /** A replica delivering it now, until then. */
  claim?: { by: string; until: number };
  attempts: number;
  next_at: number;
  last_error?: string;
}

/** A channel delivers the queue of an entry: how many events it took, and the message it posted (Slack). */
export interface ApprovalChannel {
  readonly name: string;
  readonly type: 'slack' | 'webhook';
  deliver(entry: OutboxEntry): Promise<{ delivered: number; message?: { channel: string; ts: string } }>;
}

/**
 * The approval channels' outbox in JetStream KV. The owner of a session queues each request's events
 * (create, change, answer) in an entry per channel and request, and returns at once: the decision path
 * never waits for Slack or a webhook. A delivery is claimed with compare-and-set (one replica sends),
 * retried with backoff, and what it posted is stored with the entry: a gate that restarts, or another
 * replica, finds the queue and the Slack message there and goes on from them, never posting twice.
 */
export class ApprovalOutbox implements ApprovalNotices {
  private readonly timers = new Map<string, NodeJS.Timeout>();
  private sweeper?: NodeJS.Timeout;
  private stopped = false;
  private readonly deliveries;
  private readonly pending;

  constructor(
    private readonly store: RecordStore<OutboxEntry>,
    private readonly channels: readonly ApprovalChannel[],
    private readonly delivery: ApprovalDelivery,
    private readonly replicaId: string,
    private readonly log: Logger,
    metrics: MetricsRegistry,
    private readonly now: () => number = Date.now,
  ) {
    this.deliveries = metrics.counter({
      name: 'warden_gate_approval_deliveries_total',
      help: 'Deliveries to approval channels, by channel, type and result (ok, failed: retried, abandoned: given up after the attempts).',
      labelNames: ['channel', 'type', 'result'],
    });
    this.pending = metrics.gauge({ name: 'warden_gate_approval_failing', help: 'Approval channel entries whose last delivery failed and that wait for a retry.', labelNames: ['channel'] });
    // Series from the start: an alert on their increase sees the first failure.
    for (const channel of channels) {
      this.pending.set({ channel: channel.name }, 0);
      for (const type of EVENT_TYPES) for (const result of ['ok', 'failed', 'abandoned']) this.deliveries.inc({ channel: channel.name, type, result }, 0);
    }
  }

  static open(bus: BusConnection): RecordStore<OutboxEntry> {
    return new RecordStore<OutboxEntry>(bus.nc, GATE_APPROVAL_BUCKET);
  }

  /** Looks for undelivered entries now and every sweepMs (those of a replica that died mid-delivery). */
  async start(): Promise<void> {
    if (!this.channels.length) return;
    await this.store.open();
    await this.sweep();
    this.sweeper = setInterval(() => void this.sweep().catch((error: Error) => this.log.warn({ err: error }, 'approval outbox sweep failed')), this.delivery.sweepMs);
    this.sweeper.unref();
  }

  stop(): void {
    this.stopped = true;
    clearInterval(this.sweeper);
    for (const timer of this.timers.values()) clearTimeout(timer);
    this.timers.clear();
  }

  // ------------------------------------------------------------------ what the relay tells

  /** A new request: one entry per channel it asks at once, created once (a repeat of the same request changes nothing). */
  requested(record: GateRequestRecord): Promise<void> {
    return this.create(record, this.asked(record), 'gate.request.created');
  }

  /** An escalation step: the request to the channels it asks, as an entry each, created once (a step run again posts nothing twice). */
  escalated(record: GateRequestRecord, channels: readonly string[]): Promise<void> {
    return this.create(record, this.channels.filter((c) => channels.includes(c.name)), 'gate.request.escalated');
  }

  changed(record: GateRequestRecord): Promise<void> {
    return this.append(record, 'gate.request.changed');
  }

  answered(record: GateRequestRecord): Promise<void> {
    return this.append(record, 'gate.request.resolved');
  }

  /** The channels a request has asked so far (a request stored before escalation steps: every channel). */
  private asked(record: GateRequestRecord): readonly ApprovalChannel[] {
    return record.asked ? this.channels.filter((c) => record.asked!.includes(c.name)) : this.channels;
  }

  private async create(record: GateRequestRecord, channels: readonly ApprovalChannel[], type: ApprovalEventType): Promise<void> {
    for (const channel of channels) {
      const key = keyOf(channel.name, record.request_id);
      const entry: OutboxEntry = { channel: channel.name, request_id: record.request_id, queue: [event(record, type, 1)], queued: 1, attempts: 0, next_at: 0 };
      try {
        await this.store.write(key, entry, undefined);
      } catch (error) {
        if (error instanceof RecordConflictError) continue;
        throw error;
      }
      this.schedule(key, 0);
    }
  }

  /** A change or the answer, to the channels the request asked: one not asked yet hears of it only if a step asks it. */
  private async append(record: GateRequestRecord, type: ApprovalEventType): Promise<void> {
    for (const channel of this.asked(record)) {
      const key = keyOf(channel.name, record.request_id);
      const updated = await this.store.update(key, (current) => {
        const base = current ?? { channel: channel.name, request_id: record.request_id, queue: [], queued: 0, attempts: 0, next_at: 0 };
        if (type === 'gate.request.resolved' && base.queue.some((e) => e.type === type)) return undefined;
        const queued = base.queued + 1;
        return { ...base, queue: [...base.queue, event(record, type, queued)], queued };
      });
      if (updated.written) this.schedule(key, 0);
    }
  }

  // ------------------------------------------------------------------ delivering

  private async sweep(): Promise<void> {
    for (const key of await this.store.keys()) {
      if (this.timers.has(key)) continue;
      // Other records share the bucket (a Slack channel's threads, `thread.…`): only entries with a queue are deliveries.
      const entry = (await this.store.get(key))?.value;
      if (Array.isArray(entry?.queue) && entry.queue.length) this.schedule(key, Math.max(0, entry.next_at - this.now()));
    }
  }

  private schedule(key: string, delay: number): void {
    if (this.stopped) return;
    clearTimeout(this.timers.get(key));
    const timer = setTimeout(() => {
      this.timers.delete(key);
      void this.deliver(key).catch((error: Error) => {
        this.log.warn({ err: error, key }, 'approval delivery could not be recorded; the sweep retries it');
      });
    }, delay);
    timer.unref();
    this.timers.set(key, timer);
  }

  private async deliver(key: string): Promise<void> {
    const channel = this.channels.find((c) => c.name === key.slice(0, key.indexOf('.')));
    if (!channel || this.stopped) return;
    const now = this.now();
    let wait = 0;
    const claimed = await this.store.update(key, (current) => {
      if (!current?.queue.length) return undefined;
      if (current.claim && current.claim.until > now) {
        wait = current.claim.until - now;
        return undefined;
      }
      if (current.next_at > now) {
        wait = current.next_at - now;
        return undefined;
      }
      return { ...current, claim: { by: this.replicaId, until: now + this.delivery.claimMs } };
    });
    if (!claimed.written) {
      if (wait) this.schedule(key, wait);
      return;
    }
    const entry = claimed.value;
    const type = entry.queue[0]!.type;
    try {
      const result = await channel.deliver(entry);
      const after = await this.store.update(key, (current) => {
        const base = current ?? entry;
        const { claim: _claim, last_error: _error, ...rest } = base;
        return { ...rest, queue: base.queue.slice(result.delivered), attempts: 0, next_at: 0, ...(result.message ? { message: result.message } : base.message ? { message: base.message } : {}) };
      });
      this.deliveries.inc({ channel: channel.name, type, result: 'ok' });
      if (entry.attempts > 0) this.pending.dec({ channel: channel.name });
      if (after.value.queue.length) this.schedule(key, 0);
    } catch (error) {
      const attempts = entry.attempts + 1;
      const reason = (error as Error).message.slice(0, 500);
      const abandoned = attempts >= this.delivery.attempts;
      const backoff = Math.min(this.delivery.maxBackoffMs, this.delivery.backoffMs * 2 ** (attempts - 1));
      await this.store.update(key, (current) => {
        const base = current ?? entry;
        const { claim: _claim, ...rest } = base;
        // Given up: the oldest event is dropped (logged as an error), the next ones still go.
        return abandoned ? { ...rest, queue: base.queue.slice(1), attempts: 0, next_at: 0, last_error: reason } : { ...rest, attempts, next_at: this.now() + backoff, last_error: reason };
      });
      this.deliveries.inc({ channel: channel.name, type, result: abandoned ? 'abandoned' : 'failed' });
      if (entry.attempts === 0 && !abandoned) this.pending.inc({ channel: channel.name });
      if (abandoned && entry.attempts > 0) this.pending.dec({ channel: channel.name });
      const fields = { channel: channel.name, request_id: entry.request_id, type, attempts, reason };
      if (abandoned) this.log.error(fields, 'approval channel delivery abandoned after its attempts');
      else this.log.warn({ ...fields, retry_in_ms: backoff }, 'approval channel delivery failed; retrying');
      this.schedule(key, abandoned ? 0 : backoff);
    }
  }
}

function keyOf(channel: string, requestId: string): string {
  return `${channel}.${requestId}`;
}

function event(request: GateRequestRecord, type: ApprovalEventType, n: number): ApprovalEvent {
  return { id: `${request.request_id}.${n}`, type, at: new Date().toISOString(), request };
}
