import type { ActionDecision } from '@warden/sdk';
import type { ControlGuidance, EdgeAnswer, ToolAnswer } from './edge-answer.js';
import type { EdgeEvent } from './edge-event.js';

/**
 * What an agent's hooks can say and what they do with silence or a bad answer. These decide what each
 * of Warden's decisions becomes for the agent (toolAnswerFor): an agent that cannot ask is never
 * answered `ask` (Codex then runs the tool), an agent whose allow is no grant is never told `allow`.
 */
export interface AgentCapabilities {
  /** It can ask its user to approve a call (`ask`, `force_ask`). */
  ask: boolean;
  /** Only for these of its tools, when not for all (Cursor: shell and MCP calls). */
  askOnly?: (tool: string) => boolean;
  /** An ask can show a changed input to approve instead of the proposed one. */
  askWithInput: boolean;
  /** It runs a changed input Warden gives instead of the proposed one. */
  rewrite: boolean;
  /** Warden may approve a call on the user's behalf (its allow is honoured as a grant, and never makes the hook fail). */
  allowGrants: boolean;
  /** Text can reach the model (beside a decision, and after a tool ran). */
  context: boolean;
  /**
   * Where text reaches the model at some events only: the events whose answer can carry it (default: all).
   * Control messages taken at another event wait for the next one that can (Cursor: not at a prompt, nor
   * after a shell or MCP call).
   */
  contextOn?: (event: EdgeEvent) => boolean;
  /** An empty answer lets the tool run through the agent's own flow. */
  silenceRuns: boolean;
  /** A malformed answer, a crash or a timeout of the hook lets the tool run: the command shim must never fail silently. */
  failsOpen: boolean;
  /** Its hooks can POST to Warden's gateway themselves; otherwise they run the command shim. */
  http: boolean;
  /** Tool events name the subagent that makes the call. */
  namesSubagents: boolean;
}

/** How an answer sits with the user's own permissions in this session. */
export interface AnswerMode {
  /** The `decide` setting: approve on the user's behalf what Warden has no objection to. */
  decide: boolean;
  /** A person answers the agent's permission prompts in this session. */
  interactive: boolean;
}

/** Whether the agent can ask its user about this tool. */
export function canAsk(capabilities: AgentCapabilities, tool: string): boolean {
  return capabilities.ask && (capabilities.askOnly?.(tool) ?? true);
}

/**
 * What Warden's decision on a tool call becomes for an agent: the one table every adapter answers by.
 *
 * | decision | becomes |
 * |---|---|
 * | denied (block, rejected approval, stop, rejected message) | `deny` with the reason, for the model |
 * | require_approval handed to the agent's user | `ask` where the agent can ask about this tool (otherwise the gate holds it for an operator and it never comes here) |
 * | modify | `rewrite` with `decide` where the agent runs changed input; `ask` with the changed input in an interactive session where the agent can show it; otherwise `deny` with the input to run instead |
 * | warn | `run` (or `allow` with `decide`), the warning to the model and the person |
 * | allow | `run`: the agent's own permissions decide (`allow` only with `decide` where the agent's allow is a grant) |
 */
export function toolAnswerFor(decision: ActionDecision, capabilities: AgentCapabilities, mode: AnswerMode, tool: string): Pick<EdgeAnswer, 'tool' | 'context' | 'notice'> {
  const grant = mode.decide && capabilities.allowGrants;
  if (!decision.allowed) return { tool: { decision: 'deny', reason: `Warden denied this action: ${decision.reason}` }, context: [] };
  if (decision.askUser && canAsk(capabilities, tool)) {
    const reason = `Warden asks you to approve this action: ${decision.reason}`;
    return { tool: { decision: 'ask', reason, ...(decision.updatedInput ? { input: decision.updatedInput } : {}) }, context: [] };
  }
  if (decision.askUser) {
    // Handed to a user this agent cannot ask: refused, never run unasked.
    return { tool: { decision: 'deny', reason: `Warden needs a person to approve this action, and this agent cannot ask: ${decision.reason}` }, context: [] };
  }
  if (decision.updatedInput) {
    const reason = `Warden changed this action: ${decision.reason}`;
    let answer: ToolAnswer;
    if (mode.decide && capabilities.rewrite) answer = { decision: 'rewrite', reason, input: decision.updatedInput };
    else if (mode.interactive && capabilities.askWithInput && canAsk(capabilities, tool)) answer = { decision: 'ask', reason, input: decision.updatedInput };
    else answer = { decision: 'deny', reason: `${reason} Run this instead: ${JSON.stringify(decision.updatedInput)}` };
    return { tool: answer, context: [] };
  }
  if (decision.verdict === 'warn') {
    const warning = `Warden warns: ${decision.reason}`;
    return { tool: grant ? { decision: 'allow', reason: warning } : { decision: 'run' }, context: [warning], notice: warning };
  }
  if (grant) return { tool: { decision: 'allow', reason: `Warden allowed this action: ${decision.reason}` }, context: [] };
  // An operator's approval is news to the user; a plain allow is not.
  return { tool: { decision: 'run' }, context: [], ...(decision.decidedBy === 'operator' ? { notice: `Warden: ${decision.reason}` } : {}) };
}

/** The answer to a tool call, with the control messages the call brought. */
export function toolCallAnswer(decision: ActionDecision, capabilities: AgentCapabilities, mode: AnswerMode, tool: string, guidance: ControlGuidance): EdgeAnswer {
  const answer = toolAnswerFor(decision, capabilities, mode, tool);
  return { ...answer, context: [...answer.context, ...guidance.context], ...(guidance.stop ? { stop: guidance.stop } : {}) };
}

/** The answer while an emergency stop is in force: the call is denied and the agent told to stop. */
export function stoppedAnswer(stop: string, guidance: ControlGuidance): EdgeAnswer {
  return { tool: { decision: 'deny', reason: stop }, context: guidance.context, stop };
}

/** The reason a call is blocked when Warden could not decide (fail closed). */
export function failClosedReason(why: string): string {
  return `Warden could not decide on this tool call, so it is blocked (fail closed): ${why}`;
}

/**
 * Warden could not decide on a tool call: denied, or, for a tool the policy lets fail open, left to the
 * agent's own rules (never an allow from Warden) with the person told.
 */
export function undecidedAnswer(failOpen: boolean, agentTitle: string, tool: string, why: string, guidance: ControlGuidance = { context: [] }): EdgeAnswer {
  const stop = guidance.stop ? { stop: guidance.stop } : {};
  if (failOpen) {
    return { tool: { decision: 'run' }, context: guidance.context, notice: `Warden could not decide (${why}); ${tool} is left to ${agentTitle}'s own permission rules (fail-open setting)`, ...stop };
  }
  return { tool: { decision: 'deny', reason: failClosedReason(why) }, context: guidance.context, ...stop };
}
