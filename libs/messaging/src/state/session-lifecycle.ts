import type { JetStreamManager, MsgRequest } from '@nats-io/jetstream';
import { partitionOf, sessionSubject, validateMessage, type AnyMessage } from '@warden/contracts';
import { streamName } from '../topology/topology.js';
import { onTheBus } from './bus-failures.js';
import type { SessionAddress } from './session-holder.js';

const decoder = new TextDecoder();

/** Messages of one session's lifecycle subject read at most: the declaration comes first, phase changes follow. */
const MAX_LIFECYCLE_MESSAGES = 32;

/** A message of a session's lifecycle as the session stream stores it. */
export interface LifecycleMessage {
  message: AnyMessage;
  /** When JetStream stored it, in epoch milliseconds. */
  storedAt: number;
}

/**
 * Reads a session's lifecycle (its declaration, phase and goal changes) from the session stream, for a
 * service that meets one of the session's actions or outcomes first: they travel on other streams, read
 * by other consumers, and after a takeover or a backlog they can come before the declaration the agent
 * published first. What is read:
 * - the declaration, and the changes stored at or before `until` (the moment the message being handled
 *   was stored), so a phase change the agent made later is not applied early (the declaration comes
 *   before any action whatever the clocks of the servers that stored them say);
 * - only what follows the session's last `session.ended` (an ended session's declaration is over);
 * - only valid messages of this session: the rest is the consumers' to dead-letter.
 * Every failure of the bus is a TransientError: the message being handled is retried, never decided
 * without the declaration.
 */
export class SessionLifecycle {
  constructor(
    private readonly jsm: JetStreamManager,
    private readonly partitions: number,
  ) {}

  read(address: SessionAddress, until = Number.POSITIVE_INFINITY): Promise<LifecycleMessage[]> {
    const subject = sessionSubject({ channel: 'session', partition: partitionOf(address.sessionId, this.partitions), agentId: address.agentId, sessionId: address.sessionId });
    return onTheBus(`reading the lifecycle of session ${address.sessionId}`, async () => {
      const lifecycle: LifecycleMessage[] = [];
      let seq = 1;
      for (let i = 0; i < MAX_LIFECYCLE_MESSAGES; i++) {
        // The message get API answers "the next message on this subject from seq" (nats-server 2.9+); nats.js types it for direct gets only.
        const query = { seq, next_by_subj: subject } as unknown as MsgRequest;
        const stored = await this.jsm.streams.getMessage(streamName('session'), query);
        if (!stored) break;
        seq = stored.seq + 1;
        const storedAt = stored.time.getTime();
        const message = sessionMessageOf(stored.data, address);
        if (message && (storedAt <= until || message.type === 'session.started')) lifecycle.push({ message, storedAt });
      }
      const ended = lifecycle.map((m) => m.message.type).lastIndexOf('session.ended');
      return lifecycle.slice(ended + 1);
    });
  }
}

/** A stored message of this session that keeps its contract, or null: the rest is the consumers' to dead-letter. */
export function sessionMessageOf(data: Uint8Array, address: SessionAddress): AnyMessage | null {
  try {
    const message = JSON.parse(decoder.decode(data)) as AnyMessage;
    if (message?.agent_id !== address.agentId || message.session_id !== address.sessionId) return null;
    return validateMessage(message).ok ? message : null;
  } catch {
    return null;
  }
}
