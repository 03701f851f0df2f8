import type { ActionDecision, ControlMessage } from '@warden/sdk';
import type { HookEvent } from './hook-input.js';

/**
 * What the adapter answers, in Claude Code's hook output format (hooks reference, "JSON output",
 * "PreToolUse decision control"): printed on stdout by the command hook, the 200 body of the HTTP hook.
 *
 *   {"continue"?: false, "stopReason"?: "…", "systemMessage"?: "…", "decision"?: "block", "reason"?: "…",
 *    "hookSpecificOutput": {"hookEventName": "…", "permissionDecision"?: "allow" | "deny" | "ask",
 *                           "permissionDecisionReason"?: "…", "updatedInput"?: {…}, "additionalContext"?: "…"}}
 *
 * `additionalContext` reaches the model, `systemMessage` the user, `permissionDecisionReason` the model
 * on deny and the user on ask. No answer (null) leaves everything to Claude Code.
 */
export interface HookOutput {
  continue?: false;
  stopReason?: string;
  systemMessage?: string;
  decision?: 'block';
  reason?: string;
  hookSpecificOutput?: {
    hookEventName: HookEvent;
    permissionDecision?: 'allow' | 'deny' | 'ask';
    permissionDecisionReason?: string;
    updatedInput?: Record<string, unknown>;
    additionalContext?: string;
  };
}

/** Control messages as the model reads them, or the stop order among them. */
export interface ControlGuidance {
  /** Text for the model: corrections, reinforcement, throttling, rollback, operator messages. */
  context: string[];
  /** Set when an emergency stop is in force. */
  stop?: string;
}

const CONTROL_PREFIX: Record<string, string> = {
  soft_correction: 'Warden correction',
  context_reinforcement: 'Warden reminder of the task',
  resource_throttling: 'Warden throttling',
  checkpoint_rollback: 'Warden rollback',
  operator_message: 'Message from the operator',
  resume: 'Warden: you may continue',
};

/** One line of text for the model per control message, in the order they were issued. */
export function controlText(control: ControlMessage): string {
  const p = control.payload;
  const parts = [p.message ?? ''];
  if (p.limits) parts.push(`limits: ${Object.entries(p.limits).map(([k, v]) => `${k}=${v}`).join(', ')}`);
  if (p.checkpoint_id) parts.push(`restore checkpoint ${p.checkpoint_id}`);
  const body = parts.filter(Boolean).join('; ') || p.kind.replace(/_/g, ' ');
  return `${CONTROL_PREFIX[p.kind] ?? 'Warden'}: ${body}`;
}

export function stopReasonOf(control: ControlMessage): string {
  return `Warden stopped this session (emergency stop${control.payload.incident_id ? `, incident ${control.payload.incident_id}` : ''}): ${control.payload.message ?? 'no reason given'}`;
}

function withGuidance(output: HookOutput, event: HookEvent, guidance: ControlGuidance): HookOutput {
  if (guidance.context.length) {
    const before = output.hookSpecificOutput?.additionalContext;
    output.hookSpecificOutput = {
      ...(output.hookSpecificOutput ?? { hookEventName: event }),
      additionalContext: [...(before ? [before] : []), ...guidance.context].join('\n'),
    };
  }
  if (guidance.stop) {
    output.continue = false;
    output.stopReason = guidance.stop;
  }
  return output;
}

const nothingToSay = (output: HookOutput) => !output.hookSpecificOutput && !output.systemMessage && output.continue === undefined;

/** How the answer to a decision is shaped: on the user's behalf or not, and whether a person can be asked. */
export interface AnswerMode {
  /** The `decide` setting: approve on the user's behalf. */
  decide: boolean;
  /** A person answers Claude Code's permission prompt in this session. */
  interactive: boolean;
}

/**
 * The PreToolUse answer for Warden's decision. A denial is always `deny` with the reason for the
 * model. What Warden allows is left to the user's own permissions (no `permissionDecision`) unless
 * `decide` is set; a warning reaches the model and the user; a changed input is shown to the user
 * (`ask` with `updatedInput`), or, with nobody to ask, denied with the input to run instead; an
 * approval Warden hands to the user is `ask` with Warden's reason.
 */
export function preToolUseAnswer(decision: ActionDecision, guidance: ControlGuidance, mode: AnswerMode): HookOutput | null {
  const base = { hookEventName: 'PreToolUse' as const };
  let output: HookOutput;
  if (!decision.allowed) {
    output = { hookSpecificOutput: { ...base, permissionDecision: 'deny', permissionDecisionReason: `Warden denied this action: ${decision.reason}` } };
  } else if (decision.askUser) {
    output = {
      hookSpecificOutput: {
        ...base,
        permissionDecision: 'ask',
        permissionDecisionReason: `Warden asks you to approve this action: ${decision.reason}`,
        ...(decision.updatedInput ? { updatedInput: decision.updatedInput } : {}),
      },
    };
  } else if (decision.updatedInput) {
    const reason = `Warden changed this action: ${decision.reason}`;
    if (mode.decide) output = { hookSpecificOutput: { ...base, permissionDecision: 'allow', permissionDecisionReason: reason, updatedInput: decision.updatedInput } };
    else if (mode.interactive) output = { hookSpecificOutput: { ...base, permissionDecision: 'ask', permissionDecisionReason: reason, updatedInput: decision.updatedInput } };
    else {
      output = {
        hookSpecificOutput: { ...base, permissionDecision: 'deny', permissionDecisionReason: `${reason} Run this instead: ${JSON.stringify(decision.updatedInput)}` },
      };
    }
  } else if (decision.verdict === 'warn') {
    const warning = `Warden warns: ${decision.reason}`;
    output = {
      systemMessage: warning,
      hookSpecificOutput: { ...base, ...(mode.decide ? { permissionDecision: 'allow' as const, permissionDecisionReason: warning } : {}), additionalContext: warning },
    };
  } else if (mode.decide) {
    output = { hookSpecificOutput: { ...base, permissionDecision: 'allow', permissionDecisionReason: `Warden allowed this action: ${decision.reason}` } };
  } else {
    // An operator's approval is news to the user; a plain allow is not.
    output = decision.decidedBy === 'operator' ? { systemMessage: `Warden: ${decision.reason}` } : {};
  }
  const answered = withGuidance(output, 'PreToolUse', guidance);
  return nothingToSay(answered) ? null : answered;
}

/** The PreToolUse answer while an emergency stop is in force: the call is denied and Claude Code stops. */
export function stoppedAnswer(stop: string, guidance: ControlGuidance): HookOutput {
  return withGuidance(
    { hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: stop } },
    'PreToolUse',
    { ...guidance, stop },
  );
}

/** The reason a call is blocked when Warden could not decide (fail closed). */
export function failClosedReason(why: string): string {
  return `Warden could not decide on this tool call, so it is blocked (fail closed): ${why}`;
}

/** Warden could not decide and the tool fails closed: denied, with the reason for the model. */
export function failClosedAnswer(why: string, guidance: ControlGuidance = { context: [] }): HookOutput {
  return withGuidance({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: failClosedReason(why) } }, 'PreToolUse', guidance);
}

/**
 * Warden could not decide and the tool fails open: no permission decision (Claude Code's own rules and
 * prompts decide, never an `allow` from Warden), and the user is told.
 */
export function failOpenAnswer(tool: string, why: string, guidance: ControlGuidance): HookOutput {
  return withGuidance({ systemMessage: `Warden could not decide (${why}); ${tool} is left to Claude Code's own permission rules (fail-open setting)` }, 'PreToolUse', guidance);
}

/** The answer of an event that only passes control messages on (PostToolUse, PostToolUseFailure, SessionStart). */
export function guidanceAnswer(event: HookEvent, guidance: ControlGuidance): HookOutput | null {
  if (!guidance.context.length && !guidance.stop) return null;
  return withGuidance({}, event, guidance);
}

/** UserPromptSubmit: pending control messages for the model; a stopped session takes no prompt. */
export function promptAnswer(guidance: ControlGuidance): HookOutput | null {
  if (guidance.stop) return { decision: 'block', reason: guidance.stop };
  return guidanceAnswer('UserPromptSubmit', guidance);
}

/**
 * Stop / SubagentStop: control messages the model has not seen keep it working one more turn with
 * them as the reason (never twice in a row: `stop_hook_active`); otherwise Claude stops as it wanted.
 */
export function stopAnswer(guidance: ControlGuidance, stopHookActive: boolean): HookOutput | null {
  if (guidance.stop || stopHookActive || !guidance.context.length) return null;
  return { decision: 'block', reason: guidance.context.join('\n') };
}
