import { SEVERITIES, type InterventionType } from '@warden/contracts';
import type { Issue } from './issue.js';
import { PROGRESSION, type InterventionSettings, type StrategyType } from './intervention-settings.js';
import { atRank, rank, selectBySeverityAndEscalation, severityScore, stronger } from './severity.js';
import { nextProgressive, selectPatternSpecific } from './strategies.js';
import {
  pushBounded,
  RECENT_ACTIONS,
  RECENT_ISSUES,
  RECENT_OUTCOMES,
  REMEMBERED_FILES,
  REMEMBERED_MESSAGES,
  type CheckpointEntry,
  type DeclaredContext,
  type Evaluation,
  type InterventionEntry,
  type SessionRecord,
} from './session-record.js';

/** Why no intervention was issued for an issue. */
export type SkipReason = 'disabled' | 'stopped' | 'ended' | 'cooldown' | 'max_interventions';

export interface Selection {
  type: InterventionType;
  strategy: StrategyType;
  severity_score: number;
  escalation_level: number;
  /** Stronger than severity alone would have chosen, because the issue persisted. */
  escalated: boolean;
  previous?: InterventionEntry;
  /** strategy custom: the handler that chose it. */
  handler?: string;
}

export type Plan = { skip: SkipReason; selection?: Selection } | { skip?: undefined; selection: Selection };

/** An intervention whose effectiveness was just settled. */
export interface Evaluated {
  intervention: InterventionEntry;
  evaluation: Evaluation;
}


/** How far a session message's time may lie from when it was stored (the pattern detector's default too). */
export const MAX_CLOCK_SKEW_MS = 5_000;

/**
 * One session as the intervention controller sees it (seed 000's controller state): the interventions
 * issued and how well they worked, the issues reported, the checkpoints saved, and the recent actions
 * and outcomes. Plain data in, decisions out; the service stores the record and publishes.
 */
export class InterventionSession {
  constructor(
    private readonly settings: InterventionSettings,
    readonly record: SessionRecord,
  ) {}

  get agentId(): string {
    return this.record.agent_id;
  }

  get sessionId(): string {
    return this.record.session_id;
  }

  hasApplied(messageId: string): boolean {
    return this.record.processed.includes(messageId);
  }

  markApplied(messageId: string): void {
    pushBounded(this.record.processed, messageId, REMEMBERED_MESSAGES);
  }

  /**
   * A message of the session carried time `carried` (the agent's clock, or a replayed recording's; at most
   * MAX_CLOCK_SKEW_MS after `storedAt`, when it was stored). The session's time moves to it, never back,
   * and is returned: what the message does is dated then, as `warden eval` dates it on the recording's
   * clock. Only a session declared a replay keeps a time further back than MAX_CLOCK_SKEW_MS: a live agent
   * that stamped old times would hold its own interventions in their cool-down.
   */
  observe(carried: number, storedAt: number, replay = this.record.replay === true): number {
    const at = replay ? carried : Math.max(carried, storedAt - MAX_CLOCK_SKEW_MS);
    const now = Math.max(at, this.record.clock?.at ?? at);
    this.record.clock = { at: now, read_at: storedAt };
    return now;
  }

  /**
   * The session's time when the controller's clock reads `now`: the last time its messages carried, moved
   * on by what passed since. A live agent's clock is the controller's; a replay's is its recording's.
   */
  timeAt(now: number): number {
    const clock = this.record.clock;
    return clock ? clock.at + Math.max(0, now - clock.read_at) : now;
  }

  declare(context: DeclaredContext, at: number): void {
    this.record.context = { ...context };
    this.record.started_at ??= at;
  }

  end(): void {
    this.record.ended = true;
  }

  recordAction(actionId: string, at: number): void {
    this.record.totals.actions++;
    pushBounded(this.record.actions, { id: actionId, at }, RECENT_ACTIONS);
  }

  /** An outcome: counted for the checkpoints' safety and for the interventions awaiting their verdict. */
  recordOutcome(outcome: { action_id: string; at: number; ok: boolean; tokens?: number; files?: string[] }): Evaluated[] {
    const { totals } = this.record;
    if (!outcome.ok) totals.errors++;
    totals.tokens += outcome.tokens ?? 0;
    for (const file of outcome.files ?? []) if (!totals.files_touched.includes(file)) pushBounded(totals.files_touched, file, REMEMBERED_FILES);
    pushBounded(this.record.outcomes, { action_id: outcome.action_id, at: outcome.at, ok: outcome.ok }, RECENT_OUTCOMES);
    const settled: Evaluated[] = [];
    for (const entry of this.pending()) {
      if (outcome.at < entry.at) continue;
      if (outcome.ok) entry.observed.successes++;
      else entry.observed.failures++;
      if (entry.observed.successes + entry.observed.failures >= this.settings.strategy.effectiveness_window_actions) {
        settled.push(this.settle(entry, 'outcomes'));
      }
    }
    return settled;
  }

  recordCheckpoint(checkpoint: CheckpointEntry): void {
    const { checkpoints } = this.record;
    if (checkpoints.some((c) => c.id === checkpoint.id)) return;
    checkpoints.push(checkpoint);
    checkpoints.sort((a, b) => a.at - b.at);
    // Kept for the retention period (measured from the newest), and never more than the rollback could use.
    const horizon = checkpoint.at - this.settings.checkpoint_rollback.checkpoint_retention_minutes * 60_000;
    this.record.checkpoints = checkpoints.filter((c) => c.at >= horizon).slice(-Math.max(this.settings.checkpoint_rollback.max_rollback_depth, 10));
  }

  /** The agent applied (or could not apply) a control message. A failure makes its intervention ineffective. */
  acknowledge(controlId: string, status: 'applied' | 'failed' | 'stopped', at: number, restoredFiles?: string[]): { entry?: InterventionEntry; evaluated?: Evaluated } {
    const entry = this.record.interventions.find((i) => i.control_id === controlId);
    if (!entry) return {};
    entry.ack = { status, at, ...(restoredFiles ? { restored_files: restoredFiles } : {}) };
    if (status === 'stopped' && this.record.stopped?.control_id === controlId) this.record.stopped.confirmed_at = at;
    if (status === 'failed' && !entry.evaluation) return { entry, evaluated: this.settle(entry, 'failed_ack') };
    return { entry };
  }

  /**
   * Interventions whose observation time (escalation_delay_seconds) is over: each is judged on what
   * was seen, or `unknown` when the agent did nothing since.
   */
  evaluateDue(now: number): Evaluated[] {
    const delay = this.settings.strategy.escalation_delay_seconds * 1000;
    return this.pending()
      .filter((entry) => now - entry.at >= delay)
      .map((entry) => this.settle(entry, entry.observed.successes + entry.observed.failures > 0 ? 'outcomes' : 'no_activity'));
  }

  /** When the next pending intervention is due for judgement, if any. */
  nextEvaluationAt(): number | undefined {
    const pending = this.pending();
    if (!pending.length) return undefined;
    return Math.min(...pending.map((e) => e.at)) + this.settings.strategy.escalation_delay_seconds * 1000;
  }

  /**
   * Records the issue and chooses what to do about it (seed 000's select_intervention and
   * maybe_escalate). The issue coming back is evidence that the interventions still waiting for their
   * verdict on it did not work: they are settled as ineffective first (returned in `evaluated`).
   */
  consider(issue: Issue, now: number, custom?: { type: InterventionType; handler: string }): { plan: Plan; evaluated: Evaluated[] } {
    const evaluated = this.pending()
      .filter((entry) => entry.issue_type === issue.type && issue.at >= entry.at)
      .map((entry) => this.settle(entry, 'recurrence'));
    const windowStart = now - this.settings.history_window_seconds * 1000;
    const similarBefore = this.record.issues.filter((i) => i.type === issue.type && i.at >= windowStart).length;
    pushBounded(this.record.issues, { type: issue.type, at: issue.at, message_id: issue.trigger.message_id, description: issue.description }, RECENT_ISSUES);

    if (this.record.ended) return { plan: { skip: 'ended' }, evaluated };
    if (this.record.stopped) return { plan: { skip: 'stopped' }, evaluated };
    if (!this.settings.enabled) return { plan: { skip: 'disabled' }, evaluated };

    const selection = custom ? this.custom(issue, windowStart, custom) : this.select(issue, windowStart, similarBefore);
    const last = this.record.interventions.at(-1);
    // An emergency stop is never held back: neither by the cooldown nor by the cap.
    if (selection.type !== 'emergency_stop') {
      if (this.record.interventions.length >= this.settings.max_interventions_per_execution) return { plan: { skip: 'max_interventions', selection }, evaluated };
      if (last && now - last.at < this.settings.intervention_cooldown_seconds * 1000) return { plan: { skip: 'cooldown', selection }, evaluated };
    }
    return { plan: { selection }, evaluated };
  }

  /** Records an intervention that was issued. */
  issued(entry: Omit<InterventionEntry, 'observed'>): InterventionEntry {
    const stored: InterventionEntry = { ...entry, observed: { successes: 0, failures: 0 } };
    this.record.interventions.push(stored);
    return stored;
  }

  stop(at: number, incidentId: string, controlId: string): void {
    this.record.stopped = { at, incident_id: incidentId, control_id: controlId };
  }

  private select(issue: Issue, windowStart: number, similarBefore: number): Selection {
    const { strategy } = this.settings;
    const score = severityScore(issue);
    const onIssue = this.record.interventions.filter((i) => i.issue_type === issue.type && i.at >= windowStart);
    const previous = onIssue.at(-1);
    const escalationLevel = onIssue.filter((i) => i.evaluation?.outcome !== 'effective').length;
    const bySeverity = selectBySeverityAndEscalation(score, 0, strategy.escalation_weight);
    let type: InterventionType;
    const used: StrategyType = strategy.type === 'pattern_specific' ? 'pattern_specific' : 'progressive';
    if (used === 'pattern_specific') {
      type = selectPatternSpecific(issue.type, issue.severity);
    } else {
      type = selectBySeverityAndEscalation(score, escalationLevel, strategy.escalation_weight);
      if (previous) {
        // The previous intervention's measured effect moves the next one a step (never below severity alone).
        const effectiveness = previous.evaluation?.effectiveness ?? 0;
        const next = nextProgressive(previous.type, effectiveness, strategy.effectiveness_threshold);
        type = effectiveness < strategy.effectiveness_threshold ? stronger(type, next) : stronger(bySeverity, next);
      }
    }
    // The seed's maybe_escalate: the same issue reported twice before and still here goes past the last step.
    if (previous && similarBefore >= 2 && rank(type) <= rank(previous.type)) type = atRank(rank(previous.type) + 1);
    type = this.available(type, issue);
    return {
      type,
      strategy: used,
      severity_score: score,
      escalation_level: escalationLevel,
      escalated: rank(type) > rank(used === 'pattern_specific' ? selectPatternSpecific(issue.type, issue.severity) : bySeverity),
      ...(previous ? { previous } : {}),
    };
  }

  /** A registered handler's choice, taken as it is (an enabled flag still applies). */
  private custom(issue: Issue, windowStart: number, custom: { type: InterventionType; handler: string }): Selection {
    const onIssue = this.record.interventions.filter((i) => i.issue_type === issue.type && i.at >= windowStart);
    const previous = onIssue.at(-1);
    return {
      type: this.available(custom.type, issue),
      strategy: 'custom',
      severity_score: severityScore(issue),
      escalation_level: onIssue.filter((i) => i.evaluation?.outcome !== 'effective').length,
      escalated: false,
      handler: custom.handler,
      ...(previous ? { previous } : {}),
    };
  }

  /**
   * The chosen step, or the next stronger one that is enabled and not used up (the next milder one at the
   * top). An emergency stop is usable only for an issue at least as severe as emergency_stop.min_severity.
   */
  private available(type: InterventionType, issue: Issue): InterventionType {
    const usable = (t: InterventionType) =>
      this.settings[t].enabled &&
      (t !== 'emergency_stop' || SEVERITIES.indexOf(issue.severity) >= SEVERITIES.indexOf(this.settings.emergency_stop.min_severity)) &&
      !(t === 'soft_correction' && this.record.interventions.filter((i) => i.type === 'soft_correction').length >= this.settings.soft_correction.max_attempts);
    for (let r = rank(type); r < PROGRESSION.length; r++) if (usable(atRank(r))) return atRank(r);
    for (let r = rank(type) - 1; r >= 0; r--) if (usable(atRank(r))) return atRank(r);
    return type;
  }

  private pending(): InterventionEntry[] {
    return this.record.interventions.filter((i) => !i.evaluation && i.type !== 'emergency_stop');
  }

  private settle(entry: InterventionEntry, basis: Evaluation['basis']): Evaluated {
    const { successes, failures } = entry.observed;
    const threshold = this.settings.strategy.effectiveness_threshold;
    let evaluation: Evaluation;
    if (basis === 'recurrence' || basis === 'failed_ack') {
      evaluation = { outcome: 'ineffective', effectiveness: 0, next_step: 'escalate', basis };
    } else if (basis === 'no_activity') {
      evaluation = { outcome: 'unknown', effectiveness: 0.5, next_step: 'none', basis };
    } else {
      const effectiveness = successes / (successes + failures);
      const effective = effectiveness >= threshold;
      evaluation = { outcome: effective ? 'effective' : 'ineffective', effectiveness, next_step: effective ? 'de_escalate' : 'escalate', basis };
    }
    entry.evaluation = evaluation;
    return { intervention: entry, evaluation };
  }
}
