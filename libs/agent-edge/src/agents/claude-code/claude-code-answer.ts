import type { EdgeAnswer } from '../../edge-answer.js';
import type { EdgeEvent } from '../../edge-event.js';
import type { HookEvent } from './hook-input.js';

/**
 * Claude Code's hook output format (hooks reference, https://code.claude.com/docs/en/hooks, "JSON
 * output" and "PreToolUse decision control"): printed on stdout by the command hook, the 200 body of
 * the HTTP hook.
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

/**
 * The hook event Claude Code named for each of Warden's events (the event of an after_tool with a failure
 * is PostToolUseFailure, of a refused one PermissionDenied).
 */
export function claudeEventOf(event: EdgeEvent): HookEvent {
  switch (event.type) {
    case 'session_start':
      return 'SessionStart';
    case 'prompt':
      return 'UserPromptSubmit';
    case 'before_tool':
      return 'PreToolUse';
    case 'after_tool':
      return event.result.ok ? 'PostToolUse' : event.result.refused ? 'PermissionDenied' : 'PostToolUseFailure';
    case 'stop':
      return event.session.subagent ? 'SubagentStop' : 'Stop';
    case 'session_end':
      return 'SessionEnd';
  }
}

/** Warden's answer in Claude Code's format; null when there is nothing to say. */
export function claudeCodeOutput(event: EdgeEvent, answer: EdgeAnswer): HookOutput | null {
  const hookEventName = claudeEventOf(event);
  // A prompt under a stop, or a turn Warden keeps going: Claude Code's top-level decision.
  if (answer.block && (event.type === 'prompt' || event.type === 'stop')) return { decision: 'block', reason: answer.block };
  const output: HookOutput = {};
  if (answer.notice) output.systemMessage = answer.notice;
  const tool = event.type === 'before_tool' ? answer.tool : undefined;
  if (tool && tool.decision !== 'run') {
    output.hookSpecificOutput = {
      hookEventName,
      permissionDecision: tool.decision === 'rewrite' ? 'allow' : tool.decision,
      permissionDecisionReason: tool.reason,
      ...((tool.decision === 'ask' || tool.decision === 'rewrite') && tool.input ? { updatedInput: tool.input } : {}),
    };
  }
  // PermissionDenied takes no context (its own output is `retry`): what Warden has to say waits for the next event.
  if (answer.context.length && event.type !== 'stop' && event.type !== 'session_end' && hookEventName !== 'PermissionDenied') {
    output.hookSpecificOutput = { ...(output.hookSpecificOutput ?? { hookEventName }), additionalContext: answer.context.join('\n') };
  }
  if (answer.stop && event.type !== 'stop' && event.type !== 'session_end') {
    output.continue = false;
    output.stopReason = answer.stop;
  }
  return output.hookSpecificOutput || output.systemMessage || output.continue !== undefined ? output : null;
}
