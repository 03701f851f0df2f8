import { createHash } from 'node:crypto';

/** The hash a session's chain starts from (the "previous hash" of its first event). */
export const GENESIS_HASH = '0'.repeat(64);

/** What the hash of a stored event covers: everything the event said, as stored (secrets redacted). */
export interface HashedContent {
  id: string;
  type: string;
  version: number;
  channel: string;
  sessionId: string;
  agentId: string;
  traceId: string;
  causationId: string | null;
  occurredAt: Date;
  payload: unknown;
  control: unknown;
}

/**
 * JSON with object keys sorted, so that the same value always gives the same text: PostgreSQL's jsonb
 * does not keep key order, and the verifier hashes what it reads back.
 */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return `[${value.map((v) => (v === undefined ? 'null' : canonicalJson(v))).join(',')}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
}

/** sha256(previous hash, newline, canonical content): changing any stored field or the order breaks it. */
export function chainHash(previousHash: string, event: HashedContent): string {
  const content = canonicalJson({
    id: event.id,
    type: event.type,
    version: event.version,
    channel: event.channel,
    session_id: event.sessionId,
    agent_id: event.agentId,
    trace_id: event.traceId,
    causation_id: event.causationId,
    occurred_at: event.occurredAt.toISOString(),
    payload: event.payload,
    control: event.control,
  });
  return createHash('sha256').update(previousHash).update('\n').update(content).digest('hex');
}
