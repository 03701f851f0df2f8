import { createHash, randomUUID } from 'node:crypto';

export function newMessageId(): string {
  return randomUUID();
}

/**
 * A deterministic id for a message derived from another: handling the same input twice yields the same
 * id, so JetStream's `Nats-Msg-Id` de-duplication drops the second publish. Shaped as a UUID (v5 layout).
 */
export function derivedMessageId(type: string, key: string): string {
  const bytes = createHash('sha256').update(`warden:${type}:${key}`).digest().subarray(0, 16);
  bytes[6] = (bytes[6]! & 0x0f) | 0x50;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
