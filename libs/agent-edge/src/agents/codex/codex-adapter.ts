import type { AgentAdapter } from '../../agent-adapter.js';
import type { EdgeAnswer } from '../../edge-answer.js';
import { EdgeInputError, type EdgeEvent } from '../../edge-event.js';
import { edgeEventOf, hookInputOf } from '../claude-code/hook-input.js';
import { requestOf } from '../claude-code/transcript-goal.js';

/**
 * Codex CLI's hook events (https://developers.openai.com/codex/hooks; the input and output schemas are
 * openai/codex codex-rs/hooks/schema/generated/*.schema.json): Claude Code's payload shape, with the shell
 * as `Bash` {command}, patches as `apply_patch` {command: the patch}, MCP tools as `mcp__<server>__<tool>`,
 * and no failure event (a PostToolUse reports a call that ran).
 */
const CODEX_EVENTS: Record<string, string> = {
  PreToolUse: 'PreToolUse',
  PostToolUse: 'PostToolUse',
  UserPromptSubmit: 'UserPromptSubmit',
  SessionStart: 'SessionStart',
  SessionEnd: 'SessionEnd',
  Stop: 'Stop',
  SubagentStop: 'SubagentStop',
};

function readCodex(payload: unknown): EdgeEvent {
  if (!payload || typeof payload !== 'object' || Array.isArray(payload)) throw new EdgeInputError('the payload must be a JSON object');
  const raw = payload as Record<string, unknown>;
  const event = CODEX_EVENTS[String(raw.hook_event_name)];
  if (!event) throw new EdgeInputError(`hook_event_name must be one of ${Object.keys(CODEX_EVENTS).join(', ')} (got ${JSON.stringify(raw.hook_event_name)})`);
  return edgeEventOf(hookInputOf({ ...raw, hook_event_name: event }));
}

/**
 * Warden's answer in Codex's format, with exactly the schema's fields: an unknown field, `ask`, or an
 * `allow` without `updatedInput` make Codex count the hook as failed and run the tool. So an emergency
 * stop is a deny (no `continue: false`, which Codex parsed but did not honour), and what Warden would
 * leave to the user is left to Codex's own approval flow by saying nothing.
 */
function writeCodex(event: EdgeEvent, answer: EdgeAnswer): Record<string, unknown> | null {
  const context = answer.context.length ? answer.context.join('\n') : undefined;
  const systemMessage = answer.notice ? { systemMessage: answer.notice } : {};
  switch (event.type) {
    case 'before_tool': {
      const tool = answer.tool;
      const specific: Record<string, unknown> = { hookEventName: 'PreToolUse' };
      if (tool?.decision === 'deny') Object.assign(specific, { permissionDecision: 'deny', permissionDecisionReason: tool.reason });
      else if (tool?.decision === 'rewrite') Object.assign(specific, { permissionDecision: 'allow', permissionDecisionReason: tool.reason, updatedInput: tool.input });
      if (context) specific.additionalContext = context;
      return Object.keys(specific).length > 1 || answer.notice ? { ...systemMessage, ...(Object.keys(specific).length > 1 ? { hookSpecificOutput: specific } : {}) } : null;
    }
    case 'prompt':
    case 'stop':
      if (answer.block) return { decision: 'block', reason: answer.block };
      if (event.type === 'stop' || !context) return null;
      return { hookSpecificOutput: { hookEventName: 'UserPromptSubmit', additionalContext: context } };
    case 'after_tool':
    case 'session_start':
      return context || answer.notice ? { ...systemMessage, ...(context ? { hookSpecificOutput: { hookEventName: event.type === 'after_tool' ? 'PostToolUse' : 'SessionStart', additionalContext: context } } : {}) } : null;
    case 'session_end':
      return null;
  }
}

/**
 * Codex CLI. It cannot ask its user from a hook (`ask` is refused and the tool runs), its `allow` is no
 * grant (refused unless it carries `updatedInput`), it runs a changed input, and a hook that fails lets
 * the tool run: it has no HTTP hooks, so the command shim posts to the gateway and exits 2 (which blocks)
 * when Warden cannot be reached. Subagents are named (`agent_id`, `agent_type`).
 */
export const codexAdapter: AgentAdapter<'codex'> = {
  name: 'codex',
  title: 'Codex',
  agentKind: 'codex',
  capabilities: {
    ask: false,
    askWithInput: false,
    rewrite: true,
    allowGrants: false,
    context: true,
    silenceRuns: true,
    failsOpen: true,
    http: false,
    namesSubagents: true,
  },
  read: (payload) => readCodex(payload),
  write: writeCodex,
  requestOf,
};
