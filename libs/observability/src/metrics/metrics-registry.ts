import {
  collectDefaultMetrics,
  Counter,
  Gauge,
  Histogram,
  Registry,
  type CounterConfiguration,
  type GaugeConfiguration,
  type HistogramConfiguration,
} from 'prom-client';
import { EventLoopDelay } from './event-loop-delay.js';

/** Latency buckets from 100 µs to 10 s: the hot path lives in the sub-millisecond range. */
export const LATENCY_BUCKETS = [0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 10];

const NAME = /^warden_[a-z][a-z0-9_]*$/;

export class MetricNameError extends Error {}

function checkName(name: string, kind: 'counter' | 'gauge' | 'histogram', labelNames: readonly string[]): void {
  if (!NAME.test(name)) throw new MetricNameError(`metric ${name} must be snake_case and start with warden_`);
  if (kind === 'counter' && !name.endsWith('_total')) throw new MetricNameError(`counter ${name} must end with _total`);
  if (kind !== 'counter' && name.endsWith('_total')) throw new MetricNameError(`${kind} ${name} must not end with _total`);
  // A session, agent or trace id as a label would make every session a new time series.
  const unbounded = labelNames.filter((l) => /(^|_)(session|agent|trace|action|message)(_id)?$/.test(l));
  if (unbounded.length) throw new MetricNameError(`metric ${name} has unbounded labels: ${unbounded.join(', ')}`);
}

/**
 * prom-client samples the event-loop delay all the time, and its sampler cannot be left out of the
 * default metrics: it gets the longest interval a timer takes (it never wakes), and its series are
 * replaced by {@link EventLoopDelay}'s, which sample only while the service works.
 */
const PROM_CLIENT_SAMPLER_OFF_MS = 2 ** 31 - 1;
const PROM_CLIENT_LAG_SERIES = ['', '_min', '_max', '_mean', '_stddev', '_p50', '_p90', '_p99'].map((s) => `nodejs_eventloop_lag${s}_seconds`);

/**
 * The Prometheus registry of one service: default process metrics plus Warden's own series, all with
 * a `service` label. Creating the same metric twice returns the first one, so modules can share series.
 */
export class MetricsRegistry {
  readonly registry = new Registry();
  private readonly eventLoop: EventLoopDelay;

  constructor(readonly service: string) {
    this.registry.setDefaultLabels({ service });
    collectDefaultMetrics({ register: this.registry, eventLoopMonitoringPrecision: PROM_CLIENT_SAMPLER_OFF_MS });
    for (const name of PROM_CLIENT_LAG_SERIES) this.registry.removeSingleMetric(name);
    this.eventLoop = new EventLoopDelay(this.registry);
  }

  /** Stops sampling the event loop (the service is shutting down). */
  stop(): void {
    this.eventLoop.stop();
  }

  counter<L extends string>(config: Omit<CounterConfiguration<L>, 'registers'>): Counter<L> {
    checkName(config.name, 'counter', config.labelNames ?? []);
    return this.existing<Counter<L>>(config.name) ?? new Counter({ ...config, registers: [this.registry] });
  }

  gauge<L extends string>(config: Omit<GaugeConfiguration<L>, 'registers'>): Gauge<L> {
    checkName(config.name, 'gauge', config.labelNames ?? []);
    return this.existing<Gauge<L>>(config.name) ?? new Gauge({ ...config, registers: [this.registry] });
  }

  histogram<L extends string>(config: Omit<HistogramConfiguration<L>, 'registers'>): Histogram<L> {
    checkName(config.name, 'histogram', config.labelNames ?? []);
    if (config.name.includes('duration') && !config.name.endsWith('_seconds')) {
      throw new MetricNameError(`duration histogram ${config.name} must be in seconds (_seconds)`);
    }
    return (
      this.existing<Histogram<L>>(config.name) ??
      new Histogram({ buckets: LATENCY_BUCKETS, ...config, registers: [this.registry] })
    );
  }

  async render(): Promise<string> {
    return this.registry.metrics();
  }

  get contentType(): string {
    return this.registry.contentType;
  }

  private existing<T>(name: string): T | undefined {
    return this.registry.getSingleMetric(name) as T | undefined;
  }
}
