import { HITL_COMMANDS, isSubjectToken, type HitlCommandType, type MessageOf } from '@warden/contracts';

/** A HITL command as FR-11.4 defines it, after validation, with Warden's optional extensions on unpause. */
export interface HitlCommand {
  type: HitlCommandType;
  session_id: string;
  agent_id: string;
  operator_id: string;
  /** When the operator issued it (ISO 8601 UTC). */
  timestamp: string;
  reason?: string;
  original_trace_id?: string;
  new_content?: string;
  prompt?: string;
  /** hitl_unpause: approve (default) or reject what waits for approval. */
  resolution?: 'approve' | 'reject';
  /** hitl_unpause: the human gate request this answers. */
  request_id?: string;
  /** hitl_unpause: approval with conditions. */
  conditions?: string[];
  /** hitl_unpause of a request: the approval digest of what the operator was shown (a stale one is refused). */
  digest?: string;
  /** hitl_unpause: the approval channel the answer came through (api, console, slack, …). */
  channel?: string;
  /** hitl_pause: an operator's emergency stop; the agent stops until the pause is approved. */
  stop_agent?: boolean;
}

/** The fields each command type must carry (FR-11.4), in the order they are reported missing. */
export const REQUIRED_FIELDS: Readonly<Record<HitlCommandType, readonly string[]>> = {
  hitl_pause: ['type', 'session_id', 'agent_id', 'operator_id', 'reason', 'timestamp'],
  hitl_rewrite: ['type', 'session_id', 'agent_id', 'original_trace_id', 'new_content', 'operator_id', 'timestamp'],
  hitl_inject: ['type', 'session_id', 'agent_id', 'prompt', 'operator_id', 'timestamp'],
  hitl_unpause: ['type', 'session_id', 'agent_id', 'operator_id', 'timestamp'],
};

export type CommandCheck = { ok: true; command: HitlCommand } | { ok: false; reason: string };

const MAX_LENGTH: Record<string, number> = {
  operator_id: 256,
  reason: 2000,
  original_trace_id: 128,
  new_content: 100_000,
  prompt: 16_000,
  request_id: 128,
};

const TRACE_ID = /^[A-Za-z0-9][A-Za-z0-9_.:-]{0,127}$/;
const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?Z$/;

export function isHitlCommandType(value: unknown): value is HitlCommandType {
  return typeof value === 'string' && (HITL_COMMANDS as readonly string[]).includes(value);
}

const fail = (reason: string): CommandCheck => ({ ok: false, reason });

/**
 * Validates a command (an HTTP body merged with the path and header, or an inbox file): a known type,
 * every required field present and non-blank, and well-formed values. The reasons are the HTTP 422
 * reasons: `unknown_command_type`, `missing_required_field: <name>`, `invalid_field: <name> (...)`.
 */
export function checkHitlCommand(input: unknown): CommandCheck {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) return fail('body_must_be_a_json_object');
  const raw = input as Record<string, unknown>;
  if (isBlank(raw.type)) return fail('missing_required_field: type');
  if (!isHitlCommandType(raw.type)) return fail('unknown_command_type');
  const type = raw.type;
  for (const field of REQUIRED_FIELDS[type]) {
    if (isBlank(raw[field])) return fail(`missing_required_field: ${field}`);
  }
  for (const field of ['session_id', 'agent_id', 'operator_id', 'timestamp', 'reason', 'original_trace_id', 'new_content', 'prompt', 'request_id']) {
    const value = raw[field];
    if (value === undefined || value === null) continue;
    if (typeof value !== 'string') return fail(`invalid_field: ${field} (must be a string)`);
    const max = MAX_LENGTH[field];
    if (max !== undefined && value.length > max) return fail(`invalid_field: ${field} (longer than ${max} characters)`);
  }
  const text = (field: string) => (typeof raw[field] === 'string' && raw[field] !== '' ? (raw[field] as string) : undefined);
  const sessionId = text('session_id')!;
  const agentId = text('agent_id')!;
  if (!isSubjectToken(sessionId)) return fail('invalid_field: session_id (letters, digits, - and _ only)');
  if (!isSubjectToken(agentId)) return fail('invalid_field: agent_id (letters, digits, - and _ only)');
  const timestamp = text('timestamp')!;
  if (!ISO_UTC.test(timestamp) || Number.isNaN(Date.parse(timestamp))) {
    return fail('invalid_field: timestamp (ISO 8601 UTC expected, e.g. 2026-11-21T10:00:00Z)');
  }
  const command: HitlCommand = { type, session_id: sessionId, agent_id: agentId, operator_id: text('operator_id')!.trim(), timestamp };
  const reason = text('reason');
  if (reason !== undefined) command.reason = reason;
  const prompt = text('prompt');
  if (prompt !== undefined) command.prompt = prompt;

  const traceId = text('original_trace_id');
  const newContent = raw.new_content;
  if (type === 'hitl_rewrite' || (type === 'hitl_unpause' && (traceId !== undefined || newContent !== undefined))) {
    // An unpause may carry a rewrite (rewrite-and-approve); then both of its fields are required.
    if (traceId === undefined) return fail('missing_required_field: original_trace_id');
    if (typeof newContent !== 'string' || newContent === '') return fail('missing_required_field: new_content');
    if (!TRACE_ID.test(traceId)) return fail('invalid_field: original_trace_id (a trace id of a buffered message)');
    command.original_trace_id = traceId;
    command.new_content = newContent;
  }

  if (raw.stop_agent !== undefined && raw.stop_agent !== null && raw.stop_agent !== false) {
    if (raw.stop_agent !== true) return fail('invalid_field: stop_agent (true or false)');
    if (type !== 'hitl_pause') return fail('invalid_field: stop_agent (only a pause stops the agent)');
    command.stop_agent = true;
  }

  if (type === 'hitl_unpause') {
    if (raw.resolution !== undefined && raw.resolution !== null) {
      if (raw.resolution !== 'approve' && raw.resolution !== 'reject') return fail('invalid_field: resolution (approve or reject)');
      command.resolution = raw.resolution;
    }
    const requestId = text('request_id');
    if (requestId !== undefined) {
      if (!isSubjectToken(requestId)) return fail('invalid_field: request_id');
      command.request_id = requestId;
    }
    if (raw.conditions !== undefined && raw.conditions !== null) {
      const conditions = raw.conditions;
      if (!Array.isArray(conditions) || conditions.length > 32 || !conditions.every((c) => typeof c === 'string' && c.trim() && c.length <= 1000)) {
        return fail('invalid_field: conditions (up to 32 non-empty strings)');
      }
      if (command.resolution === 'reject') return fail('invalid_field: conditions (only an approval has conditions)');
      if (conditions.length) command.conditions = conditions.map((c: string) => c.trim());
    }
    if (raw.digest !== undefined && raw.digest !== null) {
      if (typeof raw.digest !== 'string' || !/^[a-f0-9]{64}$/.test(raw.digest)) return fail("invalid_field: digest (the 64 hex digits of the request's digest)");
      if (!command.request_id) return fail('invalid_field: digest (a digest answers a request: give request_id too)');
      command.digest = raw.digest;
    }
    if (raw.channel !== undefined && raw.channel !== null) {
      if (typeof raw.channel !== 'string' || !/^[a-z][a-z0-9_-]{0,31}$/.test(raw.channel)) return fail('invalid_field: channel (a channel name, e.g. api, console, slack)');
      command.channel = raw.channel;
    }
    if (command.resolution === 'reject' && command.original_trace_id) {
      return fail('invalid_field: resolution (a rewrite approves; it cannot be rejected in the same command)');
    }
  }
  return { ok: true, command };
}

function isBlank(value: unknown): boolean {
  return value === undefined || value === null || (typeof value === 'string' && value.trim() === '');
}

/** Checks a gate.command from the bus as the API checks a request body: the same rules, the same refusals. */
export function checkCommandMessage(message: MessageOf<'gate.command'>): CommandCheck {
  const p = message.payload;
  return checkHitlCommand({
    type: p.command_type,
    session_id: message.session_id,
    agent_id: message.agent_id,
    operator_id: p.operator_id,
    timestamp: message.timestamp,
    ...(p.reason !== undefined ? { reason: p.reason } : {}),
    ...(p.original_trace_id !== undefined ? { original_trace_id: p.original_trace_id } : {}),
    ...(p.new_content !== undefined ? { new_content: p.new_content } : {}),
    ...(p.prompt !== undefined ? { prompt: p.prompt } : {}),
    ...(p.resolution !== undefined ? { resolution: p.resolution } : {}),
    ...(p.request_id !== undefined ? { request_id: p.request_id } : {}),
    ...(p.conditions !== undefined ? { conditions: p.conditions } : {}),
    ...(p.digest !== undefined ? { digest: p.digest } : {}),
    ...(p.channel !== undefined ? { channel: p.channel } : {}),
    ...(p.stop_agent !== undefined ? { stop_agent: p.stop_agent } : {}),
  });
}
