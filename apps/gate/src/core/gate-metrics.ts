import type { MetricsRegistry } from '@warden/observability';

const RESPONSE_BUCKETS = [1, 5, 15, 60, 300, 900, 3600, 4 * 3600, 12 * 3600, 24 * 3600];
const FLUSH_BUCKETS = [0.001, 0.005, 0.025, 0.1, 0.25, 1, 2.5, 10, 30, 120];

/** The gate's Prometheus series (besides the transport's): pauses, buffers, flushes, commands, gate requests. */
export class GateMetrics {
  readonly decisions;
  readonly pauses;
  readonly buffered;
  readonly bufferedTotal;
  readonly flushDuration;
  readonly flushed;
  readonly commands;
  readonly requests;
  readonly responseTime;

  constructor(metrics: MetricsRegistry) {
    this.decisions = metrics.counter({
      name: 'warden_decisions_total',
      help: 'Decisions sent to agents, by decision and the verdict behind it.',
      labelNames: ['decision', 'verdict'],
    });
    this.pauses = metrics.counter({
      name: 'warden_gate_pauses_total',
      help: 'Sessions paused, by trigger: operator, hitl_required_flag, require_approval, gate.',
      labelNames: ['trigger'],
    });
    this.buffered = metrics.gauge({
      name: 'warden_gate_buffered_messages',
      help: 'Messages held in the buffers of paused sessions this replica owns.',
    });
    this.bufferedTotal = metrics.counter({
      name: 'warden_gate_buffered_messages_total',
      help: 'Messages buffered because their session was paused, by kind (decision, inject).',
      labelNames: ['kind'],
    });
    this.flushDuration = metrics.histogram({
      name: 'warden_gate_flush_duration_seconds',
      help: 'Time to flush the buffer of a session on unpause.',
      buckets: FLUSH_BUCKETS,
    });
    this.flushed = metrics.counter({
      name: 'warden_gate_flushed_messages_total',
      help: 'Messages sent by flushes, rejection prompts included.',
    });
    this.commands = metrics.counter({
      name: 'warden_gate_commands_total',
      help: 'HITL commands processed by the owner of their session, by type and result (ok, or the error reason).',
      labelNames: ['command', 'result'],
    });
    this.requests = metrics.counter({
      name: 'warden_gate_requests_total',
      help: 'Human gate requests by gate and outcome: requested, approved, approved_with_conditions, rejected, timed_out, escalated.',
      labelNames: ['gate', 'outcome'],
    });
    this.responseTime = metrics.histogram({
      name: 'warden_gate_response_time_seconds',
      help: 'Time from a gate request to its answer (or timeout), by gate.',
      labelNames: ['gate'],
      buckets: RESPONSE_BUCKETS,
    });
  }
}
