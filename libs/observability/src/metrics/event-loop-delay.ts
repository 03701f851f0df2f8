import { createHistogram, performance, type EventLoopUtilization, type RecordableHistogram } from 'node:perf_hooks';
import { Gauge, type Registry } from 'prom-client';

/** How often the event-loop delay is sampled while the service is busy (prom-client's default). */
export const EVENT_LOOP_SAMPLE_MS = 10;

export interface EventLoopDelayOptions {
  /** Sampling interval while busy, ms. */
  sampleMs?: number;
  /** How often the loop's utilisation is read to switch sampling on or off, ms. */
  checkMs?: number;
  /** Share of the last check interval the loop spent working above which it counts as busy. */
  busyUtilisation?: number;
}

const DEFAULTS: Required<EventLoopDelayOptions> = { sampleMs: EVENT_LOOP_SAMPLE_MS, checkMs: 1000, busyUtilisation: 0.01 };

/**
 * The `nodejs_eventloop_lag_*` series, sampled only while the service works. A sampler wakes the process
 * at every interval; on this kind of machine each wake-up costs about 70 µs of CPU, which made sampling
 * the largest cost of an idle service (prom-client's own sampler runs all the time). Here the loop's
 * utilisation, which Node keeps without waking anything, is read once a second: sampling runs while
 * the loop worked more than 1% of that second and stops when it did not. Each sample is how late the
 * sampler's timer fired; Node's own sampler cannot be used, since once enabled again it counts the whole
 * pause as one delay. Series report 0 when nothing was sampled since the last scrape: an idle loop has
 * no delay.
 */
export class EventLoopDelay {
  private readonly options: Required<EventLoopDelayOptions>;
  private readonly histogram: RecordableHistogram = createHistogram();
  private readonly checker: NodeJS.Timeout;
  private sampler?: NodeJS.Timeout;
  private last: EventLoopUtilization = performance.eventLoopUtilization();
  private sampling = false;

  constructor(registry: Registry, options: EventLoopDelayOptions = {}) {
    this.options = { ...DEFAULTS, ...options };
    this.checker = setInterval(() => this.check(), this.options.checkMs);
    this.checker.unref();

    const registers = [registry];
    // Registered first: a scrape reads the series in order, and this one's collect sets the others.
    const lag: Gauge = new Gauge({
      name: 'nodejs_eventloop_lag_seconds',
      help: 'Lag of event loop in seconds.',
      registers,
      aggregator: 'average',
      // One scrape reads the whole histogram, then starts it afresh (as prom-client does).
      collect: () => {
        const started = process.hrtime.bigint();
        setImmediate(() => lag.set(Number(process.hrtime.bigint() - started) / 1e9));
        const h = this.histogram;
        const seconds = (nanoseconds: number) => (h.count > 0 ? nanoseconds / 1e9 : 0);
        series.min.set(seconds(h.min));
        series.max.set(seconds(h.max));
        series.mean.set(seconds(h.mean));
        series.stddev.set(seconds(h.stddev));
        series.p50.set(seconds(h.percentile(50)));
        series.p90.set(seconds(h.percentile(90)));
        series.p99.set(seconds(h.percentile(99)));
        h.reset();
      },
    });
    const series = {
      min: new Gauge({ name: 'nodejs_eventloop_lag_min_seconds', help: 'The minimum recorded event loop delay.', registers }),
      max: new Gauge({ name: 'nodejs_eventloop_lag_max_seconds', help: 'The maximum recorded event loop delay.', registers }),
      mean: new Gauge({ name: 'nodejs_eventloop_lag_mean_seconds', help: 'The mean of the recorded event loop delays.', registers }),
      stddev: new Gauge({ name: 'nodejs_eventloop_lag_stddev_seconds', help: 'The standard deviation of the recorded event loop delays.', registers }),
      p50: new Gauge({ name: 'nodejs_eventloop_lag_p50_seconds', help: 'The 50th percentile of the recorded event loop delays.', registers }),
      p90: new Gauge({ name: 'nodejs_eventloop_lag_p90_seconds', help: 'The 90th percentile of the recorded event loop delays.', registers }),
      p99: new Gauge({ name: 'nodejs_eventloop_lag_p99_seconds', help: 'The 99th percentile of the recorded event loop delays.', registers }),
    };
  }

  /** Whether the delay is being sampled now. */
  get active(): boolean {
    return this.sampling;
  }

  stop(): void {
    clearInterval(this.checker);
    this.sample(false);
  }

  private check(): void {
    const now = performance.eventLoopUtilization();
    const busy = performance.eventLoopUtilization(now, this.last).utilization > this.options.busyUtilisation;
    this.last = now;
    if (busy !== this.sampling) this.sample(busy);
  }

  private sample(on: boolean): void {
    this.sampling = on;
    clearInterval(this.sampler);
    this.sampler = undefined;
    if (!on) return;
    const every = this.options.sampleMs;
    let due = performance.now() + every;
    this.sampler = setInterval(() => {
      const now = performance.now();
      // Nanoseconds late, at least 1 (the histogram records positive integers).
      this.histogram.record(Math.max(1, Math.round((now - due) * 1e6)));
      due = now + every;
    }, every);
    this.sampler.unref();
  }
}
