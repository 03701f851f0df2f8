import { join } from 'node:path';
import { shimCommand, TEXTS, type AgentCase } from './agent-case.js';

/** Fields Droid sends with every event (Factory-AI/factory docs/reference/hooks-reference.mdx, "Hook Input"). */
const common = (sessionId: string, cwd: string) => ({
  session_id: sessionId,
  transcript_path: join(cwd, '.factory-sessions', `${sessionId}.jsonl`),
  cwd,
  permission_mode: 'auto-medium',
});

/**
 * Factory Droid. Payloads: the hooks reference (Factory-AI/factory docs/reference/hooks-reference.mdx @
 * a80aa7c5, https://docs.factory.ai/reference/hooks-reference): "PreToolUse Input" and "PostToolUse Input"
 * (tool_name, tool_input; the shell is `Execute` {command}; tool_response after it ran; no tool_use_id),
 * "UserPromptSubmit Input" (prompt). Answers: "PreToolUse Decision Control" (permissionDecision allow, deny
 * or ask, permissionDecisionReason, updatedInput) and the common `systemMessage`; `additionalContext`.
 */
export const factory: AgentCase = {
  agent: 'factory',
  events: { before: 'PreToolUse', after: 'PostToolUse', prompt: 'UserPromptSubmit' },
  installedCommand: shimCommand('factory'),
  before: (sessionId, _callId, cwd, call, extra = {}) => ({ ...common(sessionId, cwd), hook_event_name: 'PreToolUse', tool_name: 'Execute', tool_input: { command: call.command }, ...extra }),
  after: (sessionId, _callId, cwd, call, output) => ({ ...common(sessionId, cwd), hook_event_name: 'PostToolUse', tool_name: 'Execute', tool_input: { command: call.command }, tool_response: output }),
  prompt: (sessionId, cwd, prompt) => ({ ...common(sessionId, cwd), hook_event_name: 'UserPromptSubmit', prompt }),
  proposed: (command) => ({ tool: 'Execute', input: { command } }),
  headless: {},
  approvalWaitsFor: 'hitl.paused',
  derivedCallIds: true,
  corrected: (text) => ({ answer: { hookSpecificOutput: { hookEventName: 'PreToolUse', additionalContext: text } }, ack: 'applied' }),
  asked: () => ({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'ask', permissionDecisionReason: TEXTS.asked } }),
  answer({ kind }) {
    const pre = (fields: Record<string, unknown>) => ({ hookSpecificOutput: { hookEventName: 'PreToolUse', ...fields } });
    switch (kind) {
      case 'run':
        return null;
      case 'warn':
        return { systemMessage: TEXTS.warning, ...pre({ additionalContext: TEXTS.warning }) };
      case 'modify':
        // Warden does not approve on the user's behalf unasked, and Droid's ask is not shown a changed input: the command to run instead.
        return pre({ permissionDecision: 'deny', permissionDecisionReason: `${TEXTS.changed} Run this instead: ${JSON.stringify({ command: 'git push --force-with-lease origin fix/date-parser' })}` });
      case 'deny':
        return pre({ permissionDecision: 'deny', permissionDecisionReason: TEXTS.denied });
      case 'approval':
        return { systemMessage: TEXTS.approved };
      case 'fail_closed':
        return pre({ permissionDecision: 'deny', permissionDecisionReason: TEXTS.failClosed });
    }
  },
};
