import { join } from 'node:path';

/** How long one hook call may take: the operator tests answer well within it. */
export const DEADLINE_MS = 6_000;

/** Warden's texts for the test commands (the reviewer's reasons for them). */
export const TEXTS = {
  warning: 'Warden warns: Allowed with a warning: git branch -D deletes old-work even if its commits are merged nowhere else.',
  changed:
    'Warden changed this action: Allowed with changes: git push --force overwrites the remote branch and silently discards commits others pushed since you fetched. The command was changed to use --force-with-lease, which refuses if the remote moved. If it is refused, fetch and integrate the remote changes first.',
  denied: "Warden denied this action: Recursive deletion of / would destroy the system or the user's files. This command is never allowed.",
  approved: 'Warden: Approved by operator alice (apt-get install -y jq changes the software of the whole machine with administrator rights. A person must approve it.)',
  asked: 'Warden asks you to approve this action: apt-get install -y jq changes the software of the whole machine with administrator rights. A person must approve it.',
  failClosed: `Warden could not decide on this tool call, so it is blocked (fail closed): no decision within ${DEADLINE_MS} ms (the hook's deadline)`,
};

/** The kinds of decision each agent's answer is checked for. */
export type Decided = { kind: 'run' | 'warn' | 'modify' | 'deny' | 'approval' | 'fail_closed'; /** The project the call ran in. */ cwd?: string };

/** A tool call in the test's terms; each agent case writes it in its agent's own shape. */
export interface CallSpec {
  tool: 'shell';
  command: string;
}

/**
 * One agent's side of agent-hooks.spec: its payloads in the shape its documentation or source gives
 * (cited per case), the command its installed hook runs, and the exact answer it gets for each kind of
 * decision.
 */
export interface AgentCase {
  agent: string;
  /** The event names the installed hook passes to the shim, for a call before and after a tool runs, and a prompt. */
  events: { before: string; after: string; prompt: string };
  /** The command the agent runs for an event, as `warden hook install` wrote it. */
  installedCommand(project: string, event: string): string;
  before(sessionId: string, callId: string, cwd: string, call: CallSpec, extra?: Record<string, unknown>): unknown;
  after(sessionId: string, callId: string, cwd: string, call: CallSpec, output: string): unknown;
  prompt(sessionId: string, cwd: string, prompt: string): unknown;
  /** Fields the proposed action carries for a shell command. */
  proposed(command: string): Record<string, unknown>;
  /**
   * Extra payload fields of a session nobody can be asked in; null for an agent whose payloads cannot say
   * so (its hook is then installed with `--approvals operator` for a session that nobody can be asked in).
   */
  headless: Record<string, unknown> | null;
  /** The agent's payloads name no call: the proposal's id is derived from the call (its key and a tag), not the test's id. */
  derivedCallIds?: boolean;
  /** What shows that an approval waits: the gate's pause (an operator answers), or the decision itself (the agent asks its user). */
  approvalWaitsFor: 'hitl.paused' | 'decision.made';
  answer(decided: Decided): Record<string, unknown> | null;
  /** The proposal's id for a call the test names `callId`, for an agent whose payloads name the call otherwise (Antigravity: its step). */
  actionIdOf?(callId: string): string;
  /** Its payload after a tool ran carries no output. */
  reportsNoOutput?: true;
  /** What its installed hook prints (exit 0) when it blocks a call, for agents that do not block on exit 2 (the reason matched). */
  blocked?(reason: unknown): Record<string, unknown>;
  /** For an agent that can ask its user: its answer to an approval handed to the user (installed with `--approvals terminal`). */
  asked?(): Record<string, unknown>;
  /** Its answer to a call that brings a correction (text for the model), and the correction's acknowledgement: applied only where its model reads it. */
  corrected?(text: string): { answer: Record<string, unknown> | null; ack: 'applied' | 'failed' };
}

/** The command `warden hook install` writes for an agent served by the command shim. */
export const shimCommand = (agent: string) => (project: string, event: string) => `sh ${JSON.stringify(join(project, '.warden', 'hooks', `${agent}.sh`))} ${event}`;

