import { createMessage, validateMessage } from '@warden/contracts';
import { RAISE_OR_RESET } from './cost-measure.js';
import { seedSettings } from './seed-settings.fixture.js';
import { SessionBreakers, type BreakerEvent } from './session-breakers.js';
import type { UsageReading } from './usage-accounting.js';

let sequence = 0;
const id = () => `u-${++sequence}`;

function settings() {
  const s = seedSettings();
  s.cost.budgets.per_run = 1;
  for (const phase of Object.keys(s.cost.budgets.per_phase) as (keyof typeof s.cost.budgets.per_phase)[]) s.cost.budgets.per_phase[phase] = 1000;
  return s;
}

const entry = (key: string, cost?: number, model = 'claude-sonnet-4-6') => ({
  key,
  model,
  tokens: { prompt: 1000, completion: 200, cache_read: 40_000, cache_write: 0 },
  ...(cost !== undefined ? { cost_usd: cost } : {}),
  at: '2026-11-28T10:15:02.000Z',
});
const events = (source: UsageReading['source'], ...entries: ReturnType<typeof entry>[]): UsageReading => ({ source, entries });
const costs = (produced: BreakerEvent[]) => produced.filter((e) => e.type === 'breaker.cost_recorded').map((e) => e.payload);

function expectValid(produced: BreakerEvent[]): void {
  for (const event of produced) expect(validateMessage(createMessage(event.type, { session_id: 's1', agent_id: 'agent-1', payload: event.payload as never })).ok).toBe(true);
}

describe('usage from the agent\'s telemetry or transcript', () => {
  it('charges the cost the agent reported, and trips the run budget with the figures and what an operator does', () => {
    const session = SessionBreakers.open(settings(), 'agent-1', 's1', 0);
    const first = events('telemetry_event', entry('req_1', 0.5), entry('req_2', 0.35));
    expect(session.usageCost(first)).toBeCloseTo(0.85);
    const produced = session.usageReported(id(), 10, first, 0.85);
    expectValid(produced);
    expect(costs(produced)).toEqual([
      { model: 'claude-sonnet-4-6', prompt_tokens: 82_000, completion_tokens: 400, cost_usd: 0.85, operation: 'usage.reported', source: 'telemetry_event', priced_by: 'agent' },
    ]);
    expect(produced.map((e) => e.type)).toEqual(['breaker.cost_recorded', 'breaker.warning']);
    const tripping = session.usageReported(id(), 20, events('telemetry_event', entry('req_3', 0.2)), 1.05);
    expectValid(tripping);
    expect(tripping.find((e) => e.type === 'breaker.tripped')?.payload).toMatchObject({
      breaker: 'cost',
      reason: 'RUN_BUDGET_EXCEEDED',
      current_value: 1.05,
      threshold: 1,
      suggestion: `Run spent $1.05 of its $1.00 budget. ${RAISE_OR_RESET}`,
    });
    expect(session.stateRecord(20).state).toBe('open');
  });

  it('prices tokens from the table when the agent reports no cost', () => {
    const session = SessionBreakers.open(settings(), 'agent-1', 's1', 0);
    const produced = session.usageReported(id(), 10, events('telemetry_event', entry('resp-1', undefined, 'gpt-5')), 0);
    // gpt-5: 1,000 × $0.00125 + 200 × $0.01 + 40,000 cached × $0.000125, per 1,000 tokens.
    expect(costs(produced)).toEqual([expect.objectContaining({ model: 'gpt-5', cost_usd: expect.closeTo(0.00825, 8), priced_by: 'pricing_table' })]);
  });

  it('counts an entry once, however often it is reported', () => {
    const session = SessionBreakers.open(settings(), 'agent-1', 's1', 0);
    session.usageReported(id(), 10, events('telemetry_event', entry('req_1', 0.1), entry('req_2', 0.1)), 0.2);
    const again = events('telemetry_event', entry('req_2', 0.1), entry('req_3', 0.1));
    expect(session.usageCost(again)).toBeCloseTo(0.1);
    expect(costs(session.usageReported(id(), 20, again, 0.3))).toEqual([expect.objectContaining({ cost_usd: 0.1 })]);
    expect(session.ledger.cost.run).toBeCloseTo(0.3);
  });

  it('counts a session from its most precise source: telemetry events over metrics over the transcript', () => {
    const session = SessionBreakers.open(settings(), 'agent-1', 's1', 0);
    session.usageReported(id(), 10, events('transcript', entry('msg_1')), 0);
    const fromTranscript = session.ledger.cost.run;
    expect(fromTranscript).toBeGreaterThan(0);
    session.usageReported(id(), 20, events('telemetry_metric', entry('m:1', 0.2)), 0);
    expect(session.ledger.cost.run).toBeCloseTo(fromTranscript + 0.2);
    // The transcript now repeats what the metrics count: it is ignored.
    expect(session.usageCost(events('transcript', entry('msg_2')))).toBe(0);
    expect(session.usageReported(id(), 30, events('transcript', entry('msg_2')), 0)).toEqual([]);
    session.usageReported(id(), 40, events('telemetry_event', entry('req_1', 0.1)), 0);
    expect(session.usageReported(id(), 50, events('telemetry_metric', entry('m:2', 0.1)), 0)).toEqual([]);
    expect(session.ledger.spend?.source).toBe('telemetry_event');
    expect(session.ledger.cost.run).toBeCloseTo(fromTranscript + 0.3);
  });

  it('reports a model missing from the price table once', () => {
    const session = SessionBreakers.open(settings(), 'agent-1', 's1', 0);
    const first = session.usageReported(id(), 10, events('transcript', entry('a', undefined, 'gpt-5.5')), 0);
    expect(first.filter((e) => e.type === 'breaker.error').map((e) => e.payload)).toEqual([expect.objectContaining({ code: 'unknown_model', message: expect.stringContaining('"gpt-5.5"') })]);
    expect(session.usageReported(id(), 20, events('transcript', entry('b', undefined, 'gpt-5.5')), 0).some((e) => e.type === 'breaker.error')).toBe(false);
  });

  it('holds the session\'s tokens to a throttle\'s limit', () => {
    const session = SessionBreakers.open(settings(), 'agent-1', 's1', 0);
    session.throttled(id(), {}, { max_tokens: 2000 });
    const produced = session.usageReported(id(), 10, events('telemetry_event', entry('r1', 0.01), entry('r2', 0.01)), 0);
    expect(produced.find((e) => e.type === 'breaker.tripped')?.payload).toMatchObject({ breaker: 'cost', reason: 'TOKEN_LIMIT_EXCEEDED' });
  });
});
