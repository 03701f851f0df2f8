import { Injectable } from '@nestjs/common';
import { MetricsRegistry } from '@warden/observability';
import type { Tally } from '../domain/session-effects.js';

/**
 * The controller's series, for the seed's dashboard: interventions by type and outcome
 * (`sum by (intervention_type) (rate(warden_interventions_total{outcome="issued"}[5m]))`), effectiveness
 * (`avg by (intervention_type) (...)` over the histogram's sum and count), and escalations
 * (`rate(warden_intervention_escalations_total[5m])`).
 */
@Injectable()
export class InterventionMetrics {
  readonly interventions;
  readonly effectiveness;
  readonly escalations;
  readonly notifications;
  readonly sessions;
  readonly conflicts;

  constructor(metrics: MetricsRegistry) {
    this.interventions = metrics.counter({
      name: 'warden_interventions_total',
      help: 'Interventions by type and outcome: issued, suppressed_<reason>, effective, ineffective, unknown, applied, failed, stopped.',
      labelNames: ['intervention_type', 'outcome'],
    });
    this.effectiveness = metrics.histogram({
      name: 'warden_intervention_effectiveness',
      help: 'Measured effectiveness of interventions (0-1), from what the agent did next.',
      labelNames: ['intervention_type'],
      buckets: [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1],
    });
    this.escalations = metrics.counter({
      name: 'warden_intervention_escalations_total',
      help: 'Interventions chosen stronger than severity alone gave, because the issue persisted, by the type escalated to.',
      labelNames: ['intervention_type'],
    });
    this.notifications = metrics.counter({
      name: 'warden_intervention_notifications_total',
      help: 'Emergency stop notifications by notifier and result.',
      labelNames: ['notifier', 'result'],
    });
    this.sessions = metrics.gauge({ name: 'warden_intervention_sessions', help: 'Sessions this replica holds in memory.' });
    this.conflicts = metrics.counter({ name: 'warden_intervention_record_conflicts_total', help: 'Record writes refused because another replica wrote first.' });
  }

  count(tallies: readonly Tally[]): void {
    for (const tally of tallies) {
      if (tally.kind === 'intervention') this.interventions.inc({ intervention_type: tally.interventionType, outcome: tally.outcome });
      else if (tally.kind === 'escalation') this.escalations.inc({ intervention_type: tally.interventionType });
      else this.effectiveness.observe({ intervention_type: tally.interventionType }, tally.value);
    }
  }
}
