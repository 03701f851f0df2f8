import { Injectable } from '@nestjs/common';
import { MetricsRegistry } from '@warden/observability';
import type { PatternReport } from '@warden/patterns';

/** The detector's series: patterns by type, severity and shadow mode, evaluation time, sessions, conflicts. */
@Injectable()
export class PatternMetrics {
  private readonly detected;
  readonly evaluation;
  readonly handling;
  readonly sessions;
  readonly conflicts;

  constructor(metrics: MetricsRegistry) {
    this.detected = metrics.counter({
      name: 'warden_patterns_detected_total',
      help: 'Patterns reported (a new episode or a worse severity), by pattern type, severity and shadow mode.',
      labelNames: ['pattern_type', 'severity', 'shadow'],
    });
    this.evaluation = metrics.histogram({
      name: 'warden_pattern_detector_evaluation_seconds',
      help: "Time to apply one event to its session's windows and run every detector over them, in process.",
      labelNames: ['event'],
      buckets: [0.00001, 0.000025, 0.00005, 0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01],
    });
    this.handling = metrics.histogram({
      name: 'warden_pattern_detector_event_seconds',
      help: 'Time to handle one event end to end: load, evaluate, publish, store the session.',
      labelNames: ['event'],
      buckets: [0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1],
    });
    this.sessions = metrics.gauge({ name: 'warden_pattern_detector_sessions', help: 'Sessions this replica holds in memory.' });
    this.conflicts = metrics.counter({ name: 'warden_pattern_detector_conflicts_total', help: 'Session writes refused because another replica wrote first.' });
  }

  record(reports: readonly PatternReport[]): void {
    for (const report of reports) this.detected.inc({ pattern_type: report.pattern_type, severity: report.severity, shadow: String(report.shadow) });
  }
}
