import { createMessage, derivedMessageId, goalAfter, validateMessage, type MessageOf, type MessageType, type PayloadOf, type VerdictKind } from '@warden/contracts';
import { SessionBreakers, throttleOf, type BreakerEvent, type BreakerSettings } from '@warden/breakers';
import { emptyRecord, evaluationPublications, InterventionSession, issueOf, respondToIssue, type InterventionSettings, type IssueMessage, type PromptTemplates, type Publication } from '@warden/interventions';
import { priceOf, SessionPatterns, type PatternReport, type PatternSettings, type ProjectKnowledge } from '@warden/patterns';
import { StepReviewer, SupervisionState, type ReviewSources } from '@warden/review';
import { actionSummary } from '@warden/agent-edge';
import type { RecordedAction, RecordedSession } from '../replay/recorded-session.js';
import { RecordingClock, timeOf } from '../replay/recording-clock.js';
import { gateOutcome } from './gate-decision.js';

/** Everything Warden judges a session with, in one process: the four services' settings. */
export interface WardenSettings {
  /** The review configuration with its custom rules and knowledge files, as the reviewer reads them. */
  reviewer: Pick<ReviewSources, 'settings' | 'extraRules' | 'knowledge'> & Partial<Pick<ReviewSources, 'ruleOverrides'>> & { extraRulesSource?: string };
  breakers: BreakerSettings;
  patterns: PatternSettings;
  patternKnowledge: readonly ProjectKnowledge[];
  interventions: InterventionSettings;
  templates: PromptTemplates;
}

/** One recorded action as Warden judged it. */
export interface JudgedAction {
  index: number;
  /** The recording's own id of the action (a positional `L22.0` too): the one labels name. */
  actionId: string;
  tool: string;
  title: string;
  /** null: not reviewed (the session was stopped before it). */
  verdict: VerdictKind | null;
  /** allow: it ran (the gate's decision allowed it, after the approval it was held for); deny: Warden refused it; stopped: never proposed. */
  decision: 'allow' | 'deny' | 'stopped';
  held: boolean;
  reasons: string[];
  ruleHits: string[];
  validators: string[];
  /** Breakers open when it was reviewed, by kind. */
  openBreakers: string[];
  decidedBy: string;
  riskScore: number;
  outcome: 'success' | 'error' | 'not_run' | 'none';
}

export interface FoundPattern {
  type: string;
  severity: string;
  confidence: number;
  description: string;
  evidence: string[];
  shadow: boolean;
  /** The action after which it was reported (1-based). */
  atAction: number;
}

export interface IssuedIntervention {
  type: string;
  severity: string;
  issueType: string;
  trigger: string;
  atAction: number;
}

export interface BreakerTrip {
  breaker: string;
  reason: string;
  currentValue: number;
  threshold: number;
  mode: string;
  atAction: number;
}

/** What Warden would have done over one recorded session, judged in process. */
export interface JudgedSession {
  actions: JudgedAction[];
  patterns: FoundPattern[];
  interventions: IssuedIntervention[];
  breakerTrips: BreakerTrip[];
  /** The emergency stop, when there was one: after which action, and why. */
  stop?: { atAction: number; reason: string };
  costUsd: number;
}

export interface JudgeOptions {
  agentId: string;
  sessionId: string;
  /** What the evaluation answers when an action is held for a human (the recorded session did run it): approve lets it run. */
  approvals: 'approve' | 'reject';
}

/**
 * Runs a recorded session through Warden's judgement in one process and in a fixed order, with the same
 * domain code the services run: the reviewer reviews each action as it is proposed (seeing every event
 * the session produced before it: outcomes, patterns, breaker states), the breakers and the pattern
 * detector take the action and then its outcome, every issue reaches the intervention controller, whose
 * throttles the breakers enforce and whose emergency stop ends the session. Time is the recording's own.
 * Nothing is published and no agent's track record changes; the same recording gives the same result.
 */
export class InProcessWarden {
  constructor(private readonly settings: WardenSettings) {}

  judge(recording: RecordedSession, options: JudgeOptions): JudgedSession {
    return new SessionJudgement(this.settings, recording, options).run();
  }
}

class SessionJudgement {
  private now: number;
  private readonly clock: RecordingClock;
  private readonly supervision = new SupervisionState();
  private readonly reviewer: StepReviewer;
  private readonly breakers: SessionBreakers;
  private readonly patterns: SessionPatterns;
  private readonly interventions: InterventionSession;
  private readonly address: { agentId: string; sessionId: string };
  private readonly result: JudgedSession = { actions: [], patterns: [], interventions: [], breakerTrips: [], costUsd: 0 };
  /** The action being judged (1-based), for dating what happens. */
  private current = 0;
  /** The recording's own ids of the actions proposed under another id (positional ids), by the id they were sent under. */
  private readonly recordedIds = new Map<string, string>();
  private sequence = 0;
  /** Outcomes that come after later actions (background commands), until their time. */
  private readonly deferred: { at: number; recorded: RecordedAction; judged: JudgedAction }[] = [];

  constructor(
    private readonly settings: WardenSettings,
    private readonly recording: RecordedSession,
    private readonly options: JudgeOptions,
  ) {
    this.clock = new RecordingClock(recording);
    this.now = this.clock.declaredAt;
    this.address = { agentId: options.agentId, sessionId: options.sessionId };
    // The service forgets a session idle for an hour and rebuilds it from its messages when it acts again: here it is kept.
    this.reviewer = new StepReviewer({ ...settings.reviewer, supervision: this.supervision, clock: () => this.now, keepIdleSessions: true });
    this.breakers = SessionBreakers.open(settings.breakers, options.agentId, options.sessionId, this.now);
    this.patterns = SessionPatterns.open(settings.patterns, settings.patternKnowledge, options.agentId, options.sessionId, this.now);
    this.interventions = new InterventionSession(settings.interventions, emptyRecord(options.agentId, options.sessionId, settings.interventions.resource_throttling.default_limits));
    for (const action of recording.actions) if (action.recordedId) this.recordedIds.set(action.actionId, action.recordedId);
  }

  run(): JudgedSession {
    const declaration = this.recording.declaration;
    const started = this.message('session.started', declaration);
    this.reviewer.startSession(this.address, declaration);
    this.onBreakerEvents(this.breakers.started(started.id, this.now, declaration.phase));
    this.onPatterns(this.patterns.started(this.now, { context: declaration.context, ...(declaration.phase ? { phase: declaration.phase } : {}) }));
    this.interventions.declare(declaration.context, this.now);
    const actions = this.recording.actions;
    for (const [i, recorded] of actions.entries()) {
      // The turn that ended after the previous action: its words are held against what it did.
      const ended = actions[i - 1]?.turnEnd;
      if (ended && !this.result.stop) this.onPatterns(this.patterns.turnEnded(this.now, ended));
      this.reportDeferred(timeOf(recorded.at));
      this.current = i + 1;
      this.advance(this.clock.action(recorded));
      if (this.result.stop) {
        this.result.actions.push(this.unjudged(recorded, i));
        continue;
      }
      if (recorded.request) this.changeGoal(recorded.request);
      const judged = this.propose(recorded, i);
      this.result.actions.push(judged);
      if (judged.decision !== 'allow' || !recorded.outcome) continue;
      // A command that went to the background ends after later actions were proposed: its outcome is
      // reported when it came, as the services would have received it.
      const endedAt = timeOf(recorded.outcome.at);
      if (endedAt > timeOf(actions[i + 1]?.at)) {
        this.deferred.push({ at: endedAt, recorded, judged });
        continue;
      }
      this.advance(this.clock.outcome(recorded));
      this.reportOutcome(recorded, judged);
    }
    this.reportDeferred(Infinity);
    const last = actions.at(-1)?.turnEnd;
    if (last && !this.result.stop) this.onPatterns(this.patterns.turnEnded(this.now, last));
    return this.result;
  }

  /** Outcomes of background commands that came by `until`, in the order they came. */
  private reportDeferred(until: number): void {
    this.deferred.sort((a, b) => a.at - b.at);
    while (this.deferred.length && !(this.deferred[0]!.at > until)) {
      const { recorded, judged } = this.deferred.shift()!;
      if (this.result.stop) continue;
      this.advance(this.clock.outcome(recorded));
      this.reportOutcome(recorded, judged);
    }
  }

  private reportOutcome(recorded: RecordedAction, judged: JudgedAction): void {
    this.report(recorded);
    judged.outcome = recorded.outcome!.status;
  }

  /** Time passes: breakers whose time has come probe or time out, interventions whose observation is over are judged. */
  private advance(to: number): void {
    for (let wake = this.breakers.nextWakeAt(this.now); wake !== undefined && wake <= to; wake = this.breakers.nextWakeAt(this.now)) {
      this.now = Math.max(this.now, wake);
      this.onBreakerEvents(this.breakers.tick(this.now));
    }
    this.now = Math.max(this.now, to);
    this.publish(evaluationPublications(this.interventions.evaluateDue(this.now)));
  }

  /** The user asked for something new before this action (session.goal_changed). */
  private changeGoal(goal: string): void {
    this.reviewer.changeGoal(this.address, goal);
    this.onPatterns(this.patterns.goalChanged(this.now, goal));
    this.interventions.declare({ ...this.interventions.record.context, goal: goalAfter(this.interventions.record.context.goal, goal) }, this.now);
  }

  private propose(recorded: RecordedAction, index: number): JudgedAction {
    const payload: PayloadOf<'action.proposed'> = {
      action_id: recorded.actionId,
      kind: (recorded.kind ?? 'tool_use') as PayloadOf<'action.proposed'>['kind'],
      tool: recorded.tool,
      input: recorded.input,
      ...(recorded.description ? { description: recorded.description } : {}),
      ...(recorded.phase ? { phase: recorded.phase } : {}),
      ...(recorded.cwd ? { cwd: recorded.cwd } : {}),
      ...(recorded.turn ? { turn: recorded.turn } : {}),
    };
    const proposed = this.message('action.proposed', payload);
    // What the services would dead-letter never reaches the reviewer: the agent is told why, and it does not run.
    const valid = validateMessage(proposed);
    if (!valid.ok) return this.rejected(recorded, index, `${valid.reason}: ${valid.detail}`);
    const open = this.supervision.openBreakers(this.address.agentId, this.address.sessionId).map((b) => b.breaker);
    const { verdict } = this.reviewer.review(payload, this.address);
    this.onBreakerEvents(this.breakers.actionProposed(proposed.id, this.now, payload.phase, { action_id: payload.action_id, tool: payload.tool, kind: payload.kind, input: payload.input, ...(payload.turn ? { turn: payload.turn } : {}) }));
    this.onPatterns(this.patterns.actionProposed(this.now, payload));
    this.interventions.recordAction(payload.action_id, this.now);
    const verdictMessage = this.message('review.verdict', verdict);
    this.onPatterns(this.patterns.verdict(this.now, verdict));
    this.onIssue(verdictMessage);
    const gate = gateOutcome(verdictMessage, this.options.approvals);
    return {
      index: index + 1,
      actionId: recorded.recordedId ?? recorded.actionId,
      tool: recorded.tool,
      title: titleOf(recorded),
      verdict: verdict.verdict,
      decision: gate.ran ? 'allow' : 'deny',
      held: gate.held,
      reasons: verdict.reasons,
      ruleHits: verdict.rule_hits ?? [],
      validators: (verdict.validations ?? []).filter((v) => !v.shadow && v.result !== 'caution').map((v) => v.validator),
      openBreakers: open,
      decidedBy: verdict.decided_by ?? 'reviewer',
      riskScore: verdict.risk.score,
      outcome: recorded.outcome ? 'not_run' : 'none',
    };
  }

  private report(recorded: RecordedAction): void {
    const o = recorded.outcome!;
    const payload: PayloadOf<'action.outcome'> = {
      action_id: recorded.actionId,
      status: o.status,
      tool: recorded.tool,
      ...(o.error ? { error: { message: o.error.message.slice(0, 8000), ...(o.error.class ? { class: o.error.class } : {}) } } : {}),
      ...(o.durationMs !== undefined ? { duration_ms: o.durationMs } : {}),
      ...(o.model ? { model: o.model } : {}),
      ...(o.tokens ? { tokens: o.tokens } : {}),
      ...(o.filesTouched ? { files_touched: o.filesTouched } : {}),
      ...(o.output ? { output_excerpt: o.output.slice(0, 4000) } : {}),
      ...(o.progress ? { progress: o.progress } : {}),
      ...(recorded.phase ? { phase: recorded.phase } : {}),
    };
    const message = this.message('action.outcome', payload);
    this.reviewer.recordOutcome(this.address, payload);
    const cost = priceOf(this.settings.patterns.resource_spiral.pricing, payload.model, payload.tokens);
    if (cost !== undefined && payload.tokens && payload.model) this.result.costUsd += cost;
    // The agent's rolling day is this session's own spending: an evaluation judges each session alone.
    this.onBreakerEvents(this.breakers.outcomeReported(message.id, this.now, payload, this.result.costUsd));
    this.onPatterns(this.patterns.outcomeReported(this.now, payload, cost));
    this.publish(
      evaluationPublications(
        this.interventions.recordOutcome({
          action_id: payload.action_id,
          at: this.now,
          ok: payload.status === 'success',
          ...(payload.tokens ? { tokens: payload.tokens.prompt + payload.tokens.completion } : {}),
          ...(payload.files_touched ? { files: payload.files_touched } : {}),
        }),
      ),
    );
  }

  private onBreakerEvents(events: BreakerEvent[]): void {
    for (const event of events) {
      if (event.type === 'breaker.tripped') {
        const p = event.payload;
        this.result.breakerTrips.push({ breaker: p.breaker, reason: p.reason, currentValue: p.current_value, threshold: p.threshold, mode: p.mode ?? 'enforce', atAction: this.current });
        this.onIssue(this.message('breaker.tripped', p));
      }
    }
    // The reviewer reads what the breaker materialises after every change.
    this.supervision.applyBreaker(this.address.agentId, this.address.sessionId, this.breakers.stateRecord(this.now));
  }

  private onPatterns(reports: PatternReport[]): void {
    for (const report of reports) {
      this.result.patterns.push({
        type: report.pattern_type,
        severity: report.severity,
        confidence: report.confidence,
        description: report.description,
        evidence: report.evidence_action_ids.map((id) => this.recordedIds.get(id) ?? id),
        shadow: report.shadow,
        atAction: this.current,
      });
      const message = this.message('pattern.detected', report);
      this.reviewer.recordPattern(this.address, message.payload);
      this.onIssue(message);
    }
  }

  private onIssue(message: IssueMessage): void {
    const issue = issueOf(message);
    if (!issue) return;
    const response = respondToIssue(this.interventions, { ...issue, at: this.now }, { settings: this.settings.interventions, templates: this.settings.templates, causeId: message.id, at: this.now });
    this.publish(response.publications);
  }

  /** What the controller publishes, applied where the services would apply it. */
  private publish(publications: Publication[]): void {
    for (const p of publications) {
      if (p.type === 'intervention.issued') {
        const issued = p.payload as PayloadOf<'intervention.issued'>;
        this.result.interventions.push({ type: issued.intervention_type, severity: issued.severity, issueType: issued.trigger.issue_type, trigger: issued.trigger.kind, atAction: this.current });
        if (issued.intervention_type === 'resource_throttling') {
          const { factors, limits } = throttleOf(issued);
          this.onBreakerEvents(this.breakers.throttled(this.message('intervention.issued', issued).id, factors, limits));
        }
      }
      if (p.type === 'incident.created' && !this.result.stop) {
        const incident = p.payload as PayloadOf<'incident.created'>;
        this.result.stop = { atAction: this.current, reason: incident.summary ?? 'emergency stop' };
      }
    }
  }

  private rejected(recorded: RecordedAction, index: number, why: string): JudgedAction {
    return {
      index: index + 1,
      actionId: recorded.recordedId ?? recorded.actionId,
      tool: String(recorded.tool),
      title: titleOf(recorded),
      verdict: null,
      decision: 'deny',
      held: false,
      reasons: [`Warden rejected the action (${why})`],
      ruleHits: [],
      validators: [],
      openBreakers: [],
      decidedBy: 'rejected',
      riskScore: 0,
      outcome: recorded.outcome ? 'not_run' : 'none',
    };
  }

  private unjudged(recorded: RecordedAction, index: number): JudgedAction {
    return {
      index: index + 1,
      actionId: recorded.recordedId ?? recorded.actionId,
      tool: recorded.tool,
      title: titleOf(recorded),
      verdict: null,
      decision: 'stopped',
      held: false,
      reasons: [`Warden stopped this session after action ${this.result.stop!.atAction}: ${this.result.stop!.reason}`],
      ruleHits: [],
      validators: [],
      openBreakers: [],
      decidedBy: 'stopped',
      riskScore: 0,
      outcome: recorded.outcome ? 'not_run' : 'none',
    };
  }

  private message<T extends MessageType>(type: T, payload: PayloadOf<T>): MessageOf<T> {
    const id = derivedMessageId(type, `${this.address.sessionId}:${++this.sequence}`);
    return createMessage(type, { id, session_id: this.address.sessionId, agent_id: this.address.agentId, payload, timestamp: new Date(this.now).toISOString() });
  }
}

const titleOf = (action: RecordedAction) =>
  action.title ?? (typeof action.tool === 'string' && action.input && typeof action.input === 'object' ? actionSummary(action.tool, action.input) : `a malformed action (${JSON.stringify(action.tool)})`);
