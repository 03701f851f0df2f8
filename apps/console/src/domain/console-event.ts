/**
 * What the console keeps of a message of the bus: the envelope fields it shows and the payload, with
 * the bulky parts of a verdict left out. Every event belongs to one agent and one session (`_` when it
 * has no session, such as a ladder change).
 */
/** A payload validated against its contract on arrival; each consumer reads the fields of its type. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- fields differ per message type, checked by the contracts
export type Payload = Record<string, any>;

export interface ConsoleEvent {
  id: string;
  type: string;
  at: string;
  agent_id: string;
  session_id: string;
  trace_id: string;
  causation_id?: string;
  hitl_required?: boolean;
  payload: Payload;
}

/** Sessions and agents are keyed `<agent>.<session>`: FR-11.2 keys a session's buffer by both. */
export function sessionKey(agentId: string, sessionId: string): string {
  return `${agentId}.${sessionId}`;
}

const BULKY_VERDICT_FIELDS = ['validations', 'rationality', 'side_effects', 'shadow_rule_hits', 'rule_errors'];

export function toConsoleEvent(message: {
  id: string;
  type: string;
  timestamp: string;
  agent_id: string;
  session_id: string;
  trace_id: string;
  causation_id?: string;
  control?: { hitl_required?: boolean };
  payload: unknown;
}): ConsoleEvent {
  let payload = (message.payload ?? {}) as Payload;
  if (message.type === 'review.verdict') {
    payload = { ...payload };
    for (const field of BULKY_VERDICT_FIELDS) delete payload[field];
  }
  return {
    id: message.id,
    type: message.type,
    at: message.timestamp,
    agent_id: message.agent_id,
    session_id: message.session_id,
    trace_id: message.trace_id,
    ...(message.causation_id ? { causation_id: message.causation_id } : {}),
    ...(message.control?.hitl_required ? { hitl_required: true } : {}),
    payload,
  };
}

/** A short text for a tool input: the command, the file, or the JSON. */
export function summarizeInput(tool: string, input: Record<string, unknown> | undefined): string {
  if (!input) return tool;
  const main = input.command ?? input.file_path ?? input.path ?? input.url ?? input.pattern ?? input.query;
  const text = typeof main === 'string' ? main : JSON.stringify(input);
  return `${tool}: ${text.length > 160 ? `${text.slice(0, 159)}…` : text}`;
}
