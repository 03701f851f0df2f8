import { shimCommand, TEXTS, type AgentCase } from './agent-case.js';

/**
 * Codex CLI. Payloads: openai/codex codex-rs/hooks/schema/generated/pre-tool-use.command.input.schema.json
 * and post-tool-use.command.input.schema.json (the shell reaches hooks as `Bash` with `command`), and
 * https://developers.openai.com/codex/hooks ("Common input fields", "PreToolUse", "PostToolUse",
 * "UserPromptSubmit"); answers: pre-tool-use.command.output.schema.json (deny, allow only with
 * updatedInput, additionalContext, systemMessage).
 */
export const codex: AgentCase = {
  agent: 'codex',
  events: { before: 'PreToolUse', after: 'PostToolUse', prompt: 'UserPromptSubmit' },
  installedCommand: shimCommand('codex'),
  before: (sessionId, callId, cwd, call, extra = {}) => ({
    session_id: sessionId,
    turn_id: '1',
    transcript_path: null,
    cwd,
    model: 'gpt-5.5',
    permission_mode: 'default',
    hook_event_name: 'PreToolUse',
    tool_name: 'Bash',
    tool_input: { command: call.command },
    tool_use_id: callId,
    ...extra,
  }),
  after: (sessionId, callId, cwd, call, output) => ({
    session_id: sessionId,
    turn_id: '1',
    transcript_path: null,
    cwd,
    model: 'gpt-5.5',
    permission_mode: 'default',
    hook_event_name: 'PostToolUse',
    tool_name: 'Bash',
    tool_input: { command: call.command },
    tool_response: output,
    tool_use_id: callId,
  }),
  prompt: (sessionId, cwd, prompt) => ({ session_id: sessionId, turn_id: '1', transcript_path: null, cwd, model: 'gpt-5.5', permission_mode: 'default', hook_event_name: 'UserPromptSubmit', prompt }),
  proposed: (command) => ({ tool: 'Bash', input: { command } }),
  headless: { permission_mode: 'dontAsk' },
  approvalWaitsFor: 'hitl.paused',
  answer({ kind }) {
    const pre = (fields: Record<string, unknown>) => ({ hookSpecificOutput: { hookEventName: 'PreToolUse', ...fields } });
    switch (kind) {
      case 'run':
        return null;
      case 'warn':
        return { systemMessage: TEXTS.warning, ...pre({ additionalContext: TEXTS.warning }) };
      case 'modify':
        // Codex cannot ask, and Warden does not approve on the user's behalf unasked: the changed command to run instead.
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

