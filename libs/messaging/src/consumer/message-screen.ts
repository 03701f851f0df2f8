import {
  CHANNELS,
  definitionOf,
  parseMessage,
  parseSessionSubject,
  partitionOf,
  type AnyMessage,
  type ChannelId,
  type DeadLetterReason,
  type SessionAddress,
} from '@warden/contracts';

export interface ScreenRules {
  channel: ChannelId;
  partitions: number;
  maxPayloadBytes: number;
}

export type Screening =
  | { verdict: 'accept'; message: AnyMessage; address: SessionAddress | null }
  | { verdict: 'reject'; reason: DeadLetterReason; detail: string; type?: string; address: SessionAddress | null };

/**
 * Decides whether an inbound message may reach a handler. Checks run cheapest first, and each names
 * exactly what is wrong, because the reason goes back to whoever sent it.
 */
export function screenMessage(subject: string, data: Uint8Array, rules: ScreenRules): Screening {
  const channel = CHANNELS[rules.channel];
  const address = channel.kind === 'session' ? parseSessionSubject(subject) : null;
  const reject = (reason: DeadLetterReason, detail: string, type?: string): Screening => ({
    verdict: 'reject',
    reason,
    detail,
    type,
    address,
  });

  if (data.byteLength > rules.maxPayloadBytes) {
    return reject('oversized', `payload is ${data.byteLength} bytes; the limit is ${rules.maxPayloadBytes}`);
  }
  if (channel.kind === 'session') {
    if (!address || address.channel !== rules.channel) {
      return reject('unroutable_subject', `subject ${subject.slice(0, 200)} is not a ${rules.channel} subject`);
    }
    const expected = partitionOf(address.sessionId, rules.partitions);
    if (address.partition !== expected) {
      return reject(
        'wrong_partition',
        `session ${address.sessionId} belongs to partition ${expected}, not ${address.partition}; publish to warden.${rules.channel}.<agent_id>.<session_id>`,
      );
    }
  }
  const parsed = parseMessage(data);
  if (!parsed.ok) return reject(parsed.reason, parsed.detail, parsed.type);
  const { message } = parsed;
  if (definitionOf(message.type)!.channel !== rules.channel) {
    return reject('unexpected_type', `${message.type} does not belong on the ${rules.channel} channel`, message.type);
  }
  if (address && (message.agent_id !== address.agentId || message.session_id !== address.sessionId)) {
    return reject(
      'identity_mismatch',
      `envelope says agent ${message.agent_id} / session ${message.session_id}, the subject says agent ${address.agentId} / session ${address.sessionId}`,
      message.type,
    );
  }
  return { verdict: 'accept', message, address };
}
