import { Registry } from 'prom-client';
import { EventLoopDelay } from './event-loop-delay.js';

/** Waits (at most 10 s) until `condition` holds, doing `work` in between; this library cannot use @warden/testing. */
async function until(what: string, condition: () => boolean, work: () => void = () => undefined): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    work();
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/** Keeps the loop busy for `ms` (synchronous work, as a handler does). */
function block(ms: number): void {
  const end = performance.now() + ms;
  while (performance.now() < end);
}

/** One scrape: every series' value by name. */
async function scrape(registry: Registry): Promise<Record<string, number>> {
  const metrics = (await registry.getMetricsAsJSON()) as { name: string; values: { value: number }[] }[];
  return Object.fromEntries(metrics.map((m) => [m.name, Number(m.values[0]?.value)]));
}

describe('EventLoopDelay', () => {
  let registry: Registry;
  let delay: EventLoopDelay;

  beforeEach(() => {
    registry = new Registry();
    delay = new EventLoopDelay(registry, { sampleMs: 10, checkMs: 100, busyUtilisation: 0.2 });
  });

  afterEach(() => delay.stop());

  it('does not sample an idle loop, and reports no delay for it', async () => {
    await new Promise((resolve) => setTimeout(resolve, 350));
    expect(delay.active).toBe(false);
    const lag = await scrape(registry);
    expect(lag['nodejs_eventloop_lag_p99_seconds']).toBe(0);
    expect(lag['nodejs_eventloop_lag_max_seconds']).toBe(0);
  });

  it('samples while the loop works, reports the delay above the interval, and stops when the work does', async () => {
    await until('sampling to start under load', () => delay.active, () => block(30));
    await registry.metrics(); // starts the histogram afresh
    // Blocks of 40 ms: the sampler's 10 ms timer fires up to 40 ms late.
    for (let i = 0; i < 10; i++) {
      block(40);
      await new Promise((resolve) => setImmediate(resolve));
    }
    const lag = await scrape(registry);
    const max = lag['nodejs_eventloop_lag_max_seconds']!;
    expect(max).toBeGreaterThan(0.015);
    expect(max).toBeLessThan(1);
    expect(lag['nodejs_eventloop_lag_p50_seconds']).toBeLessThanOrEqual(max);
    expect(lag['nodejs_eventloop_lag_min_seconds']).toBeGreaterThanOrEqual(0);
    await until('sampling to stop once idle', () => !delay.active);
  });

  it('does not count an idle pause between two busy spells as delay', async () => {
    await until('sampling to start under load', () => delay.active, () => block(30));
    await until('sampling to stop once idle', () => !delay.active);
    await new Promise((resolve) => setTimeout(resolve, 600));
    await scrape(registry); // what the first spell left
    await until('sampling to start again', () => delay.active, () => block(3));
    for (let i = 0; i < 5; i++) await new Promise((resolve) => setTimeout(resolve, 20));
    const lag = await scrape(registry);
    expect(lag['nodejs_eventloop_lag_max_seconds']).toBeGreaterThan(0);
    expect(lag['nodejs_eventloop_lag_max_seconds']).toBeLessThan(0.3);
  });
});
