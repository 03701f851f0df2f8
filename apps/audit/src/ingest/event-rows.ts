import type { Chained, Unchained } from '../domain/chain-links.js';

/** The columns of audit_event one insert fills, in the order of eventRowsSource's columns. */
export const EVENT_COLUMNS = 'id, type, version, channel, session_id, agent_id, trace_id, causation_id, occurred_at, stream_sequence, payload, control, chain_seq, prev_hash, hash';

/**
 * The rows of linked events as a FROM item over parameters $1..$15 (see eventRowParameters): one array
 * per column, except the payloads, which travel as one JSON array of their canonical texts so that the
 * driver does not escape each of them into an array literal.
 */
export const EVENT_ROWS_SOURCE = `ROWS FROM (
    unnest($1::text[], $2::text[], $3::int[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[], $9::timestamptz[], $10::bigint[]),
    jsonb_array_elements($11::jsonb),
    unnest($12::jsonb[], $13::bigint[], $14::text[], $15::text[]))`;

export function eventRowParameters(c: Chained<Unchained>[]): unknown[] {
  return [
    c.map((x) => x.event.id),
    c.map((x) => x.event.type),
    c.map((x) => x.event.version),
    c.map((x) => x.event.channel),
    c.map((x) => x.event.sessionId),
    c.map((x) => x.event.agentId),
    c.map((x) => x.event.traceId),
    c.map((x) => x.event.causationId),
    c.map((x) => x.event.occurredAt.toISOString()),
    c.map((x) => x.event.streamSequence),
    `[${c.map((x) => x.event.canonical.payloadJson).join(',')}]`,
    c.map((x) => (x.event.control == null ? null : x.event.canonical.controlJson)),
    c.map((x) => x.chainSeq),
    c.map((x) => x.prevHash),
    c.map((x) => x.hash),
  ];
}
