import type { AgentAdapter, HookCallMeta } from '../../agent-adapter.js';
import { derivedCall, proposedIn } from '../../call-id.js';
import type { EdgeAnswer } from '../../edge-answer.js';
import { EdgeInputError, type EdgeEvent, type EdgeSession, type EdgeToolCall } from '../../edge-event.js';
import { argumentsOf, isObject, optionalText, payloadObject, requiredText, sessionIdOf } from '../payload-fields.js';

/**
 * GitHub Copilot CLI's hooks in their camelCase format (GitHub's hooks reference,
 * https://docs.github.com/en/copilot/reference/hooks-reference, "Hook event input payloads"; github/docs
 * content/copilot/reference/hooks-reference.md): every event carries `sessionId`, `timestamp` and
 * `cwd`, and none names itself, so the installed hook gives the event as the shim's argument (the
 * gateway's `?event=`). `preToolUse` and `postToolUse` carry `toolName` and `toolArgs`, the arguments as
 * JSON text in command hooks (an object is read too); `postToolUse` adds `toolResult {resultType,
 * textResultForLlm}`, `postToolUseFailure` an `error`; `agentStop` has `stop_hook_active`.
 *
 * The camelCase format rather than the PascalCase one (Claude Code's payloads and tool names): it names
 * the tools Copilot runs (`bash`, `edit`, `create`, `view`, …), so the reviewer sees the call as it will
 * run and a changed input (`modifiedArgs`) fits the tool; the PascalCase names fold several tools into
 * one (edit, str_replace_editor and apply_patch are all `Edit`). Neither format names the call: its id is
 * derived from the tool and its arguments (derivedCall), which preToolUse and the event after it both
 * carry. MCP tools' names in hooks are UNCONFIRMED.
 */
const COPILOT_EVENTS = ['sessionStart', 'sessionEnd', 'userPromptSubmitted', 'preToolUse', 'postToolUse', 'postToolUseFailure', 'agentStop'] as const;

function readCopilot(payload: unknown, meta: HookCallMeta): EdgeEvent {
  const raw = payloadObject(payload);
  const event = meta.event;
  if (!event || !(COPILOT_EVENTS as readonly string[]).includes(event)) {
    throw new EdgeInputError(`the event must be given as one of ${COPILOT_EVENTS.join(', ')} (the shim's argument, the gateway's ?event=): Copilot CLI's payloads do not name it (got ${JSON.stringify(event)})`);
  }
  const cwd = optionalText(raw, 'cwd');
  const session: EdgeSession = { id: sessionIdOf(raw, 'sessionId', 'session_id'), ...(cwd ? { cwd } : {}) };
  const call = (): EdgeToolCall => {
    const tool = requiredText(raw, 'toolName');
    const input = argumentsOf(raw.toolArgs, 'toolArgs');
    return derivedCall(tool, input);
  };
  switch (event as (typeof COPILOT_EVENTS)[number]) {
    case 'sessionStart':
      return { type: 'session_start', session, source: optionalText(raw, 'source', 64) ?? 'startup' };
    case 'sessionEnd':
      return { type: 'session_end', session, reason: optionalText(raw, 'reason', 200) ?? 'other' };
    case 'userPromptSubmitted':
      return { type: 'prompt', session, prompt: typeof raw.prompt === 'string' ? raw.prompt : '' };
    case 'agentStop': {
      const transcriptPath = optionalText(raw, 'transcriptPath');
      return { type: 'stop', session: { ...session, ...(transcriptPath ? { transcriptPath } : {}) }, prolonged: raw.stop_hook_active === true };
    }
    case 'preToolUse':
      return { type: 'before_tool', session, call: proposedIn(call(), raw) };
    case 'postToolUse': {
      const result = isObject(raw.toolResult) ? raw.toolResult : {};
      const output = result.textResultForLlm;
      const failed = (result.resultType !== undefined && result.resultType !== 'success') || (typeof output === 'string' && commandFailed(output));
      return { type: 'after_tool', session, call: call(), result: { ok: !failed, ...(failed ? { error: typeof output === 'string' && output ? output : 'the tool failed' } : {}), ...(output !== undefined ? { output } : {}) } };
    }
    case 'postToolUseFailure':
      return { type: 'after_tool', session, call: call(), result: { ok: false, error: optionalText(raw, 'error', 8000) ?? 'the tool failed' } };
  }
}

/**
 * Warden's answer in Copilot CLI's format: preToolUse `permissionDecision` (`allow`, which skips
 * Copilot's own approval, `deny`, `ask`) with `permissionDecisionReason` (shown to the model) and
 * `modifiedArgs`; `additionalContext` after a tool ran and at the session's start; agentStop `decision:
 * "block"` with the reason as the next prompt. A prompt's output is dropped by Copilot (command hooks),
 * so nothing is written for it. Nothing to say is no output: Copilot's own permission flow decides.
 */
function writeCopilot(event: EdgeEvent, answer: EdgeAnswer): Record<string, unknown> | null {
  const context = answer.context.length ? answer.context.join('\n') : undefined;
  switch (event.type) {
    case 'before_tool': {
      const tool = answer.tool ?? { decision: 'run' };
      // Whether preToolUse's additionalContext reaches the model is UNCONFIRMED: it is sent, and control messages wait for postToolUse (contextOn).
      const extra = context ? { additionalContext: context } : {};
      switch (tool.decision) {
        case 'run':
          return context ? extra : null;
        case 'rewrite':
          return { permissionDecision: 'allow', permissionDecisionReason: tool.reason, modifiedArgs: tool.input, ...extra };
        default:
          return { permissionDecision: tool.decision, permissionDecisionReason: tool.reason, ...extra };
      }
    }
    case 'stop':
      return answer.block ? { decision: 'block', reason: answer.block } : null;
    case 'after_tool':
    case 'session_start':
      return context ? { additionalContext: context } : null;
    case 'prompt':
    case 'session_end':
      return null;
  }
}

/**
 * GitHub Copilot CLI. It asks its user (`ask`; Copilot's cloud agent takes it as a deny), and its
 * `allow` skips its own approval (a grant: Warden says it only with `decide`). It runs a changed input
 * (`modifiedArgs`); whether its prompt shows one is UNCONFIRMED, so a changed input is never asked about.
 * Text reaches the model after a tool ran, at the start and at the end of a turn; a prompt's output is
 * dropped, and preToolUse's `additionalContext` is UNCONFIRMED, so control messages wait for those
 * events. Silence runs the tool through Copilot's flow. A preToolUse command hook that crashes or exits
 * non-zero denies the call, but one that times out lets it run (Warden's install sets `timeoutSec` above
 * Warden's deadline). Copilot's HTTP hooks must use https for preToolUse (plain http only to localhost,
 * behind COPILOT_HOOK_ALLOW_LOCALHOST=1) and fail open: Warden installs the command shim. Tool events do
 * not name a subagent.
 */
export const copilotAdapter: AgentAdapter<'copilot'> = {
  name: 'copilot',
  title: 'Copilot CLI',
  agentKind: 'copilot',
  capabilities: {
    ask: true,
    askWithInput: false,
    rewrite: true,
    allowGrants: true,
    context: true,
    contextOn: (event) => event.type === 'session_start' || event.type === 'stop' || (event.type === 'after_tool' && event.result.ok),
    silenceRuns: true,
    failsOpen: true,
    http: false,
    namesSubagents: false,
  },
  read: readCopilot,
  write: writeCopilot,
  interactive: () => true,
};

/** What Copilot CLI's shell tools end a result with: the command's exit code (`<exited with exit code 1>`). */
const EXIT_CODE = /<exited with exit code (-?\d+)>\s*$/;

/**
 * Whether a result says its command failed: the shell tool ran (`resultType: success`), the command it ran
 * exited with another code than 0, which Warden reads as a failure for every agent. Read by the hook and by
 * `warden replay`'s readers of Copilot CLI's session log and exports alike.
 */
export function commandFailed(result: string | undefined): boolean {
  const code = result === undefined ? undefined : EXIT_CODE.exec(result)?.[1];
  return code !== undefined && Number(code) !== 0;
}
