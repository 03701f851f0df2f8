import type { ConsoleEvent, Payload } from './console-event.js';

/** The messages of a session the reviewer replays before it explains an action (libs/review session-replay). */
const REPLAYED = new Set(['session.started', 'session.phase_changed', 'session.goal_changed', 'action.proposed', 'action.outcome', 'pattern.detected', 'checkpoint.saved']);
/** The reviewer reads at most this many messages of a session (its MAX_HISTORY): the latest are sent, with the declaration. */
export const MAX_HISTORY = 5_000;

/** What the reviewer's `POST /review/explain` takes (apps/reviewer/README.md "Why this verdict"). */
export interface ExplainBody {
  agent_id: string;
  session_id: string;
  action: Payload;
  at: string;
  level?: number;
  history: { type: string; at: string; payload: Payload }[];
}

/** What the reviewer decided at the time, as its verdict said. */
export interface RecordedVerdict {
  verdict: string;
  decided_by?: string;
  rule_hits: string[];
  reasons: string[];
  at: string;
}

export interface ExplainableAction {
  body: ExplainBody;
  recorded?: RecordedVerdict;
  /** Messages of the session before the action that the console no longer holds, so not replayed. */
  dropped: number;
}

/**
 * The explain request for one action of a session, from the events the console holds of it (in time
 * order): the action as proposed (or as its verdict carries it), the session's messages before it, and the
 * agent's automation level and the session's spend the verdict recorded. Undefined when the console saw neither its proposal nor its verdict.
 */
export function explainRequestOf(events: readonly ConsoleEvent[], agentId: string, sessionId: string, actionId: string): ExplainableAction | undefined {
  const ours = events.filter((e) => e.agent_id === agentId && e.session_id === sessionId);
  const proposedAt = ours.findIndex((e) => e.type === 'action.proposed' && e.payload.action_id === actionId);
  const verdictEvent = ours.find((e) => e.type === 'review.verdict' && e.payload.action_id === actionId);
  const proposal = proposedAt >= 0 ? ours[proposedAt]! : undefined;
  const action = proposal?.payload ?? (verdictEvent?.payload.action ? { action_id: actionId, ...verdictEvent.payload.action } : undefined);
  if (!action) return undefined;
  const at = proposal?.at ?? verdictEvent!.at;
  const before = (proposedAt >= 0 ? ours.slice(0, proposedAt) : ours.filter((e) => e.at < at)).filter((e) => REPLAYED.has(e.type));
  // Past the reviewer's limit the declaration stays and the oldest of the rest go.
  const declaration = before.filter((e) => e.type === 'session.started');
  const rest = before.filter((e) => e.type !== 'session.started');
  const kept = [...declaration, ...rest.slice(Math.max(0, rest.length - (MAX_HISTORY - declaration.length)))];
  const verdict = verdictEvent?.payload;
  const level = typeof verdict?.automation_level === 'number' ? { level: verdict.automation_level as number } : {};
  const spend = typeof verdict?.session_spend_usd === 'number' ? { spend_usd: verdict.session_spend_usd as number } : {};
  return {
    body: { agent_id: agentId, session_id: sessionId, action, at, ...level, ...spend, history: kept.map((e) => ({ type: e.type, at: e.at, payload: e.payload })) },
    ...(verdict
      ? {
          recorded: {
            verdict: String(verdict.verdict),
            ...(verdict.decided_by ? { decided_by: String(verdict.decided_by) } : {}),
            rule_hits: Array.isArray(verdict.rule_hits) ? verdict.rule_hits.map(String) : [],
            reasons: Array.isArray(verdict.reasons) ? verdict.reasons.map(String) : [],
            at: verdictEvent!.at,
          },
        }
      : {}),
    dropped: before.length - kept.length,
  };
}
