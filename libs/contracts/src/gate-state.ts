/**
 * Names the gate stores its durable state under, and the parts of its operator API other programs
 * (the CLI) share. The buffer stream and buckets are private to the gate: other services never read
 * them; operators go through the gate's HTTP API.
 */

/** Relay state per paused session (`state.<agent>.<session>`) and flush progress (`cursor.<agent>.<session>`). */
export const GATE_SESSION_BUCKET = 'warden_gate_sessions';

/** What the gate knows of a session for its human gates: phase and environment (`<agent>.<session>`). */
export const GATE_CONTEXT_BUCKET = 'warden_gate_context';

/** Human gate approval requests by request id, pending and answered (answered ones stay to reject stale answers). */
export const GATE_REQUEST_BUCKET = 'warden_gate_requests';

/**
 * The approval channels' outbox (`<channel>.<request>`): what is still to be sent to Slack or a webhook
 * for a request, and the Slack message already posted for it (so a restarted gate updates it, never posts twice).
 */
export const GATE_APPROVAL_BUCKET = 'warden_gate_approvals';

/** The stream that holds the messages of paused sessions until they are flushed. */
export const GATE_BUFFER_STREAM = 'WARDEN_GATE_BUFFER';

export const GATE_BUFFER_ROOT = 'warden.gate_buffer';

/** Subject of one session's buffer: `warden.gate_buffer.<agent>.<session>` (not a channel: nothing else consumes it). */
export function gateBufferSubject(agentId: string, sessionId: string): string {
  return `${GATE_BUFFER_ROOT}.${agentId}.${sessionId}`;
}

export function gateBufferStreamSubject(): string {
  return `${GATE_BUFFER_ROOT}.*.*`;
}

/** The header that names the operator on every call of the gate's operator API (FR-11.6). */
export const OPERATOR_ID_HEADER = 'X-Observatory-Operator-Id';

/** What the agent is told when an operator rejects a held action (FR-11.10). */
export const OPERATOR_REJECTION_PROMPT = 'action rejected by operator, do not retry';
