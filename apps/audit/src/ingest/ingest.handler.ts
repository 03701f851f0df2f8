import { Controller, Inject } from '@nestjs/common';
import { Ctx, Payload } from '@nestjs/microservices';
import { CHANNELS, definitionOf, type AnyMessage } from '@warden/contracts';
import { RejectMessageError, TransientError } from '@warden/messaging';
import { JetStreamContext, OnAnyMessage } from '@warden/messaging-nest';
import { countRedactions, MetricsRegistry, redactValue } from '@warden/observability';
import { canonicalTexts } from '../domain/event-hash.js';
import { AuditEventWriter, type AuditEventRow } from './audit-event-writer.js';
import { EventBatcher } from './event-batcher.js';
import { INGEST_OPTIONS, type IngestOptions } from './ingest.options.js';
import { SuiteMetrics } from './suite-metrics.js';

/**
 * What PostgreSQL's jsonb refuses in a text, escaped rather than losing the event: NUL characters become
 * U+FFFD, a lone UTF-16 surrogate its escape written out (`\ud800`).
 */
export function jsonbSafe(value: unknown): unknown {
  if (typeof value === 'string') return JSONB_REFUSED.test(value) ? value.replace(JSONB_REFUSED_ALL, escaped) : value;
  if (Array.isArray(value)) return value.map(jsonbSafe);
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [jsonbSafe(k) as string, jsonbSafe(v)]));
  }
  return value;
}

/** What jsonb refuses in a text: NUL, and a UTF-16 surrogate without its other half (`"ls \ud800"`). */
const JSONB_REFUSED_SOURCE = String.raw`\0|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]`;
const JSONB_REFUSED = new RegExp(JSONB_REFUSED_SOURCE);
const JSONB_REFUSED_ALL = new RegExp(JSONB_REFUSED_SOURCE, 'g');

/** NUL as U+FFFD (a text never holds it); a lone surrogate as its escape, visible in the stored text. */
function escaped(char: string): string {
  return char === '\0' ? '\ufffd' : `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`;
}

/** JSON holds a NUL character or a lone surrogate only as an escape (`\u0000`, `\ud800`; raw UTF-8 cannot carry either). */
const REFUSED_ESCAPE = /\\u(?:0000|d[89a-f][0-9a-f]{2})/i;

/** Whether a message's JSON could hold a text jsonb refuses anywhere: if not, jsonbSafe has nothing to do. */
function mayHoldRefused(data: Uint8Array): boolean {
  return REFUSED_ESCAPE.test(Buffer.from(data.buffer, data.byteOffset, data.byteLength).toString('latin1'));
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
      async (items, placed) => {
        const { inserted, refused } = await writer.write(
          items.map((i) => i.row),
          placed,
        );
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
    const sent = withoutSealedSecrets(message.payload);
    const { value: redactedPayload, counts } = redactValue(sent);
    const { value: redactedControl } = redactValue(message.control ?? null);
    const channel = context.getAddress()?.channel ?? definitionOf(message.type)!.channel;
    // What an agent sends comes redacted by Warden's client: its markers are the secrets redacted before storing.
    if ((CHANNELS[channel].senders as readonly string[]).includes('agent')) countRedactions(sent, counts);
    for (const [kind, n] of Object.entries(counts)) this.redacted.inc({ kind }, n);
    // What PostgreSQL's jsonb refuses is escaped, never dropped: the row is stored, and the chain holds it.
    const clean = mayHoldRefused(context.getMessage().data) ? jsonbSafe : (value: unknown) => value;
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

/**
 * A payload without the secrets an agent sealed for the reviewer (`sealed` of an action): the audit keeps
 * the markers only, so no row holds a secret, whoever may get the reviewer's key later.
 */
function withoutSealedSecrets(payload: Record<string, unknown>): Record<string, unknown> {
  if (!('sealed' in payload)) return payload;
  const { sealed: _sealed, ...rest } = payload;
  return rest;
}
