import type { MessageOf } from './catalog.js';

/**
 * Each session's recent control messages, one record per session (`<agent>.<session>`), kept by the
 * intervention controller from the control stream. An agent process that was not listening when they
 * were sent (each run of a command hook) reads its own record with a JetStream direct get: agents manage
 * no consumers (a consumer an agent may create is one it may reconfigure, another service's included).
 */
export const CONTROL_MAILBOX_BUCKET = 'warden_controls';

/** How many control messages a session's record keeps (the newest). */
export const CONTROL_MAILBOX_KEPT = 64;

/** Records are kept as long as the control stream keeps control messages (7 days). */
export const CONTROL_MAILBOX_TTL_MS = 7 * 24 * 3_600_000;

export interface ControlMailbox {
  /** Oldest first; `sequence` is the message's sequence in the control stream (a reader's cursor). */
  controls: { sequence: number; message: MessageOf<'control.issued'> }[];
}

export function controlMailboxKey(agentId: string, sessionId: string): string {
  return `${agentId}.${sessionId}`;
}

/** The subject an agent reads its session's record at with a JetStream direct get (last message of the key). */
export function controlMailboxSubject(agentId: string, sessionId: string): string {
  return `$JS.API.DIRECT.GET.KV_${CONTROL_MAILBOX_BUCKET}.$KV.${CONTROL_MAILBOX_BUCKET}.${controlMailboxKey(agentId, sessionId)}`;
}
