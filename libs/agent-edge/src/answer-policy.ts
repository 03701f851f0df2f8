/**
 * How Warden's answers sit with the user's own permissions in the agent, whichever agent. The same for
 * the command hook (read from `.warden/hook.json` and the environment) and the HTTP hook (read from the
 * URL's query and the request's headers).
 */
export interface AnswerPolicy {
  /**
   * Warden approves on the user's behalf what it has no objection to (Claude Code's `permissionDecision:
   * "allow"`, where the agent's allow is a grant). Off by default: without an objection Warden answers no
   * permission decision at all, and the agent's own rules and prompts apply.
   */
  decide: boolean;
  /**
   * Who answers a `require_approval`: `auto` asks the person at the terminal when the session is
   * interactive and an operator (the gate) when it is headless; `terminal` and `operator` choose.
   */
  approvals: ApprovalRoute;
  /** Tools left to the agent's own rules when Warden cannot decide; `*` for all. None by default: fail closed. */
  failOpenTools: string[];
}

export const APPROVAL_ROUTES = ['auto', 'terminal', 'operator'] as const;
export type ApprovalRoute = (typeof APPROVAL_ROUTES)[number];

export const ANSWER_DEFAULTS: AnswerPolicy = { decide: false, approvals: 'auto', failOpenTools: [] };

/** What tells an interactive session from a headless one, besides the payload. */
export interface SessionSurroundings {
  /**
   * Claude Code's `CLAUDE_CODE_ENTRYPOINT`: `cli` (a terminal), `claude-desktop`, `claude-vscode`, …
   * for a person; `sdk-cli` (`claude -p`), `sdk-ts`, `sdk-py` for a program. The HTTP hook receives it
   * as the `X-Claude-Code-Entrypoint` header (`warden hook install` writes it).
   */
  entrypoint?: string;
}

/**
 * Whether a person can answer the agent's permission prompt in this session, for agents with Claude
 * Code's permission modes (Claude Code, Codex, Factory). Headless when the permission mode asks nobody
 * (`dontAsk` denies what would prompt, `bypassPermissions` prompts for nothing), or when the agent runs
 * for a program (`CLAUDE_CODE_ENTRYPOINT` sdk-*); interactive otherwise.
 */
export function isInteractive(permissionMode: string | undefined, surroundings: SessionSurroundings): boolean {
  if (permissionMode === 'dontAsk' || permissionMode === 'bypassPermissions') return false;
  if (surroundings.entrypoint && /^sdk/i.test(surroundings.entrypoint)) return false;
  return true;
}

/**
 * Who answers a require_approval for this call: the agent's user, when the agent can ask about the tool
 * and the policy (or, with `auto`, an interactive session) says so; an operator at the gate otherwise.
 */
export function approverFor(policy: AnswerPolicy, interactive: boolean, askable: boolean): 'agent_user' | 'operator' {
  if (!askable || policy.approvals === 'operator') return 'operator';
  if (policy.approvals === 'terminal') return 'agent_user';
  return interactive ? 'agent_user' : 'operator';
}

export function failsOpen(policy: AnswerPolicy, tool: string): boolean {
  return policy.failOpenTools.includes(tool) || policy.failOpenTools.includes('*');
}
