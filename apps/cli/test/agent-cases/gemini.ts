import { shimCommand, TEXTS, type AgentCase } from './agent-case.js';

const CHANGED = `${TEXTS.changed} Run this instead: ${JSON.stringify({ command: 'git push --force-with-lease origin fix/date-parser', is_background: false })}`;

/** Fields Gemini CLI sends with every event (google-gemini/gemini-cli packages/core/src/hooks/types.ts, HookInput). */
const common = (sessionId: string, cwd: string, hookEventName: string) => ({
  session_id: sessionId,
  transcript_path: `${cwd}/.gemini-chats/session-${sessionId}.jsonl`,
  cwd,
  hook_event_name: hookEventName,
  timestamp: new Date().toISOString(),
});

/**
 * Gemini CLI. A shell command is `BeforeTool` / `AfterTool` of `run_shell_command` {command, description,
 * is_background} (packages/core/src/tools/definitions/base-declarations.ts), AfterTool's `tool_response`
 * {llmContent, returnDisplay}; a prompt is `BeforeAgent` {prompt} (types.ts BeforeToolInput,
 * AfterToolInput, BeforeAgentInput). No event names the call. Answers: HookOutput's decision, reason
 * and systemMessage, hookSpecificOutput.additionalContext; nothing for no objection. Gemini asks its user
 * itself.
 */
export const gemini: AgentCase = {
  agent: 'gemini',
  events: { before: 'BeforeTool', after: 'AfterTool', prompt: 'BeforeAgent' },
  installedCommand: shimCommand('gemini'),
  before: (sessionId, _callId, cwd, call, extra = {}) => ({
    ...common(sessionId, cwd, 'BeforeTool'),
    tool_name: 'run_shell_command',
    tool_input: { command: call.command, is_background: false },
    ...extra,
  }),
  after: (sessionId, _callId, cwd, call, output) => ({
    ...common(sessionId, cwd, 'AfterTool'),
    tool_name: 'run_shell_command',
    tool_input: { command: call.command, is_background: false },
    tool_response: { llmContent: output, returnDisplay: output },
  }),
  prompt: (sessionId, cwd, prompt) => ({ ...common(sessionId, cwd, 'BeforeAgent'), prompt }),
  proposed: (command) => ({ tool: 'run_shell_command', input: { command, is_background: false } }),
  headless: null,
  derivedCallIds: true,
  approvalWaitsFor: 'decision.made',
  answer({ kind }) {
    switch (kind) {
      case 'run':
        return null;
      case 'warn':
        return { systemMessage: TEXTS.warning, hookSpecificOutput: { hookEventName: 'BeforeTool', additionalContext: TEXTS.warning } };
      case 'modify':
        // Gemini's changed input goes with an allow, which Warden gives only with decide: otherwise the input to run instead.
        return { decision: 'deny', reason: CHANGED };
      case 'deny':
        return { decision: 'deny', reason: TEXTS.denied };
      case 'approval':
        return { decision: 'ask', reason: TEXTS.asked, systemMessage: TEXTS.asked };
      case 'fail_closed':
        return { decision: 'deny', reason: TEXTS.failClosed };
    }
  },
};
