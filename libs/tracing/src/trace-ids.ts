import { createHash } from 'node:crypto';

const W3C_TRACE_ID = /^[0-9a-f]{32}$/;
const ZERO_TRACE_ID = '0'.repeat(32);

/**
 * The OpenTelemetry trace id of a Warden `trace_id`: the same in every service and the SDK, so that all
 * spans of one action fall into one trace without any header on the wire. A `trace_id` that already is
 * a W3C trace id (32 lowercase hex digits, not all zero) is taken as it is, so an agent may put its own
 * trace's id there; any other is hashed (SHA-256, first 16 bytes).
 */
export function otelTraceId(wardenTraceId: string): string {
  if (W3C_TRACE_ID.test(wardenTraceId) && wardenTraceId !== ZERO_TRACE_ID) return wardenTraceId;
  return createHash('sha256').update(`warden-trace:${wardenTraceId}`).digest('hex').slice(0, 32);
}

/**
 * The span id of the span that published a message: derived from the message id, so that whoever
 * handles the message (another service, another process) names its parent without being told, and a
 * message caused by it names it from `causation_id`.
 */
export function publishSpanId(messageId: string): string {
  const hex = createHash('sha256').update(`warden-message:${messageId}`).digest('hex').slice(0, 16);
  // The all-zero span id is invalid; a hash gives it with probability 2^-64, but never let it through.
  return hex === '0000000000000000' ? '0000000000000001' : hex;
}
