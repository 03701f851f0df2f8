import type { AutomationLevel } from '@warden/contracts';
import { DEFAULT_LADDER_SETTINGS, type LadderSettings } from './ladder-settings.js';
import { checkRequirements, HIGHEST_LEVEL, highestLevelStillHeld, levelLabel } from './level-requirements.js';
import { newTrackRecord, type LevelChange, type LevelChangeCause, type SessionObservation, type TrackRecord } from './track-record.js';

/** Seed 002 §7.2 `RunOutcome`: what one run adds to the track record (see `observedOutcome` for where it comes from). */
export interface RunOutcome {
  status: 'success' | 'failure' | 'aborted';
  falsePositives?: number;
  missedCriticalBugs?: number;
  humanApproved?: boolean;
}

/** A decision the gate published for one of the agent's actions (`decision.made`), as the ladder counts it. */
export interface ObservedDecision {
  sessionId: string;
  decision: 'allow' | 'deny';
  decidedBy: 'reviewer' | 'operator' | 'gate_timeout' | 'policy';
}

/**
 * The agent's `session.ended`. Only what the agent may say about itself is read: that the run ended, a
 * status no better than what Warden saw, and faults it admits (false positives, missed critical bugs,
 * which can only lower its level). Its `status: success` and `human_approved` are never believed.
 */
export interface ClaimedEnd {
  sessionId: string;
  status: RunOutcome['status'];
  falsePositives?: number;
  missedCriticalBugs?: number;
}

/**
 * The run outcome of a session from what Warden saw of it: a success when the gate decided at least one
 * of its actions and denied none (and the agent did not itself report a failure or an abort); approved
 * by a human when an operator decided at the gate and allowed every action they decided, not approved
 * when an operator denied one, and no approval either way when no operator decided anything.
 */
export function observedOutcome(session: SessionObservation): RunOutcome {
  const claimed = session.ended;
  const seen = session.decided > 0 && session.denied === 0 ? 'success' : 'failure';
  const status = claimed && claimed.status !== 'success' ? claimed.status : seen;
  const operatorDecided = session.operatorAllowed + session.operatorDenied > 0;
  return {
    status,
    ...(claimed?.falsePositives !== undefined ? { falsePositives: claimed.falsePositives } : {}),
    ...(claimed?.missedCriticalBugs !== undefined ? { missedCriticalBugs: claimed.missedCriticalBugs } : {}),
    ...(operatorDecided ? { humanApproved: session.operatorDenied === 0 } : {}),
  };
}

/** An operator's `ladder.command`. `level` is required by pin and set_level; the schema cannot say so. */
export interface LadderCommand {
  command: 'pin' | 'unpin' | 'set_level';
  level?: AutomationLevel;
  operatorId: string;
  reason?: string;
}

/** What made the ladder act: the id of the message (for de-duplication) and when it was handled. */
export interface LadderEvent {
  messageId: string;
  at: Date;
}

export type CommandRejection = 'missing_level' | 'pinned';

export type LadderStep =
  /**
   * The message changed the record; `change` when the level or the pin changed, `note` when something was
   * held back, `run` when a run was counted (with the outcome it was counted as).
   */
  | { outcome: 'applied'; record: TrackRecord; change?: LevelChange; note?: string; run?: RunOutcome }
  /** The message was handled before; `change` is what that first handling changed, to be published again. */
  | { outcome: 'duplicate'; record: TrackRecord; change?: LevelChange }
  /** The record is unchanged and the reason says why. */
  | { outcome: 'rejected'; record: TrackRecord; rejection: CommandRejection; reason: string }
  /** The message changes nothing a run is counted from: nothing is written. */
  | { outcome: 'unchanged'; record: TrackRecord };

const REASON_LIMIT = 2000;
const LADDER = 'ladder';

/**
 * The automation ladder of seed 002 §7, per agent and without side effects: each method takes a track
 * record and returns the next one with what changed. The caller stores the record (compare-and-set) and
 * publishes the change, so the same decision can be retried on a fresher record after a conflict.
 *
 * Beyond the seed, autonomy is lost faster than it is earned: a run that breaks the current level's
 * requirements demotes at once to the highest level that still holds, a missed critical bug or an
 * emergency stop demotes at least one level, and after such a demotion promotion waits `probationRuns`
 * runs. An operator's pin holds the level against all of it.
 */
export class AutomationLadder {
  readonly settings: LadderSettings;

  constructor(settings: Partial<LadderSettings> = {}) {
    this.settings = { ...DEFAULT_LADDER_SETTINGS, ...settings };
  }

  newRecord(agentId: string, at: Date): TrackRecord {
    return newTrackRecord(agentId, this.settings.initialLevel, at);
  }

  /**
   * Seed 002 §7.2 `recordRun`, then the level transition: a demotion first, otherwise a promotion. The
   * outcome must be one Warden observed (`observedOutcome`); the service counts runs through
   * `observeDecision` and `endSession`.
   */
  recordRun(record: TrackRecord, outcome: RunOutcome, event: LadderEvent): LadderStep {
    const duplicate = this.duplicateOf(record, event);
    if (duplicate) return duplicate;
    return this.countRun(this.remember(structuredClone(record), event), outcome, event);
  }

  /**
   * A decision the gate published in one of the agent's sessions. When the agent already said the session
   * ended and its run was not counted yet (the decision stream and the session stream are not ordered),
   * the run is counted now.
   */
  observeDecision(record: TrackRecord, decision: ObservedDecision, event: LadderEvent): LadderStep {
    const known = record.sessions?.find((s) => s.sessionId === decision.sessionId);
    if (known?.countedBy === event.messageId) {
      // The decision that completed the run, redelivered: publish what it changed again, count nothing.
      const change = record.recentChanges.find((c) => c.causeId === event.messageId);
      return { outcome: 'duplicate', record, ...(change ? { change } : {}) };
    }
    // A run is counted from whether the gate decided anything, what it denied and what an operator decided: one
    // more action the reviewer let through, in a session already seen deciding and not ended, changes none of
    // them. Nothing is written (one compare-and-set less for most actions), and a redelivery counts nothing twice.
    if (known && known.decided > 0 && known.ended === undefined && decision.decision !== 'deny' && decision.decidedBy !== 'operator') return { outcome: 'unchanged', record };
    const next = structuredClone(record);
    const session = this.sessionIn(next, decision.sessionId);
    session.decided += 1;
    if (decision.decision === 'deny') session.denied += 1;
    if (decision.decidedBy === 'operator') {
      if (decision.decision === 'allow') session.operatorAllowed += 1;
      else session.operatorDenied += 1;
    }
    if (session.ended && session.countedBy === undefined) return this.countSession(next, session, event);
    return { outcome: 'applied', record: next };
  }

  /**
   * The agent's `session.ended`. The run counts with what Warden saw of the session (`observedOutcome`); a
   * session in which the gate decided nothing is not a run Warden can judge, and counts only once the gate
   * decides one of its actions. A second end of the same session counts nothing.
   */
  endSession(record: TrackRecord, end: ClaimedEnd, event: LadderEvent): LadderStep {
    const duplicate = this.duplicateOf(record, event);
    if (duplicate) return duplicate;
    const next = this.remember(structuredClone(record), event);
    const session = this.sessionIn(next, end.sessionId);
    if (session.ended) return { outcome: 'applied', record: next, note: `session ${end.sessionId} had already ended: not counted again` };
    session.ended = {
      status: end.status,
      ...(end.falsePositives !== undefined ? { falsePositives: end.falsePositives } : {}),
      ...(end.missedCriticalBugs !== undefined ? { missedCriticalBugs: end.missedCriticalBugs } : {}),
    };
    if (session.decided === 0) {
      return { outcome: 'applied', record: next, note: `no action of session ${end.sessionId} was decided by the gate: its run counts once one is` };
    }
    return this.countSession(next, session, event);
  }

  private countSession(next: TrackRecord, session: SessionObservation, event: LadderEvent): LadderStep {
    session.countedBy = event.messageId;
    const outcome = observedOutcome(session);
    const step = this.countRun(next, outcome, event);
    return step.outcome === 'applied' ? { ...step, run: outcome } : step;
  }

  /**
   * The observation of a session in `record` (changed in place), added when new. Past the limit the
   * sessions that matter least go first: counted ones, then ended ones Warden decided nothing in (what
   * an agent that floods `session.ended` leaves), and only then the oldest open one.
   */
  private sessionIn(record: TrackRecord, sessionId: string): SessionObservation {
    const sessions = (record.sessions ??= []);
    const found = sessions.find((s) => s.sessionId === sessionId);
    if (found) return found;
    const session: SessionObservation = { sessionId, decided: 0, denied: 0, operatorAllowed: 0, operatorDenied: 0 };
    while (sessions.length >= this.settings.rememberedSessions) {
      const counted = sessions.findIndex((s) => s.countedBy !== undefined);
      const empty = sessions.findIndex((s) => s.ended !== undefined && s.decided === 0);
      sessions.splice(counted >= 0 ? counted : empty >= 0 ? empty : 0, 1);
    }
    sessions.push(session);
    return session;
  }

  private countRun(next: TrackRecord, outcome: RunOutcome, event: LadderEvent): LadderStep {
    const metrics = next.metrics;
    metrics.totalRuns += 1;
    if (outcome.status === 'success') metrics.successfulRuns += 1;
    metrics.falsePositives += outcome.falsePositives ?? 0;
    const missed = outcome.missedCriticalBugs ?? 0;
    metrics.missedCriticalBugs += missed;
    if (outcome.humanApproved !== undefined) {
      const alpha = this.settings.approvalAlpha;
      // Clamped: floating point must not push the average outside the contract's [0, 1].
      metrics.approvalRate = Math.min(1, Math.max(0, alpha * (outcome.humanApproved ? 1 : 0) + (1 - alpha) * metrics.approvalRate));
    }
    metrics.lastUpdated = event.at.toISOString();

    if (next.pin) {
      return { outcome: 'applied', record: next, ...(missed > 0 ? { note: `pinned by ${next.pin.by}: the missed critical bug does not demote` } : {}) };
    }
    const demotion = this.demotionAfterRun(next, missed);
    if (demotion) return this.change(next, demotion.to, demotion.cause, LADDER, demotion.reason, event);
    return this.promotionAfterRun(next, event);
  }

  /** An emergency stop (intervention.issued of type emergency_stop) demotes one level at once. */
  emergencyStop(record: TrackRecord, event: LadderEvent, detail?: string): LadderStep {
    const duplicate = this.duplicateOf(record, event);
    if (duplicate) return duplicate;
    const next = this.remember(structuredClone(record), event);
    next.emergencyStops += 1;
    const what = detail ? `Emergency stop (${detail})` : 'Emergency stop';
    if (next.pin) return { outcome: 'applied', record: next, note: `pinned by ${next.pin.by}: the emergency stop does not demote` };
    if (next.level === 0) return { outcome: 'applied', record: next, note: 'already at level 0' };
    const to = (next.level - 1) as AutomationLevel;
    return this.change(next, to, 'emergency_stop', LADDER, `${what}: demoted from ${levelLabel(next.level)} to ${levelLabel(to)}`, event);
  }

  /** An operator's `ladder.command`: pin (hold a level), unpin, or set a level the ladder then manages. */
  applyCommand(record: TrackRecord, command: LadderCommand, event: LadderEvent): LadderStep {
    const duplicate = this.duplicateOf(record, event);
    if (duplicate) return duplicate;
    const why = command.reason?.trim() ? `: ${command.reason.trim()}` : '';
    switch (command.command) {
      case 'pin': {
        if (command.level === undefined) return this.reject(record, 'missing_level', 'pin needs the level to hold');
        const next = this.remember(structuredClone(record), event);
        const repin = next.pin ? ` (was pinned by ${next.pin.by})` : '';
        next.pin = { by: command.operatorId, at: event.at.toISOString(), ...(command.reason?.trim() ? { reason: command.reason.trim() } : {}) };
        return this.change(next, command.level, 'operator_pin', command.operatorId, `Pinned by ${command.operatorId} at ${levelLabel(command.level)}${repin}${why}`, event, {
          pinChanged: true,
        });
      }
      case 'unpin': {
        const next = this.remember(structuredClone(record), event);
        if (!next.pin) return { outcome: 'applied', record: next, note: 'not pinned' };
        next.pin = null;
        return this.change(next, next.level, 'operator_unpin', command.operatorId, `Unpinned by ${command.operatorId}: the ladder manages ${levelLabel(next.level)} again${why}`, event, {
          pinChanged: true,
        });
      }
      case 'set_level': {
        if (command.level === undefined) return this.reject(record, 'missing_level', 'set_level needs the level to set');
        if (record.pin) {
          return this.reject(record, 'pinned', `pinned at ${levelLabel(record.level)} by ${record.pin.by}: unpin first, or pin another level`);
        }
        const next = this.remember(structuredClone(record), event);
        if (command.level === next.level) return { outcome: 'applied', record: next, note: `already at ${levelLabel(next.level)}` };
        return this.change(next, command.level, 'operator_set', command.operatorId, `Set to ${levelLabel(command.level)} by ${command.operatorId}${why}`, event);
      }
    }
  }

  /**
   * A run with a missed critical bug demotes at least one level; a run after which the current level's
   * requirements (other than the run count) fail demotes to the highest level that still holds.
   */
  private demotionAfterRun(record: TrackRecord, missed: number): { to: AutomationLevel; cause: LevelChangeCause; reason: string } | undefined {
    const level = record.level;
    if (level === 0) return undefined;
    const current = checkRequirements(level, record.metrics, { includeRuns: false });
    let to = current.met ? level : highestLevelStillHeld((level - 1) as AutomationLevel, record.metrics);
    if (missed > 0) to = Math.min(to, level - 1) as AutomationLevel;
    if (to === level) return undefined;
    const lost = current.met ? '' : `requirements for ${levelLabel(level)} no longer met: ${current.failures.join(', ')}`;
    const demoted = `demoted from ${levelLabel(level)} to ${levelLabel(to)}`;
    if (missed > 0) {
      const bugs = missed === 1 ? 'Missed critical bug in run' : `${missed} missed critical bugs in run`;
      return { to, cause: 'missed_critical_bug', reason: `${bugs}: ${demoted}${lost ? `; ${lost}` : ''}` };
    }
    return { to, cause: 'requirements_lost', reason: `${capitalise(lost)}: ${demoted}` };
  }

  /** Seed 002 §7.2: one level at a time, when the next level's requirements hold and level-up is allowed. */
  private promotionAfterRun(record: TrackRecord, event: LadderEvent): LadderStep {
    const level = record.level;
    if (!this.settings.allowLevelUp || level >= HIGHEST_LEVEL) return { outcome: 'applied', record };
    const to = (level + 1) as AutomationLevel;
    const check = checkRequirements(to, record.metrics);
    if (!check.met) return { outcome: 'applied', record };
    if (record.metrics.totalRuns < record.promotionBlockedUntilRun) {
      const left = record.promotionBlockedUntilRun - record.metrics.totalRuns;
      return { outcome: 'applied', record, note: `requirements for ${levelLabel(to)} met, but on probation for ${left} more run(s)` };
    }
    return this.change(record, to, 'requirements_met', LADDER, `Requirements for ${levelLabel(to)} met: ${check.findings.join(', ')}`, event);
  }

  private change(
    record: TrackRecord,
    to: AutomationLevel,
    cause: LevelChangeCause,
    changedBy: string,
    reason: string,
    event: LadderEvent,
    options: { pinChanged?: boolean } = {},
  ): LadderStep {
    const from = record.level;
    if (from === to && !options.pinChanged) return { outcome: 'applied', record };
    const at = event.at.toISOString();
    if (from !== to) {
      record.level = to;
      record.levelChangedAt = at;
    }
    // Automatic demotions start a probation; a run count earned before the fall does not buy the level back at once.
    if (changedBy === LADDER && to < from) record.promotionBlockedUntilRun = record.metrics.totalRuns + this.settings.probationRuns;
    const change: LevelChange = {
      from,
      to,
      reason: reason.length > REASON_LIMIT ? `${reason.slice(0, REASON_LIMIT - 1)}…` : reason,
      changedBy,
      cause,
      causeId: event.messageId,
      at,
      metrics: structuredClone(record.metrics),
    };
    record.recentChanges = [...record.recentChanges, change].slice(-this.settings.rememberedChanges);
    return { outcome: 'applied', record, change };
  }

  private duplicateOf(record: TrackRecord, event: LadderEvent): LadderStep | undefined {
    if (!record.recentMessageIds.includes(event.messageId)) return undefined;
    const change = record.recentChanges.find((c) => c.causeId === event.messageId);
    return { outcome: 'duplicate', record, ...(change ? { change } : {}) };
  }

  private remember(record: TrackRecord, event: LadderEvent): TrackRecord {
    record.recentMessageIds = [...record.recentMessageIds, event.messageId].slice(-this.settings.rememberedMessages);
    return record;
  }

  private reject(record: TrackRecord, rejection: CommandRejection, reason: string): LadderStep {
    return { outcome: 'rejected', record, rejection, reason };
  }
}

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
