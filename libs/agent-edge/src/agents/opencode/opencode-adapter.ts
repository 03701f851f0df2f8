import { isSubjectToken } from '@warden/contracts';
import type { AgentAdapter } from '../../agent-adapter.js';
import type { EdgeAnswer } from '../../edge-answer.js';
import { EdgeInputError, type EdgeEvent, type EdgeSession } from '../../edge-event.js';
import { isObject, payloadObject } from '../payload-fields.js';

/** The OpenCode hooks and events Warden's plugin posts, by the name it posts them under. */
export const OPENCODE_HOOKS = ['tool.execute.before', 'tool.execute.after', 'session.prompt', 'session.created', 'session.deleted'] as const;
export type OpenCodeHook = (typeof OPENCODE_HOOKS)[number];

/**
 * What Warden's plugin (written by `warden hook install --agent opencode`) posts to `/hooks/opencode`: the
 * hook's name, the project's directory (the plugin context's `location.directory`), and the hook's event as
 * OpenCode passed it, as JSON (anomalyco/opencode packages/plugin/src/promise/tool.ts `ToolHooks`,
 * promise/session.ts `SessionPrompt`, packages/schema/src/session-event.ts):
 *
 *   tool.execute.before  {tool, sessionID, agent, messageID, id, input}
 *   tool.execute.after   {tool, sessionID, agent, messageID, id, input, status: "completed", result: {content?, output?}}
 *                        or {…, status: "error", error: "<the error's message>"}
 *   session.prompt       {sessionID, messageID, prompt: {text}}
 *   session.created      {sessionID, parentID?}       (from the plugin's event subscription)
 *   session.deleted      {sessionID}
 */
export interface OpenCodeHookCall {
  hook: OpenCodeHook;
  directory: string;
  event: Record<string, unknown>;
}

/**
 * What the plugin does with Warden's answer (the 200 body; an empty body is nothing to do):
 *
 *   decision "deny"     throw Error(reason) in execute.before: OpenCode rejects the call
 *   decision "rewrite"  replace the call's `input` with `input` (the call runs the changed input)
 *   decision "ask"      replace `input` when given; OpenCode's permission evaluation of the call becomes `ask` with `reason`
 *   decision "allow"    the call's permission evaluation becomes `allow` (an explicit deny of the user's rules stays)
 *   context             text for the model: added to the system prompt of the session's next model request
 */
export interface OpenCodeAnswer {
  decision?: 'deny' | 'rewrite' | 'ask' | 'allow';
  reason?: string;
  input?: Record<string, unknown>;
  context?: string[];
}

/**
 * The tools whose calls go through OpenCode 2.x's permission evaluation, where an `ask` reaches a person:
 * the built-in tools named like the permission actions OpenCode evaluates (shell, read, edit, write, patch,
 * grep, glob, webfetch, websearch). Approvals of other calls (subagent, skill, MCP tools, …) go to an operator.
 */
export const OPENCODE_ASKABLE_TOOLS: ReadonlySet<string> = new Set(['shell', 'read', 'edit', 'write', 'patch', 'grep', 'glob', 'webfetch', 'websearch']);

/** A call id as a subject token: OpenCode's come from the model's provider (`call_…`, `toolu_…`); anything else is replaced alike in both hooks. */
const callIdOf = (id: string) => id.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 128);

function readOpenCode(raw: unknown): EdgeEvent {
  const payload = payloadObject(raw);
  const hook = payload.hook;
  if (typeof hook !== 'string' || !(OPENCODE_HOOKS as readonly string[]).includes(hook)) throw new EdgeInputError(`hook must be one of ${OPENCODE_HOOKS.join(', ')} (got ${JSON.stringify(hook)})`);
  if (typeof payload.directory !== 'string' || !payload.directory) throw new EdgeInputError('directory is missing or not a string');
  const event = payload.event;
  if (!isObject(event)) throw new EdgeInputError('event must be a JSON object');
  const sessionId = event.sessionID;
  if (typeof sessionId !== 'string' || !sessionId) throw new EdgeInputError('event.sessionID is missing or not a string');
  if (!isSubjectToken(sessionId)) throw new EdgeInputError(`event.sessionID "${sessionId}" must be 1-128 letters, digits, - or _`);
  const session: EdgeSession = { id: sessionId, cwd: payload.directory };
  switch (hook as OpenCodeHook) {
    case 'session.prompt':
      return { type: 'prompt', session, prompt: isObject(event.prompt) && typeof event.prompt.text === 'string' ? event.prompt.text : '' };
    case 'session.created':
      return { type: 'session_start', session, source: typeof event.parentID === 'string' && event.parentID ? `subagent of ${event.parentID}` : 'created' };
    case 'session.deleted':
      return { type: 'session_end', session, reason: 'deleted' };
    default:
      break;
  }
  if (typeof event.tool !== 'string' || !event.tool) throw new EdgeInputError('event.tool is missing or not a string');
  if (typeof event.id !== 'string' || !event.id) throw new EdgeInputError('event.id is missing or not a string');
  if (!isObject(event.input)) throw new EdgeInputError('event.input must be a JSON object');
  const call = { id: callIdOf(event.id), tool: event.tool, input: event.input };
  if (hook === 'tool.execute.before') return { type: 'before_tool', session, call };
  if (event.status === 'error') return { type: 'after_tool', session, call, result: { ok: false, error: typeof event.error === 'string' && event.error ? event.error : 'the tool failed' } };
  if (event.status !== 'completed') throw new EdgeInputError(`event.status must be completed or error (got ${JSON.stringify(event.status)})`);
  const result = isObject(event.result) ? event.result : {};
  const output = result.content ?? result.output;
  return { type: 'after_tool', session, call, result: { ok: true, ...(output !== undefined ? { output } : {}) } };
}

/** Warden's answer for the plugin (OpenCodeAnswer); null when there is nothing to do. */
function writeOpenCode(event: EdgeEvent, answer: EdgeAnswer): Record<string, unknown> | null {
  const out: OpenCodeAnswer = {};
  const tool = event.type === 'before_tool' ? answer.tool : undefined;
  if (tool && tool.decision !== 'run') {
    out.decision = tool.decision;
    out.reason = tool.reason;
    if ((tool.decision === 'ask' || tool.decision === 'rewrite') && tool.input) out.input = tool.input;
  }
  // A plugin cannot refuse a prompt: a stopped session's model is told instead (each tool call is denied).
  const context = [...answer.context, ...(answer.block && event.type === 'prompt' ? [answer.block] : [])];
  if (context.length && event.type !== 'session_end') out.context = context;
  return Object.keys(out).length ? (out as Record<string, unknown>) : null;
}

/**
 * OpenCode 2.x. It has no command or HTTP hooks: `warden hook install --agent opencode` writes an in-process
 * plugin (`.opencode/plugins/warden.js`, the 2.x `{id, setup(ctx)}` module; plugins written for 1.x do
 * not load on 2.x) that posts each hook to the gateway (OpenCodeHookCall) and acts on the answer
 * (OpenCodeAnswer) in `ctx.tool.hook("execute.before")`, `("execute.after")`, `ctx.permission.hook
 * ("evaluate")`, `ctx.session.hook("prompt")` and `("context")`, and `ctx.event.subscribe()`.
 *
 * Capabilities: a throw in execute.before rejects the call (deny); a mutated `input` runs instead
 * (rewrite); it asks through its permission evaluation (`effect: "ask"`, whose `source.id` is the call's
 * id), so only for the tools that go through one (OPENCODE_ASKABLE_TOOLS), and an ask can be about a changed
 * input (the input is replaced first); `effect: "allow"` skips OpenCode's prompt (a grant: only with
 * `decide`); text reaches the model through the context hook. The plugin throws, blocking the call, when
 * Warden cannot be reached (fails closed). Tool events name the agent (`build`, `plan`, a subagent), and a
 * subagent works in a child session of its own, which Warden sees as a session of its own. OpenCode does
 * not tell a plugin whether a person answers its prompts (`--auto` approves every ask), so approvals go to
 * an operator unless the plugin is installed with `--approvals terminal`.
 *
 * UNCONFIRMED (OpenCode 2.x types and one captured 2.0.24 run, not its documentation): whether the
 * permission evaluation of a call comes after its execute.before (the plugin refuses an ask it receives
 * after the evaluation, and an ask for a call that is never evaluated is not put to anyone); whether a
 * throw's message reaches the model verbatim; `shell`/`edit`/`write` input keys; MCP tool names;
 * `session.created`'s payload (read as {sessionID} or {info: {id}}); hook timeouts (a hanging plugin
 * holds the call: the plugin gives up after 55 s, denying it).
 */
export const openCodeAdapter: AgentAdapter<'opencode'> = {
  name: 'opencode',
  title: 'OpenCode',
  agentKind: 'opencode',
  capabilities: {
    ask: true,
    askOnly: (tool) => OPENCODE_ASKABLE_TOOLS.has(tool),
    askWithInput: true,
    rewrite: true,
    allowGrants: true,
    context: true,
    silenceRuns: true,
    failsOpen: false,
    http: true,
    namesSubagents: false,
  },
  read: (payload) => readOpenCode(payload),
  write: writeOpenCode,
  interactive: () => false,
};
