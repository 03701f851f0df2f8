import type { AgentAdapter } from '../../agent-adapter.js';
import { derivedCallKey, proposedIn } from '../../call-id.js';
import type { EdgeAnswer } from '../../edge-answer.js';
import { EdgeInputError, type EdgeEvent } from '../../edge-event.js';
import { claudeCodeOutput } from '../claude-code/claude-code-answer.js';
import { edgeEventOf, hookInputOf } from '../claude-code/hook-input.js';
import { requestOf } from '../claude-code/transcript-goal.js';
import { isObject, payloadObject } from '../payload-fields.js';

/** The Droid events Warden reads (hooks reference, "Hook Events"); SubagentStop names no subagent, so it is not one of them. */
export const FACTORY_EVENTS = ['PreToolUse', 'PostToolUse', 'UserPromptSubmit', 'SessionStart', 'Stop', 'SessionEnd'] as const;

/**
 * The reference documents snake_case fields like Claude Code's; eqtylab/cupcake's Droid structs declare
 * camelCase. Either is read (snake_case first).
 */
const CAMEL_ALIASES: [string, string][] = [
  ['session_id', 'sessionId'],
  ['transcript_path', 'transcriptPath'],
  ['permission_mode', 'permissionMode'],
  ['hook_event_name', 'hookEventName'],
  ['tool_name', 'toolName'],
  ['tool_input', 'toolInput'],
  ['tool_response', 'toolResponse'],
  ['tool_use_id', 'toolUseId'],
  ['stop_hook_active', 'stopHookActive'],
];

/**
 * Reads a Droid payload with Claude Code's reader. No `tool_use_id` is documented: without one, the call's
 * id is its key (derivedCallKey, from the tool and its input, which PreToolUse and PostToolUse both carry),
 * and the edge gives each call of a key its own id (derived-calls.ts), so the outcome finds its proposal
 * and a repeated call is an action of its own.
 */
function readFactory(payload: unknown): EdgeEvent {
  const raw: Record<string, unknown> = { ...payloadObject(payload) };
  for (const [snake, camel] of CAMEL_ALIASES) if (raw[snake] === undefined && raw[camel] !== undefined) raw[snake] = raw[camel];
  const event = raw.hook_event_name;
  if (typeof event !== 'string' || !(FACTORY_EVENTS as readonly string[]).includes(event)) {
    throw new EdgeInputError(`hook_event_name must be one of ${FACTORY_EVENTS.join(', ')} (got ${JSON.stringify(event)})`);
  }
  let derived = false;
  if (event === 'PreToolUse' || event === 'PostToolUse') {
    if (!isObject(raw.tool_input)) throw new EdgeInputError('tool_input must be a JSON object');
    if (raw.tool_use_id === undefined && typeof raw.tool_name === 'string') {
      raw.tool_use_id = derivedCallKey(raw.tool_name, raw.tool_input);
      derived = true;
    }
  }
  const read = edgeEventOf(hookInputOf(raw));
  if (!derived) return read;
  if (read.type === 'before_tool') return { ...read, call: proposedIn({ ...read.call, derived: true }, payload) };
  return read.type === 'after_tool' ? { ...read, call: { ...read.call, derived: true } } : read;
}

/** Whether a changed input keeps every field of the proposed one: then Droid runs it as given, whether it merges `updatedInput` or replaces the input with it. */
const keepsEveryField = (proposed: Record<string, unknown>, changed: Record<string, unknown>) => Object.keys(proposed).every((key) => key in changed);

/**
 * Warden's answer in Droid's format (hooks reference, "Advanced: JSON Output"). Claude Code's shapes
 * for every event but PreToolUse, whose `hookSpecificOutput` carries only the documented fields beside a
 * decision: `permissionDecision`, `permissionDecisionReason`, `updatedInput`. How Droid treats an unknown
 * field there is not documented, and a hook it counts as failed lets the call run, so text for the model
 * goes into a deny's reason (which Droid shows its model) and as `additionalContext` only beside no
 * decision or an allow. `updatedInput` is "the fields to change or add": a changed input that drops a
 * field of the proposed one is refused with the input to run instead.
 */
function writeFactory(event: EdgeEvent, answer: EdgeAnswer): Record<string, unknown> | null {
  if (event.type !== 'before_tool') return claudeCodeOutput(event, answer) as Record<string, unknown> | null;
  const context = answer.context.length ? answer.context.join('\n') : undefined;
  const output: Record<string, unknown> = {};
  if (answer.notice) output.systemMessage = answer.notice;
  if (answer.stop) Object.assign(output, { continue: false, stopReason: answer.stop });
  const specific: Record<string, unknown> = { hookEventName: 'PreToolUse' };
  const tool = answer.tool ?? { decision: 'run' };
  switch (tool.decision) {
    case 'deny':
      Object.assign(specific, { permissionDecision: 'deny', permissionDecisionReason: context ? `${tool.reason}\n${context}` : tool.reason });
      break;
    case 'ask':
      Object.assign(specific, { permissionDecision: 'ask', permissionDecisionReason: tool.reason });
      break;
    case 'rewrite':
      if (keepsEveryField(event.call.input, tool.input)) Object.assign(specific, { permissionDecision: 'allow', permissionDecisionReason: tool.reason, updatedInput: tool.input });
      else Object.assign(specific, { permissionDecision: 'deny', permissionDecisionReason: `${tool.reason} Run this instead: ${JSON.stringify(tool.input)}` });
      break;
    case 'allow':
      Object.assign(specific, { permissionDecision: 'allow', permissionDecisionReason: tool.reason, ...(context ? { additionalContext: context } : {}) });
      break;
    case 'run':
      if (context) specific.additionalContext = context;
      break;
  }
  if (Object.keys(specific).length > 1) output.hookSpecificOutput = specific;
  return Object.keys(output).length ? output : null;
}

/**
 * Factory Droid (hooks reference: https://docs.factory.ai/reference/hooks-reference, Factory-AI/factory
 * docs/reference/hooks-reference.mdx). Claude Code's hook format, read by Claude Code's reader: the shell is
 * `Execute` {command}, the other tools `Read`, `Create`, `Edit`, `ApplyPatch`, `LS`, `Glob`, `Grep`,
 * `FetchUrl`, `WebSearch`, `Task`, MCP tools `mcp__<server>__<tool>`; no `tool_use_id` (see
 * readFactory) and no subagent named in any payload.
 *
 * Capabilities: it can ask (`ask`), its `allow` bypasses its own permission system (a grant: Warden says
 * it only with `decide`), it runs a changed input (`allow` + `updatedInput`), text reaches its model
 * (`additionalContext` after a tool, on a prompt and at the session's start), and a hook that fails lets
 * the call run: it has no HTTP hooks, so the command shim exits 2 (which blocks, stderr to Droid) when
 * Warden cannot be reached. Its payloads do not say whether a person answers its prompts (`droid exec` runs
 * without one), so approvals go to an operator unless the hook is installed with `--approvals terminal`.
 *
 * UNCONFIRMED: snake_case or camelCase fields (both read); `Edit` input keys; whether `ask` shows an
 * `updatedInput` (not used: a changed input is run with `decide`, refused otherwise); `updatedInput` merge
 * or replace; what an unknown output field, invalid JSON or a timeout does; `additionalContext` on
 * PreToolUse.
 */
export const factoryAdapter: AgentAdapter<'factory'> = {
  name: 'factory',
  title: 'Factory Droid',
  agentKind: 'factory',
  capabilities: {
    ask: true,
    askWithInput: false,
    rewrite: true,
    allowGrants: true,
    context: true,
    silenceRuns: true,
    failsOpen: true,
    http: false,
    namesSubagents: false,
  },
  read: (payload) => readFactory(payload),
  write: writeFactory,
  interactive: () => false,
  requestOf,
};
