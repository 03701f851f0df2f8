import type { MetricsRegistry } from '@warden/observability';
import type { HashedContent } from '../domain/event-hash.js';

/** Intervention ids remembered to label their evaluations with the intervention's type. */
const REMEMBERED_INTERVENTIONS = 10_000;

type Payload = Record<string, unknown>;
const str = (v: unknown, fallback = 'unknown'): string => (typeof v === 'string' && v ? v.slice(0, 64) : fallback);
const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);

/**
 * The suite-level series, derived from the events the audit stores: one place sees every decision,
 * intervention, trip and gate answer of all replicas of all services. Each event is counted once, after
 * it was newly inserted (a redelivered duplicate is not counted again). Labels are bounded enums.
 */
export class SuiteMetrics {
  private readonly interventionTypes = new Map<string, string>();
  private readonly decisions;
  private readonly reviewTime;
  private readonly patterns;
  private readonly interventions;
  private readonly escalations;
  private readonly incidents;
  private readonly trips;
  private readonly breakerTransitions;
  private readonly gateRequests;
  private readonly gateResponses;
  private readonly gateResponseTime;
  private readonly hitlCommands;
  private readonly cost;
  private readonly tokens;
  private readonly deadLetters;
  private readonly stored;
  private readonly lag;

  constructor(metrics: MetricsRegistry) {
    this.decisions = metrics.counter({ name: 'warden_suite_decisions_total', help: 'Final decisions sent to agents, by decision, verdict and who decided.', labelNames: ['decision', 'verdict', 'decided_by'] });
    this.reviewTime = metrics.histogram({ name: 'warden_suite_review_seconds', help: 'Review time the reviewer reported per verdict.', labelNames: ['verdict'] });
    this.patterns = metrics.counter({ name: 'warden_suite_patterns_total', help: 'Patterns detected, by type and severity.', labelNames: ['pattern_type', 'severity'] });
    this.interventions = metrics.counter({
      name: 'warden_suite_interventions_total',
      help: 'Interventions by type and outcome: issued when chosen, then effective, ineffective or unknown when evaluated.',
      labelNames: ['intervention_type', 'outcome'],
    });
    this.escalations = metrics.counter({ name: 'warden_suite_escalations_total', help: 'Escalations: interventions above level 0 and gate requests escalated on timeout.', labelNames: ['source'] });
    this.incidents = metrics.counter({ name: 'warden_suite_incidents_total', help: 'Incident reports (emergency stops), by severity.', labelNames: ['severity'] });
    this.trips = metrics.counter({ name: 'warden_suite_breaker_trips_total', help: 'Breaker trips, by breaker.', labelNames: ['breaker'] });
    this.breakerTransitions = metrics.counter({ name: 'warden_suite_breaker_transitions_total', help: 'Breaker state changes, by breaker and new state.', labelNames: ['breaker', 'to'] });
    this.gateRequests = metrics.counter({ name: 'warden_suite_gate_requests_total', help: 'Human gate approval requests, by gate.', labelNames: ['gate'] });
    this.gateResponses = metrics.counter({ name: 'warden_suite_gate_responses_total', help: 'Answers to gate requests, by gate and outcome.', labelNames: ['gate', 'outcome'] });
    this.gateResponseTime = metrics.histogram({
      name: 'warden_suite_gate_response_seconds',
      help: 'Time from a gate request to its answer.',
      labelNames: ['gate'],
      buckets: [1, 5, 15, 30, 60, 120, 300, 600, 1800, 3600, 14_400],
    });
    this.hitlCommands = metrics.counter({ name: 'warden_suite_hitl_commands_total', help: 'HITL commands applied (pause, unpause, rewrite, inject).', labelNames: ['command_type'] });
    this.cost = metrics.counter({ name: 'warden_suite_cost_usd_total', help: 'Model spending in USD, by model.', labelNames: ['model'] });
    this.tokens = metrics.counter({ name: 'warden_suite_tokens_total', help: 'Model tokens, by model and kind (prompt, completion).', labelNames: ['model', 'kind'] });
    this.deadLetters = metrics.counter({ name: 'warden_suite_dead_letters_total', help: 'Messages dead-lettered by any service, by service and reason.', labelNames: ['origin', 'reason'] });
    this.stored = metrics.counter({ name: 'warden_audit_events_stored_total', help: 'Events committed to PostgreSQL (first time only), by channel.', labelNames: ['channel'] });
    this.lag = metrics.histogram({
      name: 'warden_audit_ingest_lag_seconds',
      help: 'Time from an event being published to JetStream to it being committed.',
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300],
    });
  }

  /** Counts one newly stored event; `publishedAtMs` is when JetStream stored the message. */
  observe(row: Pick<HashedContent, 'channel' | 'type' | 'payload'>, publishedAtMs: number, now = Date.now()): void {
    this.stored.inc({ channel: row.channel });
    this.lag.observe(Math.max(0, (now - publishedAtMs) / 1000));
    const p = row.payload as Payload;
    switch (row.type) {
      case 'decision.made':
        this.decisions.inc({ decision: str(p.decision), verdict: str(p.verdict), decided_by: str(p.decided_by) });
        break;
      case 'review.verdict': {
        const ms = num(p.review_ms);
        if (ms !== null) this.reviewTime.observe({ verdict: str(p.verdict) }, ms / 1000);
        break;
      }
      case 'pattern.detected':
        this.patterns.inc({ pattern_type: str(p.pattern_type), severity: str(p.severity) });
        break;
      case 'intervention.issued': {
        const type = str(p.intervention_type);
        this.remember(str(p.intervention_id, ''), type);
        this.interventions.inc({ intervention_type: type, outcome: 'issued' });
        if ((num(p.escalation_level) ?? 0) > 0) this.escalations.inc({ source: 'intervention' });
        break;
      }
      case 'intervention.evaluated':
        this.interventions.inc({ intervention_type: this.interventionTypes.get(str(p.intervention_id, '')) ?? 'unknown', outcome: str(p.outcome) });
        break;
      case 'incident.created':
        this.incidents.inc({ severity: str(p.severity) });
        break;
      case 'breaker.tripped':
        this.trips.inc({ breaker: str(p.breaker) });
        break;
      case 'breaker.state_changed':
        this.breakerTransitions.inc({ breaker: str(p.breaker), to: str(p.to) });
        break;
      case 'breaker.cost_recorded': {
        const model = str(p.model);
        this.cost.inc({ model }, num(p.cost_usd) ?? 0);
        this.tokens.inc({ model, kind: 'prompt' }, num(p.prompt_tokens) ?? 0);
        this.tokens.inc({ model, kind: 'completion' }, num(p.completion_tokens) ?? 0);
        break;
      }
      case 'gate.requested':
        this.gateRequests.inc({ gate: str(p.gate_id) });
        break;
      case 'gate.responded': {
        const outcome = str(p.outcome, p.approved === true ? 'approved' : 'rejected');
        this.gateResponses.inc({ gate: str(p.gate_id), outcome });
        const ms = num(p.response_ms);
        if (ms !== null) this.gateResponseTime.observe({ gate: str(p.gate_id) }, ms / 1000);
        break;
      }
      case 'gate.escalated':
        this.escalations.inc({ source: 'gate' });
        break;
      case 'hitl.intervention_recorded':
        this.hitlCommands.inc({ command_type: str(p.command_type) });
        break;
      case 'deadletter.recorded':
        this.deadLetters.inc({ origin: str(p.service), reason: str(p.reason) });
        break;
    }
  }

  private remember(id: string, type: string): void {
    if (!id) return;
    if (this.interventionTypes.size >= REMEMBERED_INTERVENTIONS) this.interventionTypes.delete(this.interventionTypes.keys().next().value!);
    this.interventionTypes.set(id, type);
  }
}
