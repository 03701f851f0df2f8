import type { AgentAdapter } from '../../agent-adapter.js';
import { claudeCodeOutput } from './claude-code-answer.js';
import { edgeEventOf, hookInputOf, parseHookInput } from './hook-input.js';
import { goalFromTranscript, requestOf } from './transcript-goal.js';
import { turnFromTranscript } from './transcript-turn.js';

/**
 * Claude Code (hooks reference: https://code.claude.com/docs/en/hooks). It can ask its user, show and
 * run a changed input, and its allow skips its own prompt (so Warden says it only with `decide`); a
 * hook that fails lets the tool run, so the transports answer a deny themselves when Warden cannot be
 * reached. HTTP hooks post to the gateway directly; the command hook is `warden hook`.
 */
export const claudeCodeAdapter: AgentAdapter<'claude-code'> = {
  name: 'claude-code',
  title: 'Claude Code',
  agentKind: 'claude-code',
  capabilities: {
    ask: true,
    askWithInput: true,
    rewrite: true,
    allowGrants: true,
    context: true,
    silenceRuns: true,
    failsOpen: true,
    http: true,
    namesSubagents: true,
  },
  read: (payload) => edgeEventOf(typeof payload === 'string' ? parseHookInput(payload) : hookInputOf(payload)),
  write: (event, answer) => claudeCodeOutput(event, answer) as Record<string, unknown> | null,
  requestOf,
  goalFromTranscript,
  turnOf: (session, call) => (call.derived ? undefined : turnFromTranscript(session.transcriptPath, call.id)),
};
