import type { NatsConnection } from '@nats-io/transport-node';
import { controlMailboxSubject, type ControlMailbox } from '@warden/contracts';
import type { ControlMessage } from './agent-session.js';

const decoder = new TextDecoder();

export interface StoredControls {
  controls: { message: ControlMessage; sequence: number }[];
  /** Highest stream sequence read (the cursor for the next run). */
  lastSequence: number;
  /** Why the stored messages could not be read, when they could not. */
  unavailable?: string;
}

/**
 * Reads the control messages of one session stored after `afterSequence` (see
 * WardenClient.storedControls): the session's record in Warden's control mailbox, a JetStream direct get
 * of the agent's own key. An agent manages no consumer to read it.
 */
export async function readStoredControls(nc: NatsConnection, agentId: string, sessionId: string, afterSequence: number, waitMs: number): Promise<StoredControls> {
  let reply;
  try {
    reply = await nc.request(controlMailboxSubject(agentId, sessionId), undefined, { timeout: waitMs });
  } catch (error) {
    return { controls: [], lastSequence: afterSequence, unavailable: (error as Error).message };
  }
  if (reply.headers?.code === 404 || !reply.data.length) return { controls: [], lastSequence: afterSequence };
  if (reply.headers?.hasError) return { controls: [], lastSequence: afterSequence, unavailable: `${reply.headers.code} ${reply.headers.description}` };
  let mailbox: ControlMailbox;
  try {
    mailbox = JSON.parse(decoder.decode(reply.data)) as ControlMailbox;
  } catch (error) {
    return { controls: [], lastSequence: afterSequence, unavailable: `the control mailbox is not JSON: ${(error as Error).message}` };
  }
  const controls = (mailbox.controls ?? []).filter((c) => c.sequence > afterSequence);
  return { controls, lastSequence: Math.max(afterSequence, ...controls.map((c) => c.sequence)) };
}
