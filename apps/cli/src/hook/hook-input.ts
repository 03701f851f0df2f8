import { isSubjectToken } from '@warden/contracts';

/** The tool hook events the adapter answers. */
export const TOOL_HOOK_EVENTS = ['PreToolUse', 'PostToolUse', 'PostToolUseFailure'] as const;
export type HookEvent = (typeof TOOL_HOOK_EVENTS)[number];
/** Every hook event the adapter answers: the tool events, and the end of the session. */
export const HOOK_EVENTS = [...TOOL_HOOK_EVENTS, 'SessionEnd'] as const;

/**
 * What Claude Code writes on a tool hook's stdin (hooks reference, "PreToolUse input" /
 * "PostToolUse input"): common fields, the tool call, and for PostToolUse the response and duration,
 * for PostToolUseFailure the error; subagents add agent_id and agent_type.
 */
export interface HookInput {
  session_id: string;
  transcript_path?: string;
  cwd: string;
  hook_event_name: HookEvent;
  permission_mode?: string;
  tool_name: string;
  tool_input: Record<string, unknown>;
  tool_use_id: string;
  tool_response?: unknown;
  duration_ms?: number;
  error?: string;
  agent_id?: string;
  agent_type?: string;
}

/**
 * What Claude Code writes on the SessionEnd hook's stdin (hooks reference, "SessionEnd input"): the
 * common fields and why the session ended (`clear`, `logout`, `prompt_input_exit`, `other`, …).
 */
export interface SessionEndInput {
  session_id: string;
  transcript_path?: string;
  cwd: string;
  hook_event_name: 'SessionEnd';
  reason: string;
}

export class HookInputError extends Error {}

const isObject = (value: unknown): value is Record<string, unknown> => !!value && typeof value === 'object' && !Array.isArray(value);

/** Reads the hook's stdin; throws HookInputError naming what is wrong. */
export function parseHookInput(text: string): HookInput | SessionEndInput {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    throw new HookInputError(`stdin is not JSON (${(error as Error).message})`);
  }
  if (!isObject(raw)) throw new HookInputError('stdin must be a JSON object');
  const event = raw.hook_event_name;
  if (typeof event !== 'string' || !(HOOK_EVENTS as readonly string[]).includes(event)) {
    throw new HookInputError(`hook_event_name must be one of ${HOOK_EVENTS.join(', ')} (got ${JSON.stringify(event)})`);
  }
  const text_ = (name: string): string => {
    const value = raw[name];
    if (typeof value !== 'string' || !value) throw new HookInputError(`${name} is missing or not a string`);
    return value;
  };
  const optionalText = (name: string) => (typeof raw[name] === 'string' ? { [name]: raw[name] as string } : {});
  const sessionId = text_('session_id');
  // Both travel in NATS subjects and message ids; Claude Code's are UUIDs and toolu_… ids.
  if (!isSubjectToken(sessionId)) throw new HookInputError(`session_id "${sessionId}" must be 1-128 letters, digits, - or _`);
  if (event === 'SessionEnd') {
    const reason = typeof raw.reason === 'string' && raw.reason ? raw.reason.slice(0, 200) : 'other';
    return { session_id: sessionId, cwd: text_('cwd'), hook_event_name: 'SessionEnd', reason, ...optionalText('transcript_path') };
  }
  const toolUseId = text_('tool_use_id');
  if (!isSubjectToken(toolUseId)) throw new HookInputError(`tool_use_id "${toolUseId}" must be 1-128 letters, digits, - or _`);
  if (!isObject(raw.tool_input)) throw new HookInputError('tool_input must be a JSON object');
  return {
    session_id: sessionId,
    cwd: text_('cwd'),
    hook_event_name: event as HookEvent,
    tool_name: text_('tool_name'),
    tool_input: raw.tool_input,
    tool_use_id: toolUseId,
    ...optionalText('transcript_path'),
    ...optionalText('permission_mode'),
    ...optionalText('error'),
    ...optionalText('agent_id'),
    ...optionalText('agent_type'),
    ...('tool_response' in raw ? { tool_response: raw.tool_response } : {}),
    ...(typeof raw.duration_ms === 'number' && raw.duration_ms >= 0 ? { duration_ms: raw.duration_ms } : {}),
  };
}
