import type { PayloadOf, Phase } from '@warden/contracts';
import type { SessionAddress } from '../session/review-session-store.js';
import { StepReviewer, type ProposedAction, type StepReviewerOptions } from '../step-reviewer.js';
import { SupervisionState } from '../supervision/supervision-state.js';
import { explainReview, type ReviewExplanation } from './review-explanation.js';

/** A message of a session as the audit stores it or the console follows it: its type, when, and its payload (already checked against its contract). */
export interface SessionEvent {
  type: string;
  at?: string;
  payload: unknown;
}

/** The messages that shape what the reviewer knows of a session; others are passed over. */
export const REPLAYED_TYPES: readonly string[] = ['session.started', 'session.phase_changed', 'session.goal_changed', 'action.proposed', 'action.outcome', 'pattern.detected', 'checkpoint.saved'];

/**
 * Applies a session's messages to a reviewer as the reviewer service applies them (its session events
 * handler and its review handler): the declaration, phase and goal, every action reviewed, outcomes,
 * patterns and checkpoints. `moveClock` is told each message's time first, for a reviewer on a replay clock.
 */
export function replaySession(reviewer: StepReviewer, address: SessionAddress, events: readonly SessionEvent[], moveClock?: (at: string) => void): void {
  for (const event of events) {
    if (event.at && moveClock) moveClock(event.at);
    switch (event.type) {
      case 'session.started':
        reviewer.startSession(address, event.payload as PayloadOf<'session.started'>);
        break;
      case 'session.phase_changed':
        reviewer.changePhase(address, (event.payload as { phase: Phase }).phase);
        break;
      case 'session.goal_changed':
        reviewer.changeGoal(address, (event.payload as { goal: string }).goal);
        break;
      case 'action.proposed':
        reviewer.review(event.payload as ProposedAction, address);
        break;
      case 'action.outcome':
        reviewer.recordOutcome(address, event.payload as PayloadOf<'action.outcome'>);
        break;
      case 'pattern.detected':
        reviewer.recordPattern(address, event.payload as PayloadOf<'pattern.detected'>);
        break;
      case 'checkpoint.saved':
        reviewer.recordCheckpoint(address);
        break;
    }
  }
}

/** What the session had been through when the action was reviewed, as the explanation's rules saw it. */
export interface ExplainedSession {
  goal: string;
  phase: string;
  environment: string;
  agent_kind: string;
  /** Actions reviewed before this one. */
  actions: number;
  failures: number;
  /** Patterns reported on it that the rules see (session.patterns). */
  patterns: string[];
  /** The agent's automation level, when one applied. */
  level?: number;
  /** The session's spend the rules read (session.spend_usd), when it had spent something. */
  spend_usd?: number;
}

export interface SessionExplanation extends ReviewExplanation {
  session: ExplainedSession;
}

export interface ExplainInSessionRequest {
  /** The policy: the reviewer's settings, custom rules and knowledge (readReviewSources). */
  sources: Pick<StepReviewerOptions, 'settings' | 'extraRules' | 'extraRulesSource' | 'knowledge'>;
  address: SessionAddress;
  /** The session's messages before the action, in order. */
  history: readonly SessionEvent[];
  action: ProposedAction;
  /** When the action was proposed; the reviewer's clock stands there. */
  at?: string;
  /** The agent's automation level when the action was reviewed (the verdict's automation_level). */
  level?: number;
  /** The session's spend when the action was reviewed (the verdict's session_spend_usd). */
  spendUsd?: number;
}

/**
 * A clock for a replay: it starts at `start` (or now) and only moves forward, to each message's time as
 * the replay reaches it.
 */
export function replayClock(start: string | undefined): { now: () => number; moveClock: (at: string) => void } {
  let now = Date.parse(start ?? '') || Date.now();
  return {
    now: () => now,
    moveClock: (at: string) => {
      const t = Date.parse(at);
      if (Number.isFinite(t) && t > now) now = t;
    },
  };
}

/** A reviewer of its own for an explanation, on a clock that follows the session's messages. */
function replayer(request: ExplainInSessionRequest) {
  const { now, moveClock } = replayClock(request.history.find((e) => e.at)?.at ?? request.at);
  const supervision = new SupervisionState();
  if (request.level !== undefined) supervision.applyLevel(request.address.agentId, { agent_id: request.address.agentId, level: request.level, updated_at: new Date(now()).toISOString() });
  if (request.spendUsd) supervision.applySpend(request.address.agentId, request.address.sessionId, request.spendUsd, new Date(now()).toISOString());
  const reviewer = new StepReviewer({ ...request.sources, supervision, clock: now, keepIdleSessions: true });
  const replay = (events: readonly SessionEvent[]) => replaySession(reviewer, request.address, events, moveClock);
  const finish = (): SessionExplanation => {
    if (request.at) moveClock(request.at);
    const session = reviewer.sessionStore.open(request.address);
    const facts: ExplainedSession = {
      goal: session.context.goal ?? '',
      phase: session.context.phase ?? '',
      environment: session.context.environment ?? '',
      agent_kind: session.context.agentKind ?? '',
      actions: session.actionsReviewed,
      failures: session.failures,
      // As the rules read them (policyFacts): reported within ten minutes of the session's last activity.
      patterns: [...new Set(session.activePatterns(session.lastSeen).map((p) => p.type))],
      ...(request.level !== undefined ? { level: request.level } : {}),
      ...(request.spendUsd ? { spend_usd: request.spendUsd } : {}),
    };
    return { ...explainReview(reviewer, request.action, request.address), session: facts };
  };
  return { replay, finish };
}

/**
 * Explains an action in the session it belongs to: a reviewer of its own, built from the policy, goes
 * through the session's messages before the action on a clock that follows their times, then reviews the
 * action with a recorder (explainReview). Open breakers are not replayed: an explanation of a verdict an
 * open breaker decided says the matrix or the rules instead.
 */
export function explainInSession(request: ExplainInSessionRequest): SessionExplanation {
  const { replay, finish } = replayer(request);
  replay(request.history);
  return finish();
}

/**
 * explainInSession for a process that reviews while it explains: the replay stops for `pause` after every
 * `every` messages, so that a long session's replay never holds its reviews up for long.
 */
export async function explainInSessionPausing(request: ExplainInSessionRequest, pause: () => Promise<void>, every = 50): Promise<SessionExplanation> {
  const { replay, finish } = replayer(request);
  for (let i = 0; i < request.history.length; i += every) {
    replay(request.history.slice(i, i + every));
    await pause();
  }
  return finish();
}
