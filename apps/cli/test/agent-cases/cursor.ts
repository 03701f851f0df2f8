import { shimCommand, TEXTS, type AgentCase } from './agent-case.js';

const CHANGED = `${TEXTS.changed} Run this instead: ${JSON.stringify({ command: 'git push --force-with-lease origin fix/date-parser' })}`;

/** Fields Cursor sends with every event (https://cursor.com/docs/agent/hooks, "Common schema"; the values as cisco-ai-defense/defenseclaw internal/gateway/connector/connector_test.go captured from Cursor 3.10.17). */
const common = (sessionId: string, cwd: string, hookEventName: string) => ({
  conversation_id: sessionId,
  generation_id: 'a1b2c3d4-0000-4000-8000-000000000001',
  model: 'claude-sonnet-5',
  cursor_version: '3.10.17',
  workspace_roots: [cwd],
  hook_event_name: hookEventName,
});

/**
 * Cursor. A shell command is `beforeShellExecution` {command, cwd} and `afterShellExecution` {command,
 * output, duration}, a prompt `beforeSubmitPrompt` {prompt, attachments} (https://cursor.com/docs/agent/hooks;
 * the field lists as eqtylab/cupcake cupcake-core/src/harness/events/cursor/ reads them). Neither shell
 * event names the call. Answers: {permission, user_message, agent_message}, explicit for every call
 * (Warden's install says failClosed: true); Cursor asks about a shell command itself.
 */
export const cursor: AgentCase = {
  agent: 'cursor',
  events: { before: 'beforeShellExecution', after: 'afterShellExecution', prompt: 'beforeSubmitPrompt' },
  installedCommand: shimCommand('cursor'),
  before: (sessionId, _callId, cwd, call, extra = {}) => ({ ...common(sessionId, cwd, 'beforeShellExecution'), command: call.command, cwd, ...extra }),
  after: (sessionId, _callId, cwd, call, output) => ({ ...common(sessionId, cwd, 'afterShellExecution'), command: call.command, output, duration: 1200 }),
  prompt: (sessionId, cwd, prompt) => ({ ...common(sessionId, cwd, 'beforeSubmitPrompt'), prompt, attachments: [] }),
  proposed: (command) => ({ tool: 'Shell', input: { command } }),
  headless: null,
  derivedCallIds: true,
  approvalWaitsFor: 'decision.made',
  answer({ kind }) {
    const both = (permission: string, text: string) => ({ permission, user_message: text, agent_message: text });
    switch (kind) {
      case 'run':
        return { permission: 'allow' };
      case 'warn':
        return both('allow', TEXTS.warning);
      case 'modify':
        // No changed input runs in Cursor: the command to run instead, with the deny.
        return both('deny', CHANGED);
      case 'deny':
        return both('deny', TEXTS.denied);
      case 'approval':
        return both('ask', TEXTS.asked);
      case 'fail_closed':
        return both('deny', TEXTS.failClosed);
    }
  },
};
