import Type, { type Static } from 'typebox';
import { Compile } from 'typebox/compile';
import type { AutomationLevel, PayloadOf } from '@warden/contracts';

const Level = Type.Integer({ minimum: 0, maximum: 4 });
const Count = Type.Integer({ minimum: 0 });
const Instant = Type.String({ format: 'date-time' });

/** Seed 002 §7.2 `LevelMetrics`: what an agent's runs add up to. */
export const LevelMetricsSchema = Type.Object({
  totalRuns: Count,
  successfulRuns: Count,
  falsePositives: Count,
  missedCriticalBugs: Count,
  /** Exponential moving average of human approvals, starting at 0 (the seed's choice). */
  approvalRate: Type.Number({ minimum: 0, maximum: 1 }),
  lastUpdated: Instant,
});
export type LevelMetrics = Static<typeof LevelMetricsSchema>;

export const LEVEL_CHANGE_CAUSES = [
  'requirements_met',
  'requirements_lost',
  'missed_critical_bug',
  'emergency_stop',
  'operator_pin',
  'operator_unpin',
  'operator_set',
] as const;
export type LevelChangeCause = (typeof LEVEL_CHANGE_CAUSES)[number];

/** One change of an agent's level or pin, with the reason an operator reads in the audit trail. */
export const LevelChangeSchema = Type.Object({
  from: Level,
  to: Level,
  reason: Type.String({ maxLength: 2000 }),
  /** `ladder` for changes the track record earned, or the operator's id. */
  changedBy: Type.String({ minLength: 1, maxLength: 256 }),
  cause: Type.Enum([...LEVEL_CHANGE_CAUSES]),
  /** Id of the message that caused it: a redelivery of that message publishes this change again. */
  causeId: Type.String(),
  at: Instant,
  /** The metrics at the time of the change, so that publishing it again yields the same event. */
  metrics: LevelMetricsSchema,
});
export type LevelChange = Static<typeof LevelChangeSchema>;

export const PinSchema = Type.Object({
  by: Type.String({ minLength: 1, maxLength: 256 }),
  reason: Type.Optional(Type.String({ maxLength: 2000 })),
  at: Instant,
});
export type Pin = Static<typeof PinSchema>;

/**
 * What Warden itself saw of one session of the agent: the gate's decisions on its actions (who decided,
 * allow or deny) and, once the agent said so, that the session ended. A run is counted from this, never
 * from what the agent reports about itself (`status`, `human_approved` in `session.ended`).
 */
export const SessionObservationSchema = Type.Object({
  sessionId: Type.String({ minLength: 1 }),
  /**
   * Decisions the gate published for the session's actions that a run is counted from: the first, every denial,
   * every operator's, and those after the session ended. Further ones the reviewer let through are not counted.
   */
  decided: Count,
  /** Of those, denied (by the reviewer, an operator, a timeout or policy). */
  denied: Count,
  /** Decisions an operator made at the gate: allowed, and denied. */
  operatorAllowed: Count,
  operatorDenied: Count,
  /** The agent's `session.ended`, with only what it may say about itself: a worse status, its own faults. */
  ended: Type.Optional(
    Type.Object({
      status: Type.Enum(['success', 'failure', 'aborted']),
      falsePositives: Type.Optional(Count),
      missedCriticalBugs: Type.Optional(Count),
    }),
  ),
  /** Id of the message that completed the run (the end, or the first decision after it): the run is counted once. */
  countedBy: Type.Optional(Type.String()),
});
export type SessionObservation = Static<typeof SessionObservationSchema>;

/**
 * An agent's track record: the value of `warden_ladder_records.<agent_id>`. Everything the ladder knows
 * about an agent is here, so that any replica (or a restarted one) carries on where another stopped.
 */
export const TrackRecordSchema = Type.Object({
  agentId: Type.String({ minLength: 1 }),
  level: Level,
  metrics: LevelMetricsSchema,
  /** Set by an operator: the level holds, no promotion and no demotion until unpinned. */
  pin: Type.Union([PinSchema, Type.Null()]),
  emergencyStops: Count,
  /** Probation after an automatic demotion: no promotion before totalRuns reaches this. */
  promotionBlockedUntilRun: Count,
  levelChangedAt: Instant,
  createdAt: Instant,
  /** Ids of the last processed messages, oldest first (bounded). */
  recentMessageIds: Type.Array(Type.String()),
  /** The last level changes, oldest first (bounded). */
  recentChanges: Type.Array(LevelChangeSchema),
  /** What Warden saw of the agent's last sessions, oldest first (bounded); absent in records written before. */
  sessions: Type.Optional(Type.Array(SessionObservationSchema)),
});
export type TrackRecord = Static<typeof TrackRecordSchema> & { level: AutomationLevel };

const trackRecordValidator = Compile(TrackRecordSchema);

export class CorruptTrackRecordError extends Error {
  constructor(agentId: string, detail: string) {
    super(`the track record of ${agentId} is not a valid record: ${detail}`);
    this.name = 'CorruptTrackRecordError';
  }
}

export function newTrackRecord(agentId: string, level: AutomationLevel, at: Date): TrackRecord {
  const now = at.toISOString();
  return {
    agentId,
    level,
    metrics: { totalRuns: 0, successfulRuns: 0, falsePositives: 0, missedCriticalBugs: 0, approvalRate: 0, lastUpdated: now },
    pin: null,
    emergencyStops: 0,
    promotionBlockedUntilRun: 0,
    levelChangedAt: now,
    createdAt: now,
    recentMessageIds: [],
    recentChanges: [],
  };
}

/** Reads a stored record; a value that is not one throws, since only the ladder writes the bucket. */
export function parseTrackRecord(agentId: string, text: string): TrackRecord {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new CorruptTrackRecordError(agentId, (error as Error).message);
  }
  if (!trackRecordValidator.Check(value)) {
    const first = trackRecordValidator.Errors(value)[0];
    throw new CorruptTrackRecordError(agentId, first ? `${first.instancePath || '/'} ${first.message}` : 'schema mismatch');
  }
  return value as TrackRecord;
}

export function falsePositiveRate(metrics: Pick<LevelMetrics, 'falsePositives' | 'totalRuns'>): number {
  return metrics.totalRuns === 0 ? 0 : metrics.falsePositives / metrics.totalRuns;
}

/** The metrics as the contracts carry them (`ladder.metrics_updated`, `ladder.level_changed`). */
export function contractMetrics(metrics: LevelMetrics): PayloadOf<'ladder.metrics_updated'>['metrics'] {
  return {
    total_runs: metrics.totalRuns,
    successful_runs: metrics.successfulRuns,
    false_positives: metrics.falsePositives,
    missed_critical_bugs: metrics.missedCriticalBugs,
    approval_rate: metrics.approvalRate,
  };
}
