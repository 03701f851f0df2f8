import { Injectable } from '@nestjs/common';
import { MetricsRegistry } from '@warden/observability';
import type { BreakerEvent } from '@warden/breakers';

/** The breaker's series: trips, warnings, transitions, cost by model, accounting errors, and evaluation time. */
@Injectable()
export class BreakerMetrics {
  private readonly trips;
  private readonly warnings;
  private readonly transitions;
  private readonly cost;
  private readonly errors;
  private readonly commands;
  readonly evaluation;
  readonly handling;
  readonly sessions;
  readonly openSessions;
  readonly conflicts;

  constructor(metrics: MetricsRegistry) {
    this.trips = metrics.counter({ name: 'warden_breaker_trips_total', help: 'Breakers that opened, by breaker, reason and mode.', labelNames: ['breaker', 'reason', 'mode'] });
    this.warnings = metrics.counter({ name: 'warden_breaker_warnings_total', help: 'Warnings at the warning fraction of a threshold, by breaker and reason.', labelNames: ['breaker', 'reason'] });
    this.transitions = metrics.counter({
      name: 'warden_breaker_transitions_total',
      help: 'Breaker state changes, by breaker, from, to and cause.',
      labelNames: ['breaker', 'from', 'to', 'cause'],
    });
    this.cost = metrics.counter({ name: 'warden_breaker_cost_usd_total', help: 'Cost of model calls reported in outcomes, in USD, by model.', labelNames: ['model'] });
    this.errors = metrics.counter({ name: 'warden_breaker_accounting_errors_total', help: 'Events the breaker could not account for (unknown model, tokens without a model).', labelNames: ['code'] });
    this.commands = metrics.counter({ name: 'warden_breaker_commands_total', help: 'Operator commands applied, by command.', labelNames: ['command'] });
    this.evaluation = metrics.histogram({
      name: 'warden_breaker_evaluation_seconds',
      help: 'Time to evaluate one event against all breakers of its session, in process.',
      labelNames: ['event'],
      buckets: [0.000005, 0.00001, 0.000025, 0.00005, 0.0001, 0.00025, 0.0005, 0.001, 0.005],
    });
    this.handling = metrics.histogram({
      name: 'warden_breaker_event_seconds',
      help: 'Time to handle one event end to end: evaluate, publish, store the ledger and the state.',
      labelNames: ['event'],
      buckets: [0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1],
    });
    this.sessions = metrics.gauge({ name: 'warden_breaker_sessions', help: 'Sessions this replica is watching.' });
    this.openSessions = metrics.gauge({ name: 'warden_breaker_open_sessions', help: 'Sessions on this replica with an enforced breaker open.' });
    this.conflicts = metrics.counter({ name: 'warden_breaker_ledger_conflicts_total', help: 'Ledger writes refused because another replica wrote first.' });
  }

  record(events: readonly BreakerEvent[]): void {
    for (const event of events) {
      switch (event.type) {
        case 'breaker.tripped':
          this.trips.inc({ breaker: event.payload.breaker, reason: event.payload.reason, mode: event.payload.mode ?? 'enforce' });
          break;
        case 'breaker.warning':
          this.warnings.inc({ breaker: event.payload.breaker, reason: event.payload.reason });
          break;
        case 'breaker.state_changed':
          this.transitions.inc({ breaker: event.payload.breaker, from: event.payload.from, to: event.payload.to, cause: event.payload.cause });
          break;
        case 'breaker.cost_recorded':
          this.cost.inc({ model: event.payload.model }, event.payload.cost_usd);
          break;
        case 'breaker.error':
          this.errors.inc({ code: event.payload.code });
          break;
        case 'breaker.command_applied':
          this.commands.inc({ command: event.payload.command });
          break;
      }
    }
  }
}
