import { MetricNameError, MetricsRegistry } from './metrics-registry.js';

describe('MetricsRegistry', () => {
  it('renders Warden series with the service label beside the default process metrics', async () => {
    const registry = new MetricsRegistry('reviewer');
    registry.counter({ name: 'warden_reviews_total', help: 'Reviews', labelNames: ['verdict'] }).inc({ verdict: 'allow' });
    const text = await registry.render();
    expect(text).toContain('warden_reviews_total{verdict="allow",service="reviewer"} 1');
    expect(text).toContain('process_cpu_seconds_total');
  });

  it("serves the event-loop delay series once, Warden's sampler in place of prom-client's", async () => {
    const registry = new MetricsRegistry('reviewer');
    try {
      const text = await registry.render();
      for (const suffix of ['', '_min', '_max', '_mean', '_stddev', '_p50', '_p90', '_p99']) {
        expect(text.match(new RegExp(`^nodejs_eventloop_lag${suffix}_seconds\\{`, 'gm'))).toHaveLength(1);
      }
    } finally {
      registry.stop();
    }
  });

  it('returns the existing series when a metric is declared twice', () => {
    const registry = new MetricsRegistry('gate');
    const a = registry.gauge({ name: 'warden_paused_sessions', help: 'Paused' });
    expect(registry.gauge({ name: 'warden_paused_sessions', help: 'Paused' })).toBe(a);
  });

  it.each([
    [{ name: 'reviews_total', help: 'x' }, 'start with warden_'],
    [{ name: 'warden_reviews', help: 'x' }, 'must end with _total'],
    [{ name: 'warden_reviews_total', help: 'x', labelNames: ['session_id'] }, 'unbounded labels'],
    [{ name: 'warden_actions_total', help: 'x', labelNames: ['agent'] }, 'unbounded labels'],
  ])('refuses counter %j', (config, message) => {
    expect(() => new MetricsRegistry('x').counter(config)).toThrow(MetricNameError);
    expect(() => new MetricsRegistry('x').counter(config)).toThrow(message);
  });

  it('requires durations in seconds', () => {
    expect(() => new MetricsRegistry('x').histogram({ name: 'warden_review_duration_ms', help: 'x' })).toThrow('_seconds');
  });
});
