import { DEFAULT_BREAKER_SETTINGS, type BreakerSettings } from './breaker-settings.js';
import { seedSettings } from './seed-settings.fixture.js';
import { CostMeasure, priceCall, RAISE_OR_RESET } from './cost-measure.js';
import { ErrorRateMeasure } from './error-rate-measure.js';
import { IterationMeasure } from './iteration-measure.js';
import { RollingDay } from './rolling-day.js';
import { TimeMeasure } from './time-measure.js';

// The seed's values where Warden's defaults differ (why is said beside each default in breaker-settings.ts).
const settings: BreakerSettings = seedSettings();
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

describe('IterationMeasure (seed 002 §2)', () => {
  const measure = () => new IterationMeasure(settings.iteration, IterationMeasure.empty());

  it('does not trip under the limit, warns from 80 %, and trips on the iteration after the limit', () => {
    const m = measure();
    const readings = Array.from({ length: 51 }, () => m.countAction('implementation'));
    expect(readings[38]).toMatchObject({ level: 'ok', current: 39 });
    expect(readings[39]).toMatchObject({ level: 'warning', reason: 'APPROACHING_ITERATION_LIMIT', current: 40, threshold: 50, suggestion: '10 iterations remaining in implementation phase.' });
    expect(readings[49]).toMatchObject({ level: 'warning', current: 50 });
    expect(readings[50]).toMatchObject({
      level: 'trip',
      reason: 'MAX_ITERATIONS_EXCEEDED',
      current: 51,
      threshold: 50,
      suggestion: 'Phase implementation exceeded 50 iterations. Task may be too complex or approach may be incorrect.',
    });
  });

  it('counts each phase against its own limit, and the default limit without a phase', () => {
    const m = measure();
    for (let i = 0; i < 3; i++) m.countAction('deployment');
    expect(m.countAction('deployment')).toMatchObject({ level: 'trip', threshold: 3 });
    expect(m.countAction('planning')).toMatchObject({ level: 'ok', current: 1, threshold: 20 });
    expect(m.countAction(undefined)).toMatchObject({ level: 'ok', threshold: 10 });
    m.resetPhase('deployment');
    expect(m.countAction('deployment')).toMatchObject({ level: 'ok', current: 1 });
  });

  it('trips on stagnation after 3 reports without progress, by the phase\'s definition', () => {
    const m = measure();
    expect(m.recordProgress('testing', { tests_passed: 10 })).toMatchObject({ level: 'ok', current: 0 });
    expect(m.recordProgress('testing', { tests_passed: 10 })).toMatchObject({ level: 'ok', current: 1 });
    expect(m.recordProgress('testing', { tests_passed: 9 })).toMatchObject({ level: 'ok', current: 2 });
    expect(m.recordProgress('testing', { tests_passed: 9 })).toMatchObject({ level: 'trip', reason: 'STAGNATION_DETECTED', current: 3, threshold: 3 });
  });

  it('progress resets the stagnation count', () => {
    const m = measure();
    m.recordProgress('implementation', { files_modified: 0 });
    m.recordProgress('implementation', { files_modified: 0 });
    expect(m.recordProgress('implementation', { files_modified: 2 })).toMatchObject({ level: 'ok', current: 0 });
    expect(m.recordProgress('implementation', { lines_added: 0 })).toMatchObject({ current: 1 });
  });

  it('judges each phase by its own definition of progress', () => {
    const m = measure();
    expect(m.recordProgress('planning', { tasks_count: 2 }).current).toBe(0);
    expect(m.recordProgress('planning', { tasks_count: 2 }).current).toBe(1);
    expect(m.recordProgress('review', { findings_resolved: 1 }).current).toBe(0);
    expect(m.recordProgress('review', { new_findings: 0 }).current).toBe(1);
    expect(m.recordProgress('deployment', { deployment_stage: 'build' }).current).toBe(0);
    expect(m.recordProgress('deployment', { deployment_stage: 'build', health_score: 0 }).current).toBe(1);
    expect(m.recordProgress('deployment', { deployment_stage: 'build', health_score: 0.5 }).current).toBe(0);
  });
});

describe('CostMeasure and pricing (seed 002 §3)', () => {
  // The seed's table (seed 002 §3.1), configured as the seed has it: Opus 4.6 has since become cheaper.
  const SEED_PRICES = {
    'claude-sonnet-4-5-20250929': { input: 0.003, output: 0.015 },
    'claude-haiku-4-5-20251001': { input: 0.00025, output: 0.00125 },
    'claude-opus-4-6': { input: 0.015, output: 0.075 },
  };

  it('prices per 1,000 tokens from the table (seed test, with the seed prices)', () => {
    expect(priceCall(SEED_PRICES, 'claude-sonnet-4-5-20250929', { prompt: 1000, completion: 500 }).usd).toBeCloseTo(0.003 + 0.0075, 12);
    expect(priceCall(SEED_PRICES, 'claude-opus-4-6', { prompt: 10_000, completion: 5000 }).usd).toBeCloseTo(0.15 + 0.375, 12);
  });

  it('prices current models at their published prices, and a model it does not list by its family or the fallback, never as free', () => {
    expect(priceCall(settings.cost.pricing, 'claude-opus-4-6', { prompt: 10_000, completion: 5000 })).toMatchObject({ match: 'listed', usd: expect.closeTo(0.05 + 0.125, 12) });
    expect(priceCall(settings.cost.pricing, 'claude-opus-4-7', { prompt: 0, completion: 0, cache_read: 100_000 }).usd).toBeCloseTo(0.05, 12);
    expect(priceCall(settings.cost.pricing, 'mystery-model', { prompt: 1000, completion: 0 })).toMatchObject({ match: 'fallback', priced_as: 'claude-sonnet-4-6', usd: expect.closeTo(0.003, 12) });
    expect(priceCall(settings.cost.pricing, 'constructor', { prompt: 1000, completion: 0 })).toMatchObject({ match: 'fallback' });
  });

  it('does not trip under budget (seed test)', () => {
    const m = new CostMeasure(settings.cost, CostMeasure.empty());
    const call = priceCall(SEED_PRICES, 'claude-sonnet-4-5-20250929', { prompt: 1000, completion: 500 });
    m.record('implementation', call.usd);
    expect(m.evaluate('implementation', 0.0105)).toMatchObject({ level: 'ok' });
  });

  it('trips when the phase budget is exceeded (seed test: 100 expensive calls)', () => {
    const m = new CostMeasure(settings.cost, CostMeasure.empty());
    for (let i = 0; i < 100; i++) m.record('implementation', 0.525);
    expect(m.evaluate('implementation', 52.5)).toMatchObject({
      level: 'trip',
      reason: 'PHASE_BUDGET_EXCEEDED',
      threshold: 10,
      suggestion: `Phase implementation spent $52.50 of its $10.00 budget. ${RAISE_OR_RESET}`,
    });
  });

  it('warns at 80 % and trips at 100 % of the run budget, then of the day', () => {
    const m = new CostMeasure(settings.cost, CostMeasure.empty());
    m.record('planning', 4);
    m.record('implementation', 8);
    m.record('testing', 2);
    m.record('review', 1);
    m.record('deployment', 1);
    m.record(undefined, 24);
    expect(m.evaluate('deployment', 0)).toMatchObject({ level: 'warning', reason: 'RUN_BUDGET_WARNING', current: 40 });
    m.record('deployment', 0.5);
    m.record('review', 9.5);
    expect(m.evaluate('deployment', 50)).toMatchObject({ level: 'trip', reason: 'RUN_BUDGET_EXCEEDED', threshold: 50 });
    const fresh = new CostMeasure(settings.cost, CostMeasure.empty());
    expect(fresh.evaluate(undefined, 160)).toMatchObject({ level: 'warning', reason: 'DAILY_BUDGET_WARNING' });
    expect(fresh.evaluate(undefined, 200)).toMatchObject({ level: 'trip', reason: 'DAILY_BUDGET_EXCEEDED', threshold: 200 });
  });
});

describe('RollingDay', () => {
  const bucket = 5 * MINUTE;

  it('sums the last 24 hours and lets a cost fall out of the day within one bucket', () => {
    const day = new RollingDay(bucket, RollingDay.empty());
    const t0 = 1_000 * HOUR;
    day.add('a', t0, 100);
    day.add('b', t0 + 12 * HOUR, 50);
    expect(day.total(t0 + 12 * HOUR)).toBe(150);
    expect(day.total(t0 + 24 * HOUR - 1)).toBe(150);
    expect(day.total(t0 + 24 * HOUR + bucket)).toBe(50);
    expect(day.total(t0 + 36 * HOUR + bucket)).toBe(0);
  });

  it('charges a cost id once', () => {
    const day = new RollingDay(bucket, RollingDay.empty());
    expect(day.add('a', 0, 1)).toBe(true);
    expect(day.add('a', 0, 1)).toBe(false);
    expect(day.total(0)).toBe(1);
  });

  it('drops buckets that left the day', () => {
    const day = new RollingDay(bucket, RollingDay.empty());
    day.add('a', 0, 1);
    day.add('b', 25 * HOUR, 2);
    expect(day.snapshot.buckets).toEqual([[25 * HOUR, 2]]);
  });
});

describe('TimeMeasure (seed 002 §4)', () => {
  it('reads the phase clock from the phase start, warns at 90 % and trips at the timeout', () => {
    const m = new TimeMeasure(settings.time, { started_at: 0 });
    expect(m.evaluate('testing', 10 * MINUTE)).toMatchObject({ level: 'ok', threshold: 120 * MINUTE });
    m.startPhase(10 * MINUTE);
    expect(m.evaluate('testing', 27 * MINUTE)).toMatchObject({ level: 'ok', current: 17 * MINUTE, threshold: 20 * MINUTE });
    expect(m.evaluate('testing', 28 * MINUTE)).toMatchObject({ level: 'warning', reason: 'PHASE_TIMEOUT_WARNING', suggestion: 'Phase testing has 2 minutes remaining.' });
    expect(m.evaluate('testing', 30 * MINUTE)).toMatchObject({ level: 'trip', reason: 'PHASE_TIMEOUT_EXCEEDED', suggestion: 'Phase testing exceeded 20 minutes timeout.' });
  });

  it('trips on the total timeout whatever the phase', () => {
    const m = new TimeMeasure(settings.time, { started_at: 0 });
    m.startPhase(110 * MINUTE);
    expect(m.evaluate('implementation', 108 * MINUTE + 1)).toMatchObject({ level: 'warning', reason: 'TOTAL_TIMEOUT_WARNING' });
    expect(m.evaluate('implementation', 120 * MINUTE)).toMatchObject({ level: 'trip', reason: 'TOTAL_TIMEOUT_EXCEEDED' });
  });

  it('names the next moment its reading changes, for the timer of a silent session', () => {
    const m = new TimeMeasure(settings.time, { started_at: 0 });
    m.startPhase(0);
    expect(m.nextDeadline('deployment', 0)).toBe(13.5 * MINUTE);
    expect(m.nextDeadline('deployment', 13.5 * MINUTE)).toBe(15 * MINUTE);
    expect(m.nextDeadline('deployment', 15 * MINUTE)).toBe(108 * MINUTE);
    expect(m.nextDeadline('deployment', 120 * MINUTE)).toBeUndefined();
  });

  it('counts working time by default: a silence longer than the idle gap counts only up to it', () => {
    const time = { ...DEFAULT_BREAKER_SETTINGS.time, timeouts: { ...DEFAULT_BREAKER_SETTINGS.time.timeouts, total: 2 * HOUR } };
    const m = new TimeMeasure(time, { started_at: 0 });
    // An hour of work, a night away (14 hours, of which 10 minutes count), then another 40 minutes: 110 minutes.
    for (let t = 0; t <= HOUR; t += 5 * MINUTE) m.touch(t);
    for (let t = 15 * HOUR; t <= 15 * HOUR + 40 * MINUTE; t += 5 * MINUTE) m.touch(t);
    expect(m.evaluate(undefined, 15 * HOUR + 40 * MINUTE)).toMatchObject({ level: 'warning', current: 110 * MINUTE, threshold: 2 * HOUR });
    // Silent from here, it reaches the total only within the idle gap: ten minutes on.
    expect(m.nextDeadline(undefined, 15 * HOUR + 40 * MINUTE)).toBe(15 * HOUR + 50 * MINUTE);
    expect(m.evaluate(undefined, 40 * HOUR)).toMatchObject({ level: 'trip', current: 2 * HOUR });
    const quiet = new TimeMeasure(time, { started_at: 0 });
    quiet.touch(HOUR);
    expect(quiet.nextDeadline(undefined, HOUR)).toBeUndefined();
  });
});

describe('ErrorRateMeasure (seed 002 §5)', () => {
  const measure = (overrides: Partial<BreakerSettings['error_rate']> = {}) =>
    new ErrorRateMeasure({ ...settings.error_rate, ...overrides }, ErrorRateMeasure.empty());

  it('warns without tripping at a 10 % error rate (seed test)', () => {
    const m = measure();
    for (let i = 0; i < 90; i++) m.record(0, false);
    for (let i = 0; i < 10; i++) m.record(0, true);
    expect(m.evaluate(0)).toMatchObject({ level: 'warning', reason: 'ERROR_RATE_WARNING', current: 0.1 });
  });

  it('trips at a 50 % error rate (seed test)', () => {
    const m = measure();
    for (let i = 0; i < 50; i++) {
      m.record(0, false);
      m.record(0, true);
    }
    expect(m.evaluate(0)).toMatchObject({ level: 'trip', reason: 'ERROR_RATE_CRITICAL', current: 0.5, threshold: 0.25 });
  });

  it('does not count a rate before the window holds the minimum number of outcomes', () => {
    const m = measure();
    m.record(0, true);
    expect(m.evaluate(0)).toMatchObject({ level: 'ok', current: 1 });
    for (let i = 0; i < 8; i++) m.record(0, true);
    expect(m.evaluate(0).level).toBe('ok');
    m.record(0, true);
    expect(m.evaluate(0).level).toBe('trip');
  });

  it('forgets outcomes older than the window', () => {
    const m = measure();
    for (let i = 0; i < 10; i++) m.record(0, true);
    for (let i = 0; i < 10; i++) m.record(4 * MINUTE, false);
    expect(m.evaluate(4 * MINUTE).current).toBe(0.5);
    expect(m.evaluate(5 * MINUTE + 1)).toMatchObject({ level: 'ok', current: 0 });
    expect(m.snapshot.events).toHaveLength(10);
  });

  it('keeps at most max_events outcomes', () => {
    const m = measure({ max_events: 20 });
    for (let i = 0; i < 30; i++) m.record(i, i < 10);
    expect(m.snapshot.events).toHaveLength(20);
    expect(m.evaluate(30).current).toBe(0);
  });
});
