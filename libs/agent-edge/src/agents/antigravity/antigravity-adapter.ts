import { closeSync, openSync, readSync } from 'node:fs';
import { GOAL_MAX_LENGTH } from '@warden/contracts';
import type { AgentAdapter, HookCallMeta } from '../../agent-adapter.js';
import type { EdgeAnswer } from '../../edge-answer.js';
import { EdgeInputError, type EdgeEvent, type EdgeSession } from '../../edge-event.js';
import { isObject, payloadObject, sessionIdOf } from '../payload-fields.js';

/**
 * The agy events Warden reads: a tool call before and after it runs, and PreInvocation (before each model
 * call), which declares the session. Not Stop: its answer needs a `decision` whose effect on a turn is
 * version-dependent, and Warden has nothing for agy's model there (see `write`).
 */
export const ANTIGRAVITY_EVENTS = ['PreToolUse', 'PostToolUse', 'PreInvocation'] as const;
type AntigravityEvent = (typeof ANTIGRAVITY_EVENTS)[number];

/**
 * The call's id: agy's payloads carry none (its transcript pairs a call and its result by position), so
 * it is the trajectory step the call runs at (`stepIdx`, which PreToolUse and PostToolUse both carry). Two
 * calls at one step (never observed) would share it: Warden then refuses the second as a reused id.
 */
export const antigravityCallId = (stepIdx: number) => `step-${stepIdx}`;

function eventOf(raw: Record<string, unknown>, meta: HookCallMeta): AntigravityEvent {
  // The payload does not name the event: the installed hook passes it (the shim's `?event=`). Newer
  // builds are said to add `hookEventName`; what the installed hook says comes first.
  const named = meta.event ?? raw.hookEventName;
  const event = ANTIGRAVITY_EVENTS.find((e) => typeof named === 'string' && e.toLowerCase() === named.toLowerCase());
  if (!event) throw new EdgeInputError(`the event must be one of ${ANTIGRAVITY_EVENTS.join(', ')} (got ${JSON.stringify(named)}; the installed hook passes it as ?event=)`);
  return event;
}

function readAntigravity(raw: unknown, meta: HookCallMeta): EdgeEvent {
  const payload = payloadObject(raw);
  const event = eventOf(payload, meta);
  const conversationId = sessionIdOf(payload, 'conversationId');
  const toolCall = isObject(payload.toolCall) ? payload.toolCall : undefined;
  const args = toolCall && isObject(toolCall.args) ? toolCall.args : undefined;
  const workspace = Array.isArray(payload.workspacePaths) ? payload.workspacePaths.find((p): p is string => typeof p === 'string' && !!p) : undefined;
  // A command runs where `Cwd` says; anything else in the workspace's first root.
  const cwd = typeof args?.Cwd === 'string' && args.Cwd ? args.Cwd : workspace;
  if (!cwd) throw new EdgeInputError('workspacePaths is missing (and the call names no Cwd)');
  const session: EdgeSession = {
    id: conversationId,
    cwd,
    ...(typeof payload.transcriptPath === 'string' && payload.transcriptPath ? { transcriptPath: payload.transcriptPath } : {}),
  };
  if (event === 'PreInvocation') {
    return { type: 'session_start', session: { ...session, ...(typeof payload.modelName === 'string' && payload.modelName ? { model: payload.modelName.slice(0, 128) } : {}) }, source: 'PreInvocation' };
  }
  const step = payload.stepIdx;
  if (typeof step !== 'number' || !Number.isInteger(step) || step < 0) throw new EdgeInputError('stepIdx is missing or not a step number');
  if (event === 'PreToolUse') {
    if (!toolCall || typeof toolCall.name !== 'string' || !toolCall.name) throw new EdgeInputError('toolCall.name is missing or not a string');
    if (!args) throw new EdgeInputError('toolCall.args must be a JSON object');
    return { type: 'before_tool', session, call: { id: antigravityCallId(step), tool: toolCall.name, input: args } };
  }
  // PostToolUse: the same fields and `error` (empty when the call succeeded); agy 1.0.5 sent toolCall null.
  const error = typeof payload.error === 'string' ? payload.error : '';
  return {
    type: 'after_tool',
    session,
    call: { id: antigravityCallId(step), tool: typeof toolCall?.name === 'string' && toolCall.name ? toolCall.name : 'unknown', input: args ?? {} },
    result: error ? { ok: false, error } : { ok: true },
  };
}

/**
 * Warden's answer in agy's PreToolUse format, `{"decision": "deny" | "force_ask", "reason"}`, and nothing
 * at all otherwise: an empty stdout lets the call run through agy's own permissions, while `{}`, an empty
 * `decision` or any text that is not JSON denies it. An approval handed to the user is `force_ask`, not
 * `ask`: `ask` honours the user's "always allow" (and lost to --dangerously-skip-permissions on 1.2.3), so
 * a command the user once allowed would run without the person Warden wants to see it. Never `allow`:
 * on 1.1.2 it is no grant, and agy has no field for a changed input.
 */
function writeAntigravity(event: EdgeEvent, answer: EdgeAnswer): Record<string, unknown> | null {
  if (event.type !== 'before_tool' || !answer.tool) return null;
  const tool = answer.tool;
  switch (tool.decision) {
    case 'deny':
      return { decision: 'deny', reason: tool.reason };
    case 'ask':
      return { decision: 'force_ask', reason: tool.reason };
    case 'rewrite':
      // Not reached (rewrite is not a capability): agy cannot run a changed input, so it is refused with it.
      return { decision: 'deny', reason: `${tool.reason} Run this instead: ${JSON.stringify(tool.input)}` };
    case 'allow':
    case 'run':
      return null;
  }
}

const HEAD_BYTES = 256 * 1024;
const USER_REQUEST = /<USER_REQUEST>([\s\S]*?)<\/USER_REQUEST>/;

/**
 * The goal: the first user request of agy's transcript (the hook's `transcriptPath`, one JSON step per
 * line). The user's prompt is a `USER_INPUT` step whose content wraps the request in <USER_REQUEST>
 * beside metadata blocks (specstoryai/getspecstory specstory-cli/docs/antigravity-format-spec.md, §3.2
 * and §3.7). PreInvocation's payload carries no prompt.
 */
export function antigravityGoalFromTranscript(path: string): string | undefined {
  let text: string;
  try {
    const fd = openSync(path, 'r');
    try {
      const buffer = Buffer.alloc(HEAD_BYTES);
      text = buffer.subarray(0, readSync(fd, buffer, 0, HEAD_BYTES, 0)).toString('utf8');
    } finally {
      closeSync(fd);
    }
  } catch {
    return undefined;
  }
  for (const line of text.split('\n')) {
    if (!line.trim()) continue;
    let step: unknown;
    try {
      step = JSON.parse(line);
    } catch {
      continue; // a partly written line
    }
    if (!isObject(step) || step.type !== 'USER_INPUT' || typeof step.content !== 'string') continue;
    const request = (USER_REQUEST.exec(step.content)?.[1] ?? step.content).trim();
    if (request) return request.slice(0, GOAL_MAX_LENGTH);
  }
  return undefined;
}

/**
 * Google Antigravity CLI (`agy`). No official hook reference was available: the contract below is what
 * integrators measured on released builds (cisco-ai-defense/defenseclaw docs-site/content/docs/connectors/
 * antigravity.mdx and internal/gateway/connector/antigravity_hook_profile_test.go, agy 1.0.1;
 * michaeldhopkins/safe-chains HARNESS-BEHAVIORS.md, agy 1.1.2; stbenjam/skillsaw
 * docs/rules/antigravity-hooks-valid.md, agy 1.1.25), and where they differ the safe reading is taken.
 *
 * Payloads (stdin, protojson camelCase): `conversationId`, `workspacePaths`, `transcriptPath`,
 * `artifactDirectoryPath`, `stepIdx`, and for PreToolUse `toolCall {name, args}` (`run_command`
 * {CommandLine, Cwd, WaitMsBeforeAsync}, `view_file` {AbsolutePath}, `write_to_file` {TargetFile,
 * CodeContent, …}, `replace_file_content` {TargetFile, TargetContent, ReplacementContent, …}); no event name
 * (the installed command passes it) and no call id (see antigravityCallId).
 *
 * Capabilities: it can ask (`force_ask`), but cannot show or run a changed input; its `allow` is no grant on
 * 1.1.2; no field of a tool hook's answer reaches its model except a deny's reason (so control messages
 * and warnings do not: they are acknowledged as not applied); an empty stdout runs the call, and `{}`, text
 * that is not JSON or a failing hook deny it (fails closed; the command shim prints a deny when Warden
 * cannot be reached, since a non-zero exit is not documented as a block). Its payloads do not say whether
 * a person answers its prompts, so approvals go to an operator unless the hook is installed with
 * `--approvals terminal`.
 *
 * UNCONFIRMED: the official schema and file locations per version; whether PostToolUse's `stepIdx` is the
 * PreToolUse's (the outcome is reported under it), and whether it carries `toolCall` (1.0.5 sent null) or
 * any output (none is read); PreInvocation's payload beyond the common fields; `ask`/`force_ask`/`allow`
 * semantics across 1.0.x, 1.1.x and 1.2.x; the hook timeout's effect; MCP tool names.
 */
export const antigravityAdapter: AgentAdapter<'antigravity'> = {
  name: 'antigravity',
  title: 'Antigravity',
  agentKind: 'antigravity',
  capabilities: {
    ask: true,
    askWithInput: false,
    rewrite: false,
    allowGrants: false,
    context: false,
    silenceRuns: true,
    failsOpen: false,
    http: false,
    namesSubagents: false,
  },
  read: readAntigravity,
  write: writeAntigravity,
  interactive: () => false,
  goalFromTranscript: antigravityGoalFromTranscript,
};
