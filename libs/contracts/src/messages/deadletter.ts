import Type from 'typebox';
import { defineMessage } from '../envelope.js';

/** Why a message was dead-lettered. A bounded set: it is a metric label. */
export const DEAD_LETTER_REASONS = [
  'invalid_json',
  'schema_invalid',
  'unknown_type',
  'unsupported_version',
  'unexpected_type',
  'oversized',
  'identity_mismatch',
  'wrong_partition',
  'unroutable_subject',
  'rejected',
  'handler_failed',
] as const;
export type DeadLetterReason = (typeof DEAD_LETTER_REASONS)[number];

export const DeadLetterRecorded = defineMessage({
  type: 'deadletter.recorded',
  version: 1,
  channel: 'deadletter',
  summary: 'A service rejected a message; the reason and a redacted excerpt of the original.',
  payload: Type.Object({
    service: Type.String({ maxLength: 64 }),
    reason: Type.Enum([...DEAD_LETTER_REASONS]),
    detail: Type.String({ maxLength: 4000, description: 'Human-readable reason, e.g. the failing schema paths.' }),
    original_subject: Type.String({ maxLength: 512 }),
    original_message_id: Type.Optional(Type.String({ maxLength: 256, description: 'Nats-Msg-Id of the original.' })),
    original_type: Type.Optional(Type.String({ maxLength: 128 })),
    original_size: Type.Integer({ minimum: 0 }),
    original_sha256: Type.String({ pattern: '^[a-f0-9]{64}$' }),
    original_excerpt: Type.String({ maxLength: 4096, description: 'First bytes of the original, secrets redacted.' }),
    stream: Type.Optional(Type.String({ maxLength: 64 })),
    stream_sequence: Type.Optional(Type.Integer({ minimum: 0 })),
    delivery_count: Type.Optional(Type.Integer({ minimum: 0 })),
  }),
});
