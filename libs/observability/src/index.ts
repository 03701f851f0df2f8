// Metrics, health, logging and redaction for Warden's services: plain Node, no Nest (its module, controllers
// and log adapter are in @warden/observability-nest).
export { type LatencySummary, parseBenchmarkOptions, percentile, summariseLatencies } from './benchmark/benchmark-kit.js';
export { type CollectionPause, type CollectionShare, collectionShare, recordCollectionPauses, type TimedOperation } from './benchmark/collection-pauses.js';
export { type HealthCheck, type HealthCheckResult, HealthRegistry, type HealthReport } from './health/health-registry.js';
export { lazyMessageLogger, type LogContext } from './logging/log-context.js';
export { createLogger, type Logger, type LoggerSettings } from './logging/logger.js';
export { LOGGER } from './logging/logger-token.js';
export { EVENT_LOOP_SAMPLE_MS, EventLoopDelay, type EventLoopDelayOptions } from './metrics/event-loop-delay.js';
export { LATENCY_BUCKETS, MetricNameError, MetricsRegistry } from './metrics/metrics-registry.js';
export { countRedactions, INPUT_TO_RUN_KEYS, type Redaction, redactForStorage, redactText, redactValue, SECRET_KEY, SECRET_PATTERNS, type SecretPattern, totalRedactions } from '@warden/secrets';
