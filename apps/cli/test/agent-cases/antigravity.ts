import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { TEXTS, type AgentCase } from './agent-case.js';

/** agy's trajectory step for a test call: the call id's number (agy's payloads carry no call id; Warden uses the step). */
const stepOf = (callId: string) => Number(/(\d+)$/.exec(callId)?.[1] ?? 0);

/** The fields every agy hook payload carries (cisco-ai-defense/defenseclaw docs-site/content/docs/connectors/antigravity.mdx, "Official lifecycle schema"). */
const common = (conversationId: string, cwd: string) => ({
  artifactDirectoryPath: join(cwd, '.gemini-brain', conversationId),
  conversationId,
  transcriptPath: join(cwd, '.gemini-brain', conversationId, '.system_generated', 'logs', 'transcript.jsonl'),
  workspacePaths: [cwd],
});

/** run_command's args (specstoryai/getspecstory specstory-cli/docs/antigravity-format-spec.md §3.5). */
const runCommand = (command: string, cwd: string) => ({ name: 'run_command', args: { CommandLine: command, Cwd: cwd, WaitMsBeforeAsync: 5000 } });

/**
 * Google Antigravity CLI (`agy`). Payloads: the PreToolUse agy 1.0.1 sent (captured in defenseclaw
 * internal/gateway/connector/antigravity_hook_profile_test.go: conversationId, stepIdx, toolCall {name,
 * args}, transcriptPath, workspacePaths, artifactDirectoryPath), PostToolUse (`stepIdx`, `error`) and
 * PreInvocation (`invocationNum`, `initialNumSteps`) as defenseclaw's connector page lists them; the user's
 * prompt is read from the transcript (specstory-cli/docs/antigravity-format-spec.md §3.2, §3.7). No event
 * name in a payload: the installed command passes it. Answers: `{decision, reason}`, nothing for no
 * objection (michaeldhopkins/safe-chains HARNESS-BEHAVIORS.md, agy 1.1.2).
 */
export const antigravity: AgentCase = {
  agent: 'antigravity',
  events: { before: 'PreToolUse', after: 'PostToolUse', prompt: 'PreInvocation' },
  // agy runs the command without a shell: `warden hook install` writes it unquoted.
  installedCommand: (project, event) => `sh ${join(project, '.warden', 'hooks', 'antigravity.sh')} ${event}`,
  before: (sessionId, callId, cwd, call, extra = {}) => ({ ...common(sessionId, cwd), stepIdx: stepOf(callId), toolCall: runCommand(call.command, cwd), ...extra }),
  after: (sessionId, callId, cwd, call) => ({ ...common(sessionId, cwd), stepIdx: stepOf(callId), toolCall: runCommand(call.command, cwd), error: '' }),
  prompt(sessionId, cwd, prompt) {
    const payload = { ...common(sessionId, cwd), invocationNum: 0, initialNumSteps: 1 };
    mkdirSync(join(payload.transcriptPath, '..'), { recursive: true });
    const input = { step_index: 0, source: 'USER_EXPLICIT', type: 'USER_INPUT', status: 'DONE', created_at: '2026-11-28T10:15:00Z', content: `<USER_REQUEST>\n${prompt}\n</USER_REQUEST>\n<ADDITIONAL_METADATA>\nThe current local time is: 2026-11-28T11:15:00+01:00.\n</ADDITIONAL_METADATA>` };
    writeFileSync(payload.transcriptPath, `${JSON.stringify(input)}\n`);
    return payload;
  },
  proposed: (command) => ({ tool: 'run_command', input: { CommandLine: command, WaitMsBeforeAsync: 5000 } }),
  headless: {},
  approvalWaitsFor: 'hitl.paused',
  actionIdOf: (callId) => `step-${stepOf(callId)}`,
  reportsNoOutput: true,
  blocked: (reason) => ({ decision: 'deny', reason }),
  // No field of a PreToolUse answer reaches agy's model unless it denies.
  corrected: () => ({ answer: null, ack: 'failed' }),
  asked: () => ({ decision: 'force_ask', reason: TEXTS.asked }),
  answer({ kind, cwd }) {
    switch (kind) {
      case 'run':
      case 'warn':
      case 'approval':
        // Nothing at all: agy runs the call through its own permissions (it has no field for a warning or a notice).
        return null;
      case 'modify':
        return { decision: 'deny', reason: `${TEXTS.changed} Run this instead: ${JSON.stringify({ CommandLine: 'git push --force-with-lease origin fix/date-parser', Cwd: cwd, WaitMsBeforeAsync: 5000 })}` };
      case 'deny':
        return { decision: 'deny', reason: TEXTS.denied };
      case 'fail_closed':
        return { decision: 'deny', reason: TEXTS.failClosed };
    }
  },
};
