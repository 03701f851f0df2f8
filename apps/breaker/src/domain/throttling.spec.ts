import { DEFAULT_BREAKER_SETTINGS } from './breaker-settings.js';
import { SessionBreakers, throttledSettings } from './session-breakers.js';

let sequence = 0;
const id = () => `t-${++sequence}`;

describe('resource throttling from the intervention controller', () => {
  it('scales iteration limits and cost budgets, never below one action', () => {
    const throttled = throttledSettings(DEFAULT_BREAKER_SETTINGS, { iterations: 0.5, cost: 0.25 });
    expect(throttled.iteration.limits).toEqual({ default: 5, planning: 10, implementation: 25, review: 5, testing: 3, deployment: 2 });
    expect(throttled.cost.budgets.per_run).toBe(12.5);
    expect(throttled.cost.budgets.per_phase.implementation).toBe(2.5);
    expect(throttled.cost.budgets.per_day).toBe(DEFAULT_BREAKER_SETTINGS.cost.budgets.per_day);
    expect(throttledSettings(DEFAULT_BREAKER_SETTINGS, { iterations: 0.01, cost: 1 }).iteration.limits.deployment).toBe(1);
    expect(throttledSettings(DEFAULT_BREAKER_SETTINGS, undefined)).toBe(DEFAULT_BREAKER_SETTINGS);
  });

  it('makes later actions trip sooner, and survives a restore from the ledger', () => {
    const session = SessionBreakers.open(DEFAULT_BREAKER_SETTINGS, 'agent-1', 's1', 0);
    // implementation allows 50 actions; 20 are done.
    for (let i = 0; i < 20; i++) session.actionProposed(id(), i, 'implementation');
    expect(session.stateRecord(20).state).toBe('closed');
    session.throttled(id(), { iterations: 0.5 });
    // Compounds: 50 × 0.5 × 0.85 = 21 actions.
    const restored = SessionBreakers.restore(DEFAULT_BREAKER_SETTINGS, structuredClone(session.ledger));
    restored.throttled(id(), { iterations: 0.85, cost: 0.9 });
    expect(restored.ledger.throttle).toEqual({ iterations: 0.425, cost: 0.9 });
    expect(restored.actionProposed(id(), 21, 'implementation').map((e) => e.type)).not.toContain('breaker.tripped');
    const tripping = restored.actionProposed(id(), 22, 'implementation');
    expect(tripping.find((e) => e.type === 'breaker.tripped')?.payload).toMatchObject({ breaker: 'iteration', reason: 'MAX_ITERATIONS_EXCEEDED', current_value: 22, threshold: 21 });
  });

  it('applies each throttle once, and ignores factors that would loosen a limit', () => {
    const session = SessionBreakers.open(DEFAULT_BREAKER_SETTINGS, 'agent-1', 's1', 0);
    session.throttled('same', { iterations: 0.5 });
    session.throttled('same', { iterations: 0.5 });
    session.throttled(id(), { iterations: 3, cost: -1 });
    expect(session.ledger.throttle).toEqual({ iterations: 0.5, cost: 1 });
  });
});
