import { replayClock, replaySession, type SessionEvent } from '../explanation/session-replay.js';
import { StepReviewer, type StepReviewerOptions } from '../step-reviewer.js';
import { SupervisionState } from '../supervision/supervision-state.js';
import type { ReviewSession } from './review-session.js';
import type { SessionAddress } from './review-session-store.js';

/** The policy a session is rebuilt with: the running reviewer's. */
export type RebuildPolicy = Pick<StepReviewerOptions, 'settings' | 'extraRules' | 'extraRulesSource' | 'ruleOverrides' | 'knowledge'>;

/**
 * What a replica knows of a session it takes over mid-way (after a restart, or partitions handed over by
 * another replica), rebuilt from the session's stored messages before the action at hand: a reviewer of
 * its own, on a clock that follows the messages' times, goes through them as the service applied them
 * live (declaration, actions, outcomes, patterns, checkpoints), so that failures, the recent actions and
 * approved paths count from the session's start, not from the takeover. Open breakers and the agent's
 * level are not replayed: they are the live reviewer's, read when the action is reviewed. The replay
 * stops for `pause` after every `every` messages, so that a long session never holds reviews up for long.
 */
export async function rebuildSession(
  policy: RebuildPolicy,
  address: SessionAddress,
  events: readonly SessionEvent[],
  pause: () => Promise<void>,
  every = 50,
): Promise<ReviewSession> {
  const { now, moveClock } = replayClock(events.find((e) => e.at)?.at);
  const reviewer = new StepReviewer({ ...policy, supervision: new SupervisionState(), clock: now, keepIdleSessions: true });
  for (let i = 0; i < events.length; i += every) {
    replaySession(reviewer, address, events.slice(i, i + every), moveClock);
    if (i + every < events.length) await pause();
  }
  return reviewer.sessionStore.open(address);
}
