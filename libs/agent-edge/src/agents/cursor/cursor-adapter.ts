import { isSubjectToken } from '@warden/contracts';
import type { AgentAdapter } from '../../agent-adapter.js';
import { derivedCall, proposedIn } from '../../call-id.js';
import type { EdgeAnswer, ToolAnswer } from '../../edge-answer.js';
import { EdgeInputError, type EdgeEvent, type EdgeSession, type EdgeToolCall } from '../../edge-event.js';
import { argumentsOf, isObject, optionalDuration, optionalText, payloadObject, requiredText, sessionIdOf } from '../payload-fields.js';

/** The shell and MCP calls, whose own events (beforeShellExecution, beforeMCPExecution) are the only ones where Cursor can ask. */
const asksAbout = (tool: string): boolean => tool === 'Shell' || tool.startsWith('MCP:');

/** Events read from preToolUse: there `ask` is not Cursor's prompt, so an ask is written as a deny. */
const NO_ASK = new WeakSet<EdgeEvent>();

/**
 * Cursor's agent hooks (https://cursor.com/docs/agent/hooks; the field lists below are those integrators
 * ship against it: eqtylab/cupcake cupcake-core/src/harness/events/cursor/, cisco-ai-defense/defenseclaw
 * internal/gateway/connector/, mksglu/context-mode src/adapters/cursor/). Every event carries
 * `hook_event_name`, `conversation_id` (newer builds also `session_id`), `generation_id`,
 * `workspace_roots`, and `cwd` on tool events (empty on some: then the first workspace root).
 *
 * A shell command is `beforeShellExecution` {command, cwd} then `afterShellExecution` {command, output,
 * duration}; an MCP call `beforeMCPExecution` {tool_name, tool_input (JSON text)} then
 * `afterMCPExecution`; every other tool `preToolUse` {tool_name, tool_input, tool_use_id} then
 * `postToolUse` {tool_output, duration_ms} or `postToolUseFailure` (its error field is UNCONFIRMED:
 * `error_message` as context-mode reads it, or `error`). Warden's install keeps shell and MCP calls out
 * of preToolUse (its matcher), so each call is proposed once, at the event where Cursor can ask about it.
 * The shell and MCP events name no call: their id is derived from the tool and input (derivedCall),
 * which the events before and after both carry. The shell is `Shell` {command} and an MCP tool
 * `MCP:<tool>`, as preToolUse names them.
 */
function readCursor(payload: unknown): EdgeEvent {
  const raw = payloadObject(payload);
  const event = requiredText(raw, 'hook_event_name');
  const roots = Array.isArray(raw.workspace_roots) ? raw.workspace_roots.filter((r): r is string => typeof r === 'string' && !!r) : [];
  const cwd = optionalText(raw, 'cwd') ?? roots[0];
  const transcriptPath = optionalText(raw, 'transcript_path');
  const session: EdgeSession = { id: sessionIdOf(raw, 'conversation_id', 'session_id'), ...(cwd ? { cwd } : {}), ...(transcriptPath ? { transcriptPath } : {}) };
  const named = (): EdgeToolCall => {
    const tool = requiredText(raw, 'tool_name');
    if (!isObject(raw.tool_input)) throw new EdgeInputError('tool_input must be a JSON object');
    const id = optionalText(raw, 'tool_use_id', 128);
    // Cursor's own id when it gives one that fits a NATS subject; otherwise the call's key, the same before and after.
    return id && isSubjectToken(id) ? { id, tool, input: raw.tool_input } : derivedCall(tool, raw.tool_input);
  };
  const mcp = (): EdgeToolCall => derivedCall(`MCP:${requiredText(raw, 'tool_name')}`, argumentsOf(raw.tool_input, 'tool_input'));
  switch (event) {
    case 'sessionStart': {
      const model = optionalText(raw, 'model', 128);
      return { type: 'session_start', session: { ...session, ...(model ? { model } : {}) }, source: optionalText(raw, 'source', 64) ?? 'startup' };
    }
    case 'sessionEnd':
      // Its fields are UNCONFIRMED: a reason when one is given.
      return { type: 'session_end', session, reason: optionalText(raw, 'reason', 200) ?? 'other' };
    case 'beforeSubmitPrompt':
      return { type: 'prompt', session, prompt: typeof raw.prompt === 'string' ? raw.prompt : '' };
    case 'stop':
      // `loop_count` counts the follow-ups hooks already sent this turn.
      return { type: 'stop', session, prolonged: typeof raw.loop_count === 'number' && raw.loop_count > 0 };
    case 'beforeShellExecution':
      return { type: 'before_tool', session, call: proposedIn(derivedCall('Shell', { command: requiredText(raw, 'command') }), raw) };
    case 'afterShellExecution': {
      const durationMs = optionalDuration(raw, 'duration');
      return {
        type: 'after_tool',
        session,
        call: derivedCall('Shell', { command: requiredText(raw, 'command') }),
        result: { ok: true, ...(raw.output !== undefined ? { output: raw.output } : {}), ...(durationMs !== undefined ? { durationMs } : {}) },
      };
    }
    case 'beforeMCPExecution':
      return { type: 'before_tool', session, call: proposedIn(mcp(), raw) };
    case 'afterMCPExecution': {
      const durationMs = optionalDuration(raw, 'duration');
      return { type: 'after_tool', session, call: mcp(), result: { ok: true, ...(raw.result_json !== undefined ? { output: raw.result_json } : {}), ...(durationMs !== undefined ? { durationMs } : {}) } };
    }
    case 'preToolUse': {
      const before: EdgeEvent = { type: 'before_tool', session, call: proposedIn(named(), raw) };
      NO_ASK.add(before);
      return before;
    }
    case 'postToolUse': {
      const durationMs = optionalDuration(raw, 'duration_ms');
      return { type: 'after_tool', session, call: named(), result: { ok: true, ...(raw.tool_output !== undefined ? { output: raw.tool_output } : {}), ...(durationMs !== undefined ? { durationMs } : {}) } };
    }
    case 'postToolUseFailure': {
      const error = optionalText(raw, 'error_message', 8000) ?? optionalText(raw, 'error', 8000) ?? 'the tool failed';
      return { type: 'after_tool', session, call: named(), result: { ok: false, error } };
    }
    default:
      throw new EdgeInputError(`hook_event_name ${JSON.stringify(event)} is not an event Warden answers for Cursor`);
  }
}

/** The text of a deny for the model: the reason, then what else Warden has to say. */
const forModel = (reason: string, context: string[]) => [reason, ...context].join('\n');

/**
 * Warden's answer in Cursor's format. The events that hold a call (`failClosed: true` in Warden's
 * install, where no output blocks) always get an explicit permission: `allow` for no objection, which
 * Cursor does not take as a grant (cursor-agent still applies its allowlist and prompts: observed on
 * cursor-agent 2026.07.16, michaeldhopkins/safe-chains HARNESS-BEHAVIORS.md; the editor's behaviour is
 * UNCONFIRMED), `deny` and `ask` (shell and MCP events only) with `user_message` for the person and
 * `agent_message` for the model. A prompt is refused with `continue: false`; the end of a turn is
 * prolonged with `followup_message`; `additional_context` reaches the model after a preToolUse call and
 * at the session's start. The shell and MCP after-events, and a prompt, take no text for the model.
 */
function writeCursor(event: EdgeEvent, answer: EdgeAnswer): Record<string, unknown> | null {
  const context = answer.context.length ? answer.context.join('\n') : undefined;
  switch (event.type) {
    case 'before_tool': {
      let tool: ToolAnswer = answer.tool ?? { decision: 'run' };
      if (tool.decision === 'ask' && NO_ASK.has(event)) tool = { decision: 'deny', reason: `${tool.reason} (Cursor cannot ask about ${event.call.tool} here, so it is refused)` };
      if (tool.decision === 'rewrite') tool = { decision: 'deny', reason: `${tool.reason} Run this instead: ${JSON.stringify(tool.input)}` };
      if (tool.decision === 'deny' || tool.decision === 'ask') {
        return { permission: tool.decision, user_message: answer.notice ? `${tool.reason}\n${answer.notice}` : tool.reason, agent_message: forModel(tool.reason, answer.context) };
      }
      return { permission: 'allow', ...(answer.notice ? { user_message: answer.notice } : {}), ...(context ? { agent_message: context } : {}) };
    }
    case 'prompt':
      return answer.block ? { continue: false, user_message: answer.block } : null;
    case 'stop':
      return answer.block ? { followup_message: answer.block } : null;
    case 'after_tool':
    case 'session_start':
      return context ? { additional_context: context } : null;
    case 'session_end':
      return null;
  }
}

/**
 * Cursor (the editor's agent and cursor-agent). It asks its user only about shell and MCP calls (`ask`
 * elsewhere is not its prompt), shows no changed input, and does not run one: `updated_input` on
 * preToolUse is UNCONFIRMED, and the shell and MCP events have none, so a changed command is refused
 * with the command to run instead. Its `allow` is no grant. Text reaches the model beside a decision
 * (`agent_message`), after a preToolUse call and at the start (`additional_context`); control messages
 * that come with a prompt or after a shell or MCP call wait for the next event that can carry them.
 * Silence runs the tool, and a hook that fails or times out lets it run, unless the entry says
 * `failClosed: true` (Warden's install does for the events that hold a call; then no output blocks, so
 * Warden always answers them). No HTTP hooks: the command shim. Subagents are not named in tool events
 * (UNCONFIRMED). Where a person is at the editor is not said either: a headless run (a background agent)
 * routes approvals to an operator with `--approvals operator`.
 */
export const cursorAdapter: AgentAdapter<'cursor'> = {
  name: 'cursor',
  title: 'Cursor',
  agentKind: 'cursor',
  capabilities: {
    ask: true,
    askOnly: asksAbout,
    askWithInput: false,
    rewrite: false,
    allowGrants: false,
    context: true,
    contextOn: (event) => event.type !== 'prompt' && !(event.type === 'after_tool' && (!event.result.ok || asksAbout(event.call.tool))),
    silenceRuns: false,
    failsOpen: true,
    http: false,
    namesSubagents: false,
  },
  read: (payload) => readCursor(payload),
  write: writeCursor,
  interactive: () => true,
};
