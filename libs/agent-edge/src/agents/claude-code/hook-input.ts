import { isSubjectToken } from '@warden/contracts';
import { EdgeInputError, type EdgeEvent, type EdgeSession } from '../../edge-event.js';

/**
 * The tool hook events the adapter answers. PermissionDenied (Claude Code 2.1.88, changelog: "fires after
 * auto mode classifier denials") says a call was refused by the auto mode classifier, a permission rule
 * or a hook: it never ran.
 */
export const TOOL_HOOK_EVENTS = ['PreToolUse', 'PostToolUse', 'PostToolUseFailure', 'PermissionDenied'] as const;
export type ToolHookEvent = (typeof TOOL_HOOK_EVENTS)[number];
/** Every hook event the adapter answers: the tool events, and the session's lifecycle. */
export const HOOK_EVENTS = [...TOOL_HOOK_EVENTS, 'SessionStart', 'UserPromptSubmit', 'Stop', 'SubagentStop', 'SessionEnd'] as const;
export type HookEvent = (typeof HOOK_EVENTS)[number];

/**
 * What Claude Code answers for a call it cancelled because another call of the same response failed:
 * `Sibling tool call errored` (before 2.1.15x), `Cancelled: parallel tool call <call> errored` since
 * (anthropics/claude-code issues 22264 and 64346). Such a call did not fail; its sibling did.
 */
const CANCELLED_BY_SIBLING = /^\s*(?:<tool_use_error>\s*)?(?:Error:\s*)?(?:Sibling tool call errored|Cancelled: parallel tool call\b)/i;

export function cancelledBySibling(text: string): boolean {
  return CANCELLED_BY_SIBLING.test(text);
}

/** Fields Claude Code sends with every event (hooks reference, "Common input fields"). */
interface CommonInput {
  session_id: string;
  transcript_path?: string;
  cwd: string;
  permission_mode?: string;
  /** Set when the event comes from a subagent (or a session started with --agent). */
  agent_id?: string;
  agent_type?: string;
}

/**
 * What Claude Code sends to a tool hook ("PreToolUse input" / "PostToolUse input"): the tool call, and
 * for PostToolUse the response and duration, for PostToolUseFailure the error, for PermissionDenied why.
 */
export interface HookInput extends CommonInput {
  hook_event_name: ToolHookEvent;
  tool_name: string;
  tool_input: Record<string, unknown>;
  tool_use_id: string;
  tool_response?: unknown;
  duration_ms?: number;
  error?: string;
  /** PermissionDenied: why the call was refused. */
  reason?: string;
}

/** SessionStart: how the session began (`startup`, `resume`, `clear`, `compact`) and its model. */
export interface SessionStartInput extends CommonInput {
  hook_event_name: 'SessionStart';
  source: string;
  model?: string;
}

/** UserPromptSubmit: what the user asked. */
export interface UserPromptInput extends CommonInput {
  hook_event_name: 'UserPromptSubmit';
  prompt: string;
}

/**
 * Stop / SubagentStop: Claude is about to finish its turn; `stop_hook_active` when a hook already kept it
 * going; `last_assistant_message`, its last words of the turn (Claude Code's hooks reference lists it for
 * Stop; Codex's stop.command.input schema has it, nullable).
 */
export interface StopInput extends CommonInput {
  hook_event_name: 'Stop' | 'SubagentStop';
  stop_hook_active: boolean;
  last_assistant_message?: string;
}

/** SessionEnd: why the session ended (`clear`, `logout`, `prompt_input_exit`, `other`, …). */
export interface SessionEndInput extends CommonInput {
  hook_event_name: 'SessionEnd';
  reason: string;
}

export type AnyHookInput = HookInput | SessionStartInput | UserPromptInput | StopInput | SessionEndInput;


const isObject = (value: unknown): value is Record<string, unknown> => !!value && typeof value === 'object' && !Array.isArray(value);

/** Reads a hook payload (the command hook's stdin, the HTTP hook's body); throws EdgeInputError naming what is wrong. */
export function parseHookInput(text: string): AnyHookInput {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    throw new EdgeInputError(`the payload is not JSON (${(error as Error).message})`);
  }
  return hookInputOf(raw);
}

/** Checks an already parsed payload. */
export function hookInputOf(raw: unknown): AnyHookInput {
  if (!isObject(raw)) throw new EdgeInputError('the payload must be a JSON object');
  const event = raw.hook_event_name;
  if (typeof event !== 'string' || !(HOOK_EVENTS as readonly string[]).includes(event)) {
    throw new EdgeInputError(`hook_event_name must be one of ${HOOK_EVENTS.join(', ')} (got ${JSON.stringify(event)})`);
  }
  const text = (name: string): string => {
    const value = raw[name];
    if (typeof value !== 'string' || !value) throw new EdgeInputError(`${name} is missing or not a string`);
    return value;
  };
  const optionalText = (name: string, max = 4000) => (typeof raw[name] === 'string' && raw[name] ? { [name]: (raw[name] as string).slice(0, max) } : {});
  const sessionId = text('session_id');
  // Both travel in NATS subjects and message ids; Claude Code's are UUIDs and toolu_… ids.
  if (!isSubjectToken(sessionId)) throw new EdgeInputError(`session_id "${sessionId}" must be 1-128 letters, digits, - or _`);
  const common: CommonInput = {
    session_id: sessionId,
    cwd: text('cwd'),
    ...optionalText('transcript_path'),
    ...optionalText('permission_mode', 64),
    ...optionalText('agent_id', 128),
    ...optionalText('agent_type', 128),
  };
  switch (event as HookEvent) {
    case 'SessionEnd':
      return { ...common, hook_event_name: 'SessionEnd', reason: typeof raw.reason === 'string' && raw.reason ? raw.reason.slice(0, 200) : 'other' };
    case 'SessionStart':
      return { ...common, hook_event_name: 'SessionStart', source: typeof raw.source === 'string' && raw.source ? raw.source.slice(0, 64) : 'startup', ...optionalText('model', 128) };
    case 'UserPromptSubmit':
      return { ...common, hook_event_name: 'UserPromptSubmit', prompt: typeof raw.prompt === 'string' ? raw.prompt : '' };
    case 'Stop':
    case 'SubagentStop':
      return {
        ...common,
        hook_event_name: event as 'Stop' | 'SubagentStop',
        stop_hook_active: raw.stop_hook_active === true,
        ...(typeof raw.last_assistant_message === 'string' && raw.last_assistant_message.trim() ? { last_assistant_message: raw.last_assistant_message } : {}),
      };
    default:
      break;
  }
  const toolUseId = text('tool_use_id');
  if (!isSubjectToken(toolUseId)) throw new EdgeInputError(`tool_use_id "${toolUseId}" must be 1-128 letters, digits, - or _`);
  if (!isObject(raw.tool_input)) throw new EdgeInputError('tool_input must be a JSON object');
  return {
    ...common,
    hook_event_name: event as ToolHookEvent,
    tool_name: text('tool_name'),
    tool_input: raw.tool_input,
    tool_use_id: toolUseId,
    ...(typeof raw.error === 'string' ? { error: raw.error } : {}),
    ...(event === 'PermissionDenied' && typeof raw.reason === 'string' ? { reason: raw.reason.slice(0, 2000) } : {}),
    ...('tool_response' in raw ? { tool_response: raw.tool_response } : {}),
    ...(typeof raw.duration_ms === 'number' && raw.duration_ms >= 0 ? { duration_ms: raw.duration_ms } : {}),
  };
}

/**
 * A Claude Code hook input as Warden's event. Agents that copy Claude Code's hook format (Codex, Factory
 * Droid, Copilot CLI's PascalCase events) read through this too, with their own event names mapped first.
 */
export function edgeEventOf(input: AnyHookInput): EdgeEvent {
  const session: EdgeSession = {
    id: input.session_id,
    cwd: input.cwd,
    ...(input.transcript_path ? { transcriptPath: input.transcript_path } : {}),
    ...(input.permission_mode ? { permissionMode: input.permission_mode } : {}),
    ...(input.agent_id || input.agent_type ? { subagent: { ...(input.agent_id ? { id: input.agent_id } : {}), ...(input.agent_type ? { type: input.agent_type } : {}) } } : {}),
  };
  switch (input.hook_event_name) {
    case 'SessionStart':
      return { type: 'session_start', session: { ...session, ...(input.model ? { model: input.model } : {}) }, source: input.source };
    case 'UserPromptSubmit':
      return { type: 'prompt', session, prompt: input.prompt };
    case 'Stop':
      return { type: 'stop', session, prolonged: input.stop_hook_active, ...(input.last_assistant_message ? { words: input.last_assistant_message } : {}) };
    case 'SubagentStop':
      return { type: 'stop', session, prolonged: input.stop_hook_active };
    case 'SessionEnd':
      return { type: 'session_end', session, reason: input.reason };
    case 'PreToolUse':
      return { type: 'before_tool', session, call: { id: input.tool_use_id, tool: input.tool_name, input: input.tool_input } };
    case 'PermissionDenied':
      // Worded as Claude Code words a refusal to the model, so that every reading of a refusal knows it.
      return {
        type: 'after_tool',
        session,
        call: { id: input.tool_use_id, tool: input.tool_name, input: input.tool_input },
        result: { ok: false, refused: true, error: `Permission for this action was denied. Reason: ${input.reason || 'none given'}` },
      };
    case 'PostToolUse':
    case 'PostToolUseFailure': {
      const ok = input.hook_event_name === 'PostToolUse';
      return {
        type: 'after_tool',
        session,
        call: { id: input.tool_use_id, tool: input.tool_name, input: input.tool_input },
        result: {
          ok,
          ...(ok ? {} : { error: input.error ?? 'the tool failed' }),
          ...(!ok && input.error !== undefined && cancelledBySibling(input.error) ? { cancelled: true } : {}),
          ...(input.tool_response !== undefined ? { output: input.tool_response } : {}),
          ...(input.duration_ms !== undefined ? { durationMs: input.duration_ms } : {}),
        },
      };
    }
  }
}
