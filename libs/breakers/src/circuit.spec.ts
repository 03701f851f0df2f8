import type { CircuitSettings } from './breaker-settings.js';
import { Circuit, closedCircuit } from './circuit.js';
import type { Measurement } from './measurement.js';

const settings: CircuitSettings = {
  enabled: true,
  mode: 'enforce',
  warning: 0.8,
  reset_after_ms: 1000,
  half_open_probes: 2,
  backoff_multiplier: 2,
  max_reset_after_ms: 3000,
};
const trip: Measurement = { breaker: 'cost', level: 'trip', reason: 'RUN_BUDGET_EXCEEDED', current: 51, threshold: 50, suggestion: 'Run exceeded $50.00 total budget.' };
const ok: Measurement = { breaker: 'cost', level: 'ok', current: 1, threshold: 50 };
const warning: Measurement = { breaker: 'cost', level: 'warning', reason: 'RUN_BUDGET_WARNING', current: 41, threshold: 50 };

const circuit = (overrides: Partial<CircuitSettings> = {}) => new Circuit('cost', { ...settings, ...overrides }, closedCircuit());

describe('Circuit (seed 002 §1.2 state machine)', () => {
  it('CLOSED stays CLOSED under the threshold and on a warning', () => {
    const c = circuit();
    expect(c.observe(ok, 0)).toBeNull();
    expect(c.observe(warning, 0)).toBeNull();
    expect(c.state).toBe('closed');
  });

  it('CLOSED → OPEN when the threshold is exceeded, with the reason, suggestion and retry time', () => {
    const c = circuit();
    expect(c.observe(trip, 100)).toEqual({ breaker: 'cost', from: 'closed', to: 'open', reason: 'RUN_BUDGET_EXCEEDED', cause: 'threshold', at: 100 });
    expect(c.snapshot).toMatchObject({ state: 'open', opened_at: 100, retry_at: 1100, reason: 'RUN_BUDGET_EXCEEDED', suggestion: 'Run exceeded $50.00 total budget.' });
    expect(c.blocking).toBe(true);
  });

  it('OPEN stays OPEN until resetAfter has elapsed, then → HALF_OPEN', () => {
    const c = circuit();
    c.observe(trip, 0);
    expect(c.tick(999)).toBeNull();
    expect(c.observe(ok, 999)).toBeNull();
    expect(c.state).toBe('open');
    expect(c.nextWakeAt()).toBe(1000);
    expect(c.tick(1000)).toMatchObject({ from: 'open', to: 'half_open', cause: 'reset_timeout' });
    expect(c.blocking).toBe(false);
  });

  it('HALF_OPEN → CLOSED after the configured number of passing probes', () => {
    const c = circuit();
    c.observe(trip, 0);
    c.tick(1000);
    expect(c.observe(ok, 1001)).toBeNull();
    expect(c.state).toBe('half_open');
    expect(c.observe(warning, 1002)).toMatchObject({ from: 'half_open', to: 'closed', cause: 'probe_succeeded' });
    expect(c.snapshot).toEqual({ state: 'closed', consecutive_opens: 0, probes_passed: 0 });
  });

  it('HALF_OPEN → OPEN when a probe fails, and each consecutive OPEN period is longer, up to the maximum', () => {
    const c = circuit();
    c.observe(trip, 0);
    c.tick(1000);
    expect(c.observe(trip, 1000)).toMatchObject({ from: 'half_open', to: 'open', cause: 'probe_failed', reason: 'RUN_BUDGET_EXCEEDED (failed during recovery)' });
    expect(c.snapshot.retry_at).toBe(3000); // 1000 × 2
    c.tick(3000);
    c.observe(trip, 3000);
    expect(c.snapshot.retry_at).toBe(6000); // 4000 capped at 3000
    c.tick(6000);
    c.observe(ok, 6001);
    c.observe(ok, 6002);
    expect(c.state).toBe('closed');
    c.observe(trip, 7000);
    expect(c.snapshot.retry_at).toBe(8000); // backoff starts over after a close
  });

  it('a single probe closes it when half_open_probes is 1', () => {
    const c = circuit({ half_open_probes: 1 });
    c.observe(trip, 0);
    c.tick(1000);
    expect(c.observe(ok, 1000)).toMatchObject({ to: 'closed' });
  });

  it('force_open holds OPEN without probing until reset', () => {
    const c = circuit();
    expect(c.forceOpen(5, 'force_open by op-1')).toMatchObject({ from: 'closed', to: 'open', cause: 'operator' });
    expect(c.nextWakeAt()).toBeUndefined();
    expect(c.tick(1_000_000)).toBeNull();
    expect(c.state).toBe('open');
    expect(c.reset(10, 'reset by op-1')).toMatchObject({ from: 'open', to: 'closed', cause: 'operator' });
    expect(c.snapshot.forced).toBeUndefined();
    expect(c.reset(11, 'again')).toBeNull();
  });

  it('a disabled breaker neither trips nor blocks, and keeps its flag through a reset', () => {
    const c = circuit();
    expect(c.setDisabled(true)).toBe(true);
    expect(c.setDisabled(true)).toBe(false);
    expect(c.observe(trip, 0)).toBeNull();
    expect(c.state).toBe('closed');
    c.setDisabled(false);
    c.observe(trip, 0);
    c.setDisabled(true);
    expect(c.blocking).toBe(false);
    c.reset(1, 'reset');
    expect(c.snapshot.disabled).toBe(true);
  });

  it('a metrics-only breaker goes through its states but never blocks', () => {
    const c = circuit({ mode: 'metrics_only' });
    expect(c.observe(trip, 0)).toMatchObject({ to: 'open' });
    expect(c.blocking).toBe(false);
  });

  it('a breaker that is not enabled does nothing', () => {
    expect(circuit({ enabled: false }).observe(trip, 0)).toBeNull();
  });
});
