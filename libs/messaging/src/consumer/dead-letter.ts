import { createHash } from 'node:crypto';
import {
  createMessage,
  deadLetterSubject,
  derivedMessageId,
  NO_SCOPE,
  type DeadLetterReason,
  type MessageOf,
  type ServiceName,
  type SessionAddress,
} from '@warden/contracts';
import { redactText } from '@warden/observability';

const EXCERPT_BYTES = 2048;
const EXCERPT_CHARS = 4096;

export interface RejectedMessage {
  service: ServiceName;
  reason: DeadLetterReason;
  detail: string;
  type?: string;
  subject: string;
  data: Uint8Array;
  messageId?: string;
  address: SessionAddress | null;
  stream?: string;
  streamSequence?: number;
  deliveryCount?: number;
}

export interface DeadLetter {
  subject: string;
  message: MessageOf<'deadletter.recorded'>;
  /** Secrets found (and removed) in the excerpt, by kind. */
  redactions: Record<string, number>;
}

/**
 * The dead-letter record of a rejected message: the reason, and a short excerpt of the original with
 * secrets redacted. The id derives from the stream position, so a redelivery dead-letters once.
 */
export function buildDeadLetter(rejected: RejectedMessage): DeadLetter {
  const { service, address } = rejected;
  const excerpt = redactText(new TextDecoder().decode(rejected.data.subarray(0, EXCERPT_BYTES)));
  // Parser messages can quote the input, so the detail is redacted too.
  const detail = redactText(rejected.detail, excerpt.counts).value;
  const key =
    rejected.stream && rejected.streamSequence !== undefined
      ? `${service}:${rejected.stream}:${rejected.streamSequence}`
      : `${service}:${rejected.subject}:${rejected.messageId ?? createHash('sha256').update(rejected.data).digest('hex')}`;
  const payload = {
    service,
    reason: rejected.reason,
    detail: detail.slice(0, 4000),
    original_subject: rejected.subject.slice(0, 512),
    original_size: rejected.data.byteLength,
    original_sha256: createHash('sha256').update(rejected.data).digest('hex'),
    original_excerpt: excerpt.value.slice(0, EXCERPT_CHARS),
    ...(rejected.messageId ? { original_message_id: rejected.messageId.slice(0, 256) } : {}),
    ...(rejected.type ? { original_type: rejected.type.slice(0, 128) } : {}),
    ...(rejected.stream ? { stream: rejected.stream } : {}),
    ...(rejected.streamSequence !== undefined ? { stream_sequence: rejected.streamSequence } : {}),
    ...(rejected.deliveryCount !== undefined ? { delivery_count: rejected.deliveryCount } : {}),
  };
  const message = createMessage('deadletter.recorded', {
    id: derivedMessageId('deadletter.recorded', key),
    session_id: address?.sessionId ?? NO_SCOPE,
    agent_id: address?.agentId ?? NO_SCOPE,
    payload,
  });
  return { subject: deadLetterSubject(service, address), message, redactions: excerpt.counts };
}
