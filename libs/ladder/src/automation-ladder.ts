import type { AutomationLevel } from '@warden/contracts';
import { DEFAULT_LADDER_SETTINGS, type LadderSettings } from './ladder-settings.js';
import { checkRequirements, HIGHEST_LEVEL, highestLevelStillHeld, levelLabel } from './level-requirements.js';
import { newTrackRecord, type LevelChange, type LevelChangeCause, type TrackRecord } from './track-record.js';

/** Seed 002 §7.2 `RunOutcome`, from `session.ended`. */
export interface RunOutcome {
  status: 'success' | 'failure' | 'aborted';
  falsePositives?: number;
  missedCriticalBugs?: number;
  humanApproved?: boolean;
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
  /** The message changed the record; `change` when the level or the pin changed, `note` when something was held back. */
  | { outcome: 'applied'; record: TrackRecord; change?: LevelChange; note?: string }
  /** The message was handled before; `change` is what that first handling changed, to be published again. */
  | { outcome: 'duplicate'; record: TrackRecord; change?: LevelChange }
  /** The record is unchanged and the reason says why. */
  | { outcome: 'rejected'; record: TrackRecord; rejection: CommandRejection; reason: string };

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

  /** Seed 002 §7.2 `recordRun`, then the level transition: a demotion first, otherwise a promotion. */
  recordRun(record: TrackRecord, outcome: RunOutcome, event: LadderEvent): LadderStep {
    const duplicate = this.duplicateOf(record, event);
    if (duplicate) return duplicate;
    const next = this.remember(structuredClone(record), event);
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
