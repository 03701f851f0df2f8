/**
 * The agent gateway's record of the Claude Code sessions it serves: `owner.<session>` is the agent a
 * session belongs to (the first agent whose token used it; any other agent's token is refused for it),
 * `state.<agent>.<session>` the hook's state of the session (declared, control messages shown, stop in
 * force). Kept as long as the session's messages (7 days without a call).
 */
export const HOOK_SESSION_BUCKET = 'warden_hook_sessions';
export const HOOK_SESSION_TTL_MS = 7 * 24 * 3_600_000;
