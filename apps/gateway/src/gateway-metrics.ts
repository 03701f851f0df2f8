import type { MetricsRegistry } from '@warden/observability';

const SECONDS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.5, 1, 5, 30, 60];

/** The gateway's Prometheus series: hook calls by agent, event and outcome, and how long they took. */
export class GatewayMetrics {
  readonly calls;
  readonly duration;
  readonly agents;
  readonly exports;
  readonly exportSeconds;
  readonly usageEntries;
  readonly usageRejected;

  constructor(metrics: MetricsRegistry) {
    this.calls = metrics.counter({
      name: 'warden_gateway_hook_calls_total',
      help: 'Agents\' hook calls, by agent kind (claude-code, codex, …), event (session_start, prompt, before_tool, after_tool, stop, session_end) and outcome (answered, not_recorded, unauthorized, forbidden, invalid, fail_closed).',
      labelNames: ['agent_kind', 'event', 'outcome'],
    });
    this.duration = metrics.histogram({
      name: 'warden_gateway_hook_call_seconds',
      help: 'From receiving a hook call to answering it, by agent kind and event.',
      labelNames: ['agent_kind', 'event'],
      buckets: SECONDS,
    });
    this.agents = metrics.gauge({ name: 'warden_gateway_agent_connections', help: 'Agents with an open connection through this replica.' });
    this.exports = metrics.counter({
      name: 'warden_gateway_otlp_exports_total',
      help: "Agents' telemetry exports (OTLP/HTTP), by signal (metrics, logs), encoding (json, protobuf) and outcome (accepted, partial, invalid, unauthorized, forbidden, unavailable).",
      labelNames: ['signal', 'encoding', 'outcome'],
    });
    this.exportSeconds = metrics.histogram({ name: 'warden_gateway_otlp_export_seconds', help: 'From receiving a telemetry export to answering it, by signal.', labelNames: ['signal'], buckets: SECONDS });
    this.usageEntries = metrics.counter({ name: 'warden_gateway_usage_entries_total', help: 'Model usage entries read from agents\' telemetry and reported to the breaker, by agent kind and source.', labelNames: ['agent_kind', 'source'] });
    this.usageRejected = metrics.counter({ name: 'warden_gateway_usage_rejected_total', help: 'Usage points of agents\' telemetry Warden could not charge (no session id, cumulative sums, ...), by signal.', labelNames: ['signal'] });
  }
}
