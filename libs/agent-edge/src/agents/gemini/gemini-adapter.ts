import type { AgentAdapter } from '../../agent-adapter.js';
import { derivedCall, proposedIn } from '../../call-id.js';
import type { EdgeAnswer } from '../../edge-answer.js';
import { EdgeInputError, type EdgeEvent, type EdgeSession, type EdgeToolCall } from '../../edge-event.js';
import { isObject, optionalText, payloadObject, requiredText, sessionIdOf } from '../payload-fields.js';

/**
 * Gemini CLI's hooks (https://geminicli.com/docs/hooks; google-gemini/gemini-cli
 * packages/core/src/hooks/types.ts and docs/hooks/reference.md): every event carries `session_id`,
 * `transcript_path`, `cwd`, `hook_event_name` and `timestamp`. `BeforeTool` has `tool_name` and
 * `tool_input` (`run_shell_command` {command, description, is_background}, `write_file`, `replace`,
 * `read_file`, …; MCP tools `mcp_<server>_<tool>`, with `mcp_context`), `AfterTool` adds `tool_response
 * {llmContent, returnDisplay, error?}`; `BeforeAgent` is the user's prompt, `AfterAgent` the end of a
 * turn (`stop_hook_active`). No event names the call: its id is derived from the tool and its input
 * (derivedCall), which BeforeTool and AfterTool both carry.
 */
function readGemini(payload: unknown): EdgeEvent {
  const raw = payloadObject(payload);
  const event = requiredText(raw, 'hook_event_name');
  const cwd = optionalText(raw, 'cwd');
  const transcriptPath = optionalText(raw, 'transcript_path');
  const session: EdgeSession = { id: sessionIdOf(raw, 'session_id'), ...(cwd ? { cwd } : {}), ...(transcriptPath ? { transcriptPath } : {}) };
  const call = (): EdgeToolCall => {
    const tool = requiredText(raw, 'tool_name');
    if (!isObject(raw.tool_input)) throw new EdgeInputError('tool_input must be a JSON object');
    return derivedCall(tool, raw.tool_input);
  };
  switch (event) {
    case 'SessionStart':
      return { type: 'session_start', session, source: optionalText(raw, 'source', 64) ?? 'startup' };
    case 'SessionEnd':
      return { type: 'session_end', session, reason: optionalText(raw, 'reason', 200) ?? 'other' };
    case 'BeforeAgent':
      return { type: 'prompt', session, prompt: typeof raw.prompt === 'string' ? raw.prompt : '' };
    case 'AfterAgent':
      return { type: 'stop', session, prolonged: raw.stop_hook_active === true };
    case 'BeforeTool':
      return { type: 'before_tool', session, call: proposedIn(call(), raw) };
    case 'AfterTool': {
      const response = isObject(raw.tool_response) ? raw.tool_response : {};
      const error = response.error;
      const failed = error !== undefined && error !== null && error !== '';
      const output = response.llmContent ?? response.returnDisplay;
      return {
        type: 'after_tool',
        session,
        call: call(),
        result: { ok: !failed, ...(failed ? { error: (typeof error === 'string' ? error : JSON.stringify(error)).slice(0, 8000) } : {}), ...(output !== undefined ? { output } : {}) },
      };
    }
    default:
      throw new EdgeInputError(`hook_event_name ${JSON.stringify(event)} is not an event Warden answers for Gemini CLI`);
  }
}

/**
 * Warden's answer in Gemini CLI's format: `decision` (`deny` returns the reason to the model as the
 * tool's error, `ask` makes Gemini ask its user, `allow` is no grant: Gemini's policy engine still
 * decides), `reason`, `systemMessage` for the person, `hookSpecificOutput.tool_input` for the input to
 * run, `hookSpecificOutput.additionalContext` for the model, `continue: false` to stop the agent. A
 * prompt is refused with `decision: "deny"`; the end of a turn is prolonged with `decision: "deny"` and
 * the reason as the next prompt. Nothing to say is no output.
 */
function writeGemini(event: EdgeEvent, answer: EdgeAnswer): Record<string, unknown> | null {
  const context = answer.context.length ? answer.context.join('\n') : undefined;
  const hookEventName = ({ session_start: 'SessionStart', prompt: 'BeforeAgent', before_tool: 'BeforeTool', after_tool: 'AfterTool', stop: 'AfterAgent', session_end: 'SessionEnd' } as const)[event.type];
  if (event.type === 'session_end') return null;
  if (answer.block && (event.type === 'prompt' || event.type === 'stop')) return { decision: 'deny', reason: answer.block };
  if (event.type === 'stop') return null;
  const output: Record<string, unknown> = {};
  const specific: Record<string, unknown> = { hookEventName };
  const tool = event.type === 'before_tool' ? answer.tool : undefined;
  if (tool?.decision === 'deny' || tool?.decision === 'ask') Object.assign(output, { decision: tool.decision, reason: tool.reason });
  // Gemini's ask shows no reason of its own: the person reads it as a system message.
  if (tool?.decision === 'ask') output.systemMessage = tool.reason;
  if (tool?.decision === 'rewrite') {
    Object.assign(output, { decision: 'allow', reason: tool.reason });
    specific.tool_input = tool.input;
  }
  if (answer.notice) output.systemMessage = output.systemMessage ? `${String(output.systemMessage)}\n${answer.notice}` : answer.notice;
  // At BeforeTool, whether additionalContext reaches the model is UNCONFIRMED (types.ts reads it for AfterTool, BeforeAgent, SessionStart): control messages wait for those (contextOn).
  if (context) specific.additionalContext = context;
  if (Object.keys(specific).length > 1) output.hookSpecificOutput = specific;
  if (answer.stop) Object.assign(output, { continue: false, stopReason: answer.stop });
  return Object.keys(output).length ? output : null;
}

/**
 * Gemini CLI (its legacy hooks, still in Gemini Code Assist). It asks its user about any tool (`ask`),
 * and runs a changed input (`hookSpecificOutput.tool_input`, merged into the arguments); whether its
 * prompt shows a changed input is UNCONFIRMED, so one is never asked about. Its `allow` is no grant.
 * Text reaches the model after a tool ran, with a prompt, at the start and at the end of a turn;
 * control messages taken at BeforeTool wait for those. Silence runs the tool through Gemini's policy
 * engine. A hook that crashes or times out lets the call run; one that exits 2 or more with text blocks
 * it (the shim does when Warden cannot be reached). No HTTP hooks: the command shim. Tool events name no
 * subagent, and whether hooks fire for subagents' calls is UNCONFIRMED.
 */
export const geminiAdapter: AgentAdapter<'gemini'> = {
  name: 'gemini',
  title: 'Gemini CLI',
  agentKind: 'gemini',
  capabilities: {
    ask: true,
    askWithInput: false,
    rewrite: true,
    allowGrants: false,
    context: true,
    contextOn: (event) => event.type !== 'before_tool',
    silenceRuns: true,
    failsOpen: true,
    http: false,
    namesSubagents: false,
  },
  read: (payload) => readGemini(payload),
  write: writeGemini,
  interactive: () => true,
};
