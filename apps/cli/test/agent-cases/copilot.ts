import { shimCommand, TEXTS, type AgentCase } from './agent-case.js';

const CHANGED = `${TEXTS.changed} Run this instead: ${JSON.stringify({ command: 'git push --force-with-lease origin fix/date-parser' })}`;

/**
 * GitHub Copilot CLI, its camelCase events. Payloads: GitHub's hooks reference
 * (github/docs content/copilot/reference/hooks-reference.md, "preToolUse / PreToolUse", "postToolUse /
 * PostToolUse", "userPromptSubmitted / UserPromptSubmit"): {sessionId, timestamp, cwd, toolName,
 * toolArgs} with the arguments as JSON text, `bash` {command, description}; no event names itself (the
 * installed hook passes it) or the call. Answers: "preToolUse decision control" (permissionDecision,
 * permissionDecisionReason); nothing for no objection. Copilot asks its user itself.
 */
export const copilot: AgentCase = {
  agent: 'copilot',
  events: { before: 'preToolUse', after: 'postToolUse', prompt: 'userPromptSubmitted' },
  installedCommand: shimCommand('copilot'),
  before: (sessionId, _callId, cwd, call, extra = {}) => ({
    sessionId,
    timestamp: Date.now(),
    cwd,
    toolName: 'bash',
    toolArgs: JSON.stringify({ command: call.command }),
    ...extra,
  }),
  after: (sessionId, _callId, cwd, call, output) => ({
    sessionId,
    timestamp: Date.now(),
    cwd,
    toolName: 'bash',
    toolArgs: JSON.stringify({ command: call.command }),
    toolResult: { resultType: 'success', textResultForLlm: output },
  }),
  prompt: (sessionId, cwd, prompt) => ({ sessionId, timestamp: Date.now(), cwd, prompt }),
  proposed: (command) => ({ tool: 'bash', input: { command } }),
  headless: null,
  derivedCallIds: true,
  approvalWaitsFor: 'decision.made',
  answer({ kind }) {
    const decided = (permissionDecision: string, permissionDecisionReason: string) => ({ permissionDecision, permissionDecisionReason });
    switch (kind) {
      case 'run':
        return null;
      case 'warn':
        // Whether preToolUse's additionalContext reaches the model is unconfirmed; it is what Copilot takes there.
        return { additionalContext: TEXTS.warning };
      case 'modify':
        // Copilot runs modifiedArgs only with an allow, a grant Warden gives only with decide: otherwise the input to run instead.
        return decided('deny', CHANGED);
      case 'deny':
        return decided('deny', TEXTS.denied);
      case 'approval':
        return decided('ask', TEXTS.asked);
      case 'fail_closed':
        return decided('deny', TEXTS.failClosed);
    }
  },
};
