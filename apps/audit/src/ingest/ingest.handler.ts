import { Controller, Inject } from '@nestjs/common';
import { Ctx, Payload } from '@nestjs/microservices';
import { definitionOf, type AnyMessage } from '@warden/contracts';
import { JetStreamContext, OnAnyMessage, RejectMessageError, TransientError } from '@warden/messaging';
import { MetricsRegistry, redactValue } from '@warden/observability';
import { AuditEventWriter, type AuditEventRow } from './audit-event-writer.js';
import { EventBatcher } from './event-batcher.js';
import { INGEST_OPTIONS, type IngestOptions } from './ingest.options.js';

/** PostgreSQL text cannot hold NUL characters; they become U+FFFD rather than losing the event. */
export function withoutNul(value: unknown): unknown {
  if (typeof value === 'string') return value.includes('\0') ? value.replaceAll('\0', '\ufffd') : value;
  if (Array.isArray(value)) return value.map(withoutNul);
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [withoutNul(k) as string, withoutNul(v)]));
  }
  return value;
}

/**
 * Stores every message the audit service receives, in batches. A message is acknowledged only after the
 * batch that holds it is committed; secrets in it are redacted first and never stored raw.
 */
@Controller()
export class IngestHandler {
  private readonly batcher: EventBatcher<AuditEventRow>;
  private readonly stored;
  private readonly redacted;
  private readonly lag;

  constructor(writer: AuditEventWriter, metrics: MetricsRegistry, @Inject(INGEST_OPTIONS) options: IngestOptions) {
    this.stored = metrics.counter({ name: 'warden_audit_events_stored_total', help: 'Events committed to PostgreSQL, by channel.', labelNames: ['channel'] });
    this.redacted = metrics.counter({ name: 'warden_secrets_redacted_total', help: 'Secrets removed before a message excerpt was logged or stored, by kind.', labelNames: ['kind'] });
    this.lag = metrics.histogram({ name: 'warden_audit_ingest_lag_seconds', help: 'Time from an event being published to it being stored.', buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60] });
    const batchSize = metrics.histogram({ name: 'warden_audit_batch_size', help: 'Events per insert.', buckets: [1, 5, 10, 25, 50, 100, 250, 500, 1000] });
    const writeTime = metrics.histogram({ name: 'warden_audit_batch_write_duration_seconds', help: 'Time to commit one batch.' });
    this.batcher = new EventBatcher<AuditEventRow>(
      async (rows) => {
        const { refused } = await writer.write(rows);
        return rows.map((row) => refused.get(row.id));
      },
      { maxBatch: options.batchSize, maxWaitMs: options.batchWaitMs },
      (size, seconds) => {
        batchSize.observe(size);
        writeTime.observe(seconds);
      },
    );
  }

  @OnAnyMessage()
  async store(@Payload() message: AnyMessage, @Ctx() context: JetStreamContext): Promise<void> {
    const { value: payload, counts } = redactValue(message.payload);
    for (const [kind, n] of Object.entries(counts)) this.redacted.inc({ kind }, n);
    const channel = context.getAddress()?.channel ?? definitionOf(message.type)!.channel;
    const row: AuditEventRow = {
      id: message.id,
      type: message.type,
      version: message.version,
      channel,
      sessionId: message.session_id,
      agentId: message.agent_id,
      traceId: message.trace_id,
      causationId: message.causation_id ?? null,
      occurredAt: new Date(message.timestamp),
      streamSequence: String(context.getStreamSequence()),
      payload: withoutNul(payload) as Record<string, unknown>,
      control: message.control ?? null,
    };
    try {
      await this.batcher.add(row);
    } catch (error) {
      if (error instanceof TransientError) throw error;
      throw new RejectMessageError(`the database refused the event: ${(error as Error).message}`);
    }
    this.stored.inc({ channel });
    this.lag.observe(Math.max(0, (Date.now() - context.getMessage().info.timestampNanos / 1_000_000) / 1000));
  }
}
