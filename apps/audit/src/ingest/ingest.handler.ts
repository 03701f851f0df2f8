import { Controller, Inject } from '@nestjs/common';
import { Ctx, Payload } from '@nestjs/microservices';
import { definitionOf, type AnyMessage } from '@warden/contracts';
import { RejectMessageError, TransientError } from '@warden/messaging';
import { JetStreamContext, OnAnyMessage } from '@warden/messaging-nest';
import { MetricsRegistry, redactValue } from '@warden/observability';
import { canonicalTexts } from '../domain/event-hash.js';
import { AuditEventWriter, type AuditEventRow } from './audit-event-writer.js';
import { EventBatcher } from './event-batcher.js';
import { INGEST_OPTIONS, type IngestOptions } from './ingest.options.js';
import { SuiteMetrics } from './suite-metrics.js';

/** PostgreSQL text cannot hold NUL characters; they become U+FFFD rather than losing the event. */
export function withoutNul(value: unknown): unknown {
  if (typeof value === 'string') return value.includes('\0') ? value.replaceAll('\0', '\ufffd') : value;
  if (Array.isArray(value)) return value.map(withoutNul);
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [withoutNul(k) as string, withoutNul(v)]));
  }
  return value;
}

/** JSON holds a NUL character only as this escape (a raw one is not valid JSON). */
const NUL_ESCAPE = Buffer.from('\\u0000');

/** Whether a message's JSON could hold a NUL character anywhere: if not, withoutNul has nothing to do. */
function mayHoldNul(data: Uint8Array): boolean {
  return Buffer.from(data.buffer, data.byteOffset, data.byteLength).includes(NUL_ESCAPE);
}

interface IngestItem {
  row: AuditEventRow;
  /** When JetStream stored the message: the start of the ingest lag. */
  publishedAtMs: number;
}

/**
 * Stores every message the audit service receives, in batches. A message is acknowledged only after the
 * batch that holds it is committed; secrets in it are redacted first and never stored raw. The suite
 * metrics count an event when it is stored for the first time.
 */
@Controller()
export class IngestHandler {
  private readonly batcher: EventBatcher<IngestItem>;
  private readonly redacted;

  constructor(writer: AuditEventWriter, metrics: MetricsRegistry, @Inject(INGEST_OPTIONS) options: IngestOptions) {
    this.redacted = metrics.counter({ name: 'warden_secrets_redacted_total', help: 'Secrets removed before a message excerpt was logged or stored, by kind.', labelNames: ['kind'] });
    const suite = new SuiteMetrics(metrics);
    const batchSize = metrics.histogram({ name: 'warden_audit_batch_size', help: 'Events per insert.', buckets: [1, 5, 10, 25, 50, 100, 250, 500, 1000] });
    const writeTime = metrics.histogram({ name: 'warden_audit_batch_write_duration_seconds', help: 'Time to commit one batch.' });
    this.batcher = new EventBatcher<IngestItem>(
      async (items) => {
        const { inserted, refused } = await writer.write(items.map((i) => i.row));
        const fresh = new Set(inserted.map((r) => r.id));
        const now = Date.now();
        for (const item of items) {
          // A message delivered twice in one batch is counted for its first copy only.
          if (fresh.delete(item.row.id)) suite.observe(item.row, item.publishedAtMs, now);
        }
        return items.map((item) => refused.get(item.row.id));
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
    const { value: redactedPayload, counts } = redactValue(message.payload);
    const { value: redactedControl } = redactValue(message.control ?? null);
    for (const [kind, n] of Object.entries(counts)) this.redacted.inc({ kind }, n);
    const channel = context.getAddress()?.channel ?? definitionOf(message.type)!.channel;
    const clean = mayHoldNul(context.getMessage().data) ? withoutNul : (value: unknown) => value;
    const payload = clean(redactedPayload) as Record<string, unknown>;
    const control = clean(redactedControl) as Record<string, unknown> | null;
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
      payload,
      control,
      canonical: canonicalTexts(payload, control),
    };
    try {
      await this.batcher.add({ row, publishedAtMs: context.getMessage().info.timestampNanos / 1_000_000 });
    } catch (error) {
      if (error instanceof TransientError) throw error;
      throw new RejectMessageError(`the database refused the event: ${(error as Error).message}`);
    }
  }
}
