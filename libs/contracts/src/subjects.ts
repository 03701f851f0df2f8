import { CHANNELS, type ChannelId, type SessionChannelId, SESSION_CHANNEL_IDS } from './channels.js';
import type { ServiceName } from './vocabulary.js';
import { NO_SCOPE } from './vocabulary.js';

export const SUBJECT_ROOT = 'warden';

/** Where a client publishes on a session channel; the server's mapping adds the partition. */
export function publishSubject(channelId: SessionChannelId, agentId: string, sessionId: string): string {
  return `${SUBJECT_ROOT}.${channelId}.${agentId}.${sessionId}`;
}

/** The subjects a channel's stream captures (after the server mapping). */
export function streamSubject(channelId: SessionChannelId): string {
  return `${SUBJECT_ROOT}.${channelId}.*.*.*`;
}

/** The filter of the consumer that owns one partition of a channel. */
export function partitionFilter(channelId: SessionChannelId, partition: number): string {
  return `${SUBJECT_ROOT}.${channelId}.${partition}.*.*`;
}

/** What an agent subscribes to for its own session (any partition). */
export function sessionSubscription(channelId: SessionChannelId, agentId: string, sessionId: string): string {
  return `${SUBJECT_ROOT}.${channelId}.*.${agentId}.${sessionId}`;
}

/** What an observer subscribes to for everything on one session: every session channel, any partition. */
export function anyChannelSubscription(agentId: string, sessionId: string): string {
  return `${SUBJECT_ROOT}.*.*.${agentId}.${sessionId}`;
}

/** The server subject mapping that assigns sessions to partitions (nats-server 2.9 `mappings`). */
export function partitionMapping(channelId: SessionChannelId, partitions: number): { from: string; to: string } {
  return {
    from: `${SUBJECT_ROOT}.${channelId}.*.*`,
    to: `${SUBJECT_ROOT}.${channelId}.{{partition(${partitions},2)}}.{{wildcard(1)}}.{{wildcard(2)}}`,
  };
}

/** A probe subject whose mapping lets a service check the server's partition count against its own. */
export const PARTITION_PROBE_ROOT = `${SUBJECT_ROOT}.probe`;
export function partitionProbeMapping(partitions: number): { from: string; to: string } {
  return {
    from: `${PARTITION_PROBE_ROOT}.*`,
    to: `${PARTITION_PROBE_ROOT}.{{partition(${partitions},1)}}.{{wildcard(1)}}`,
  };
}

export interface SessionAddress {
  channel: SessionChannelId;
  partition: number;
  agentId: string;
  sessionId: string;
}

/** A stored session-channel subject (after the server's mapping): what parseSessionSubject reads. */
export function sessionSubject(address: SessionAddress): string {
  return `${SUBJECT_ROOT}.${address.channel}.${address.partition}.${address.agentId}.${address.sessionId}`;
}

/** Reads a stored session-channel subject; null when it is not one. */
export function parseSessionSubject(subject: string): SessionAddress | null {
  const tokens = subject.split('.');
  if (tokens.length !== 5 || tokens[0] !== SUBJECT_ROOT) return null;
  const [, channelId, partition, agentId, sessionId] = tokens as [string, string, string, string, string];
  if (!(SESSION_CHANNEL_IDS as string[]).includes(channelId)) return null;
  if (!/^\d{1,4}$/.test(partition)) return null;
  return { channel: channelId as SessionChannelId, partition: Number(partition), agentId, sessionId };
}

export const DEAD_LETTER_ROOT = `${SUBJECT_ROOT}.deadletter`;

/** `warden.deadletter.<service>.<channel>.<partition>.<agent>.<session>`; `_` where the origin is unknown. */
export function deadLetterSubject(service: ServiceName, origin: SessionAddress | null): string {
  if (!origin) return `${DEAD_LETTER_ROOT}.${service}.${NO_SCOPE}.${NO_SCOPE}.${NO_SCOPE}.${NO_SCOPE}`;
  return `${DEAD_LETTER_ROOT}.${service}.${origin.channel}.${origin.partition}.${origin.agentId}.${origin.sessionId}`;
}

/**
 * What an agent subscribes to, to learn that a service rejected one of its messages; `from` narrows it to
 * one service's rejections, or to those of messages on one channel.
 */
export function deadLetterSubscription(agentId: string, sessionId: string, from: { service?: ServiceName; channel?: SessionChannelId } = {}): string {
  return `${DEAD_LETTER_ROOT}.${from.service ?? '*'}.${from.channel ?? '*'}.*.${agentId}.${sessionId}`;
}

export function deadLetterStreamSubject(): string {
  return `${DEAD_LETTER_ROOT}.>`;
}

/** The addresses of every request channel (`warden.query.<service>`): where operators send queries. */
export function requestSubjects(): string {
  return `${SUBJECT_ROOT}.query.>`;
}

/** Request/reply address of a request channel. */
export function requestSubject(channelId: ChannelId): string {
  const ch = CHANNELS[channelId];
  if (ch.kind !== 'request') throw new Error(`channel ${channelId} is not a request channel`);
  return ch.address;
}
