import type { ActionDecision, ControlMessage } from '@warden/sdk';
import type { HookEvent } from './hook-input.js';

/**
 * What the adapter prints on stdout, in Claude Code's documented hook output format (hooks reference,
 * "JSON output" and "PreToolUse decision control"):
 *
 *   {"continue"?: false, "stopReason"?: "…", "systemMessage"?: "…",
 *    "hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "allow" | "deny" | "ask",
 *                           "permissionDecisionReason": "…", "updatedInput"?: {…}, "additionalContext"?: "…"}}
 *
 * PostToolUse / PostToolUseFailure answer `hookSpecificOutput: {hookEventName, additionalContext}` when
 * there is something for the model, and nothing otherwise. `continue: false` stops Claude Code after the
 * call; `stopReason` is shown to the user.
 */
export interface HookOutput {
  continue?: false;
  stopReason?: string;
  systemMessage?: string;
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
    output.hookSpecificOutput = { ...(output.hookSpecificOutput ?? { hookEventName: event }), additionalContext: guidance.context.join('\n') };
  }
  if (guidance.stop) {
    output.continue = false;
    output.stopReason = guidance.stop;
  }
  return output;
}

/** The PreToolUse answer for Warden's decision: allow (warn, modify with updatedInput) or deny with the reason for the model. */
export function preToolUseAnswer(decision: ActionDecision, guidance: ControlGuidance): HookOutput {
  const base = { hookEventName: 'PreToolUse' as const };
  let specific: HookOutput['hookSpecificOutput'];
  if (!decision.allowed) {
    specific = { ...base, permissionDecision: 'deny', permissionDecisionReason: `Warden denied this action: ${decision.reason}` };
  } else if (decision.updatedInput) {
    specific = { ...base, permissionDecision: 'allow', permissionDecisionReason: `Warden changed this action: ${decision.reason}`, updatedInput: decision.updatedInput };
  } else if (decision.verdict === 'warn') {
    specific = { ...base, permissionDecision: 'allow', permissionDecisionReason: `Warden warns: ${decision.reason}` };
  } else {
    specific = { ...base, permissionDecision: 'allow', permissionDecisionReason: `Warden allowed this action: ${decision.reason}` };
  }
  return withGuidance({ hookSpecificOutput: specific }, 'PreToolUse', guidance);
}

/** The PreToolUse answer while an emergency stop is in force: the call is denied and Claude Code stops. */
export function stoppedAnswer(stop: string, guidance: ControlGuidance): HookOutput {
  return withGuidance(
    { hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: stop } },
    'PreToolUse',
    { ...guidance, stop },
  );
}

/** The answer of a fail-open tool when Warden could not decide. */
export function failOpenAnswer(tool: string, why: string, guidance: ControlGuidance): HookOutput {
  return withGuidance(
    { hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'allow', permissionDecisionReason: `Warden could not decide (${why}); ${tool} is allowed by the fail-open setting` } },
    'PreToolUse',
    guidance,
  );
}

/** The PostToolUse / PostToolUseFailure answer: only control guidance, if any. */
export function postToolUseAnswer(event: HookEvent, guidance: ControlGuidance): HookOutput | null {
  if (!guidance.context.length && !guidance.stop) return null;
  return withGuidance({}, event, guidance);
}
