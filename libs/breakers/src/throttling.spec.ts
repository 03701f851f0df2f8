import { DEFAULT_BREAKER_SETTINGS } from './breaker-settings.js';
import { SessionBreakers, throttledSettings } from './session-breakers.js';

let sequence = 0;
const id = () => `t-${++sequence}`;

describe('resource throttling from the intervention controller', () => {
  it('scales iteration limits and cost budgets, never below one action', () => {
    const throttled = throttledSettings(DEFAULT_BREAKER_SETTINGS, { iterations: 0.5, cost: 0.25 });
    expect(throttled.iteration.limits).toEqual({ default: 500, planning: 10, implementation: 25, review: 5, testing: 3, deployment: 2 });
    expect(throttled.cost.budgets.per_run).toBe(12.5);
    expect(throttled.cost.budgets.per_phase.implementation).toBe(2.5);
    expect(throttled.cost.budgets.per_day).toBe(DEFAULT_BREAKER_SETTINGS.cost.budgets.per_day);
    expect(throttledSettings(DEFAULT_BREAKER_SETTINGS, { iterations: 0.01, cost: 1 }).iteration.limits.deployment).toBe(1);
    expect(throttledSettings(DEFAULT_BREAKER_SETTINGS, undefined)).toBe(DEFAULT_BREAKER_SETTINGS);
  });

  it('shrinks what is left, from the moment of the throttle, and survives a restore from the ledger', () => {
    const session = SessionBreakers.open(DEFAULT_BREAKER_SETTINGS, 'agent-1', 's1', 0);
    // implementation allows 50 actions; 20 are done: 30 are left.
    for (let i = 0; i < 20; i++) session.actionProposed(id(), i, 'implementation');
    expect(session.stateRecord(20).state).toBe('closed');
    session.throttled(id(), { iterations: 0.5 });
    // Half of the 30 left: 35.
    expect(session.ledger.throttle?.caps?.iterations?.implementation).toBe(35);
    for (let i = 20; i < 30; i++) session.actionProposed(id(), i, 'implementation');
    // Compounds from there: 30 done, 5 left, 0.8 of it is 4: 34.
    const restored = SessionBreakers.restore(DEFAULT_BREAKER_SETTINGS, structuredClone(session.ledger));
    restored.throttled(id(), { iterations: 0.8, cost: 0.9 });
    expect(restored.ledger.throttle).toMatchObject({ iterations: 0.4, cost: 0.9, caps: { iterations: { implementation: 34 }, per_run: 45 } });
    for (let i = 30; i < 34; i++) expect(restored.actionProposed(id(), i, 'implementation').map((e) => e.type)).not.toContain('breaker.tripped');
    const tripping = restored.actionProposed(id(), 34, 'implementation');
    expect(tripping.find((e) => e.type === 'breaker.tripped')?.payload).toMatchObject({ breaker: 'iteration', reason: 'MAX_ITERATIONS_EXCEEDED', current_value: 35, threshold: 34 });
  });

  it('leaves a session that spent $28 of its $50 most of what is left after a halving, instead of stopping it', () => {
    const session = SessionBreakers.open(DEFAULT_BREAKER_SETTINGS, 'agent-1', 's1', 0);
    const opus = (n: number) => ({ action_id: `c${n}`, status: 'success' as const, model: 'claude-opus-4-7', tokens: { prompt: 0, completion: 0, cache_read: 2_000_000 } }); // $1.00 each
    for (let i = 0; i < 28; i++) session.outcomeReported(id(), i, opus(i), 0);
    session.throttled(id(), { cost: 0.5 });
    expect(session.ledger.throttle?.caps?.per_run).toBeCloseTo(39, 9);
    for (let i = 28; i < 38; i++) expect(session.outcomeReported(id(), i, opus(i), 0).map((e) => e.type)).not.toContain('breaker.tripped');
    // A session without a phase has the run's budget as its phase budget: both are at $39, and the run's is named.
    expect(session.outcomeReported(id(), 39, opus(39), 0).find((e) => e.type === 'breaker.tripped')?.payload).toMatchObject({ breaker: 'cost', reason: 'RUN_BUDGET_EXCEEDED', threshold: 39 });
  });

  it('enforces the cost the controller set from the throttle on: the next call past it trips the cost breaker', () => {
    const session = SessionBreakers.open(DEFAULT_BREAKER_SETTINGS, 'agent-1', 's1', 0);
    const opus = (n: number) => ({ action_id: `m${n}`, status: 'success' as const, model: 'claude-opus-4-7', tokens: { prompt: 0, completion: 0, cache_read: 2_000_000 } }); // $1.00 each
    for (let i = 0; i < 4; i++) session.outcomeReported(id(), i, opus(i), 0);
    // $4 spent, $1.50 more allowed: $5.50 (what the factor leaves of the rest, $27, is looser).
    session.throttled(id(), { cost: 0.5 }, { max_cost_usd: 1.5 });
    expect(session.ledger.throttle?.caps?.per_run).toBe(5.5);
    expect(session.outcomeReported(id(), 4, opus(4), 0).map((e) => e.type)).not.toContain('breaker.tripped');
    expect(session.outcomeReported(id(), 5, opus(5), 0).find((e) => e.type === 'breaker.tripped')?.payload).toMatchObject({ breaker: 'cost', reason: 'RUN_BUDGET_EXCEEDED', threshold: 5.5 });
  });

  it('does not stop a run for money spent before the throttle: the controller scales its limit without knowing the spend', () => {
    const session = SessionBreakers.open(DEFAULT_BREAKER_SETTINGS, 'agent-1', 's1', 0);
    const opus = (n: number) => ({ action_id: `x${n}`, status: 'success' as const, model: 'claude-opus-4-7', tokens: { prompt: 0, completion: 0, cache_read: 2_000_000 } }); // $1.00 each
    for (let i = 0; i < 42; i++) session.outcomeReported(id(), i, opus(i), 0);
    // The controller scaled its own $50 to $42.50, just above the $42 spent (a real Claude Code session, dev2's planetfall,
    // was stopped within a few calls that way). $42 spent, $8 left of $50, 0.85 of it: $48.80.
    expect(session.throttled(id(), { cost: 0.85 }, { max_cost_usd: 42.5 }).map((e) => e.type)).not.toContain('breaker.tripped');
    expect(session.ledger.throttle?.caps?.per_run).toBeCloseTo(48.8, 9);
    for (let i = 42; i < 48; i++) expect(session.outcomeReported(id(), i, opus(i), 0).map((e) => e.type)).not.toContain('breaker.tripped');
    expect(session.outcomeReported(id(), 49, opus(49), 0).find((e) => e.type === 'breaker.tripped')?.payload).toMatchObject({ breaker: 'cost', reason: 'RUN_BUDGET_EXCEEDED' });
  });

  it('applies each throttle once, and ignores factors that would loosen a limit', () => {
    const session = SessionBreakers.open(DEFAULT_BREAKER_SETTINGS, 'agent-1', 's1', 0);
    session.throttled('same', { iterations: 0.5 });
    session.throttled('same', { iterations: 0.5 });
    const caps = structuredClone(session.ledger.throttle?.caps);
    session.throttled(id(), { iterations: 3, cost: -1 });
    expect(session.ledger.throttle).toEqual({ iterations: 0.5, cost: 1, caps });
  });

  it('enforces the throttled file-operation limit from the moment it is set: writes and edits count, reads do not; the one past the limit trips', () => {
    const session = SessionBreakers.open(DEFAULT_BREAKER_SETTINGS, 'agent-1', 's1', 0);
    session.actionProposed(id(), 1, 'implementation', { tool: 'Write' });
    session.actionProposed(id(), 1, 'implementation', { tool: 'Write' });
    session.throttled(id(), {}, { max_file_operations: 3 });
    const events = [
      session.actionProposed(id(), 2, 'implementation', { tool: 'Read' }),
      session.actionProposed(id(), 3, 'implementation', { tool: 'Edit' }),
      session.actionProposed(id(), 4, 'implementation', { tool: 'Bash', kind: 'file_operation' }),
      session.actionProposed(id(), 4, 'implementation', { tool: 'Write' }),
    ].flat();
    expect(events.map((e) => e.type)).toEqual(['breaker.warning']);
    expect(session.ledger.usage).toEqual({ tokens: 0, file_operations: 3 });
    const tripping = session.actionProposed(id(), 5, 'implementation', { tool: 'MultiEdit' });
    expect(tripping.find((e) => e.type === 'breaker.tripped')?.payload).toMatchObject({
      breaker: 'iteration',
      reason: 'FILE_OPERATION_LIMIT_EXCEEDED',
      current_value: 4,
      threshold: 3,
    });
    expect(session.stateRecord(5).state).toBe('open');
  });

  it('enforces the throttled token limit on the cost breaker from the moment it is set, counting new tokens, not cached context', () => {
    const session = SessionBreakers.open(DEFAULT_BREAKER_SETTINGS, 'agent-1', 's1', 0);
    const outcome = (prompt: number, completion: number, cache_read = 0, cache_write = 0) => ({ action_id: id(), status: 'success' as const, model: 'claude-sonnet-4-5-20250929', tokens: { prompt, completion, cache_read, cache_write } });
    session.outcomeReported(id(), 1, outcome(400_000, 1_000), 0);
    session.throttled(id(), {}, { max_tokens: 10_000 });
    // Re-reading a 150,000-token cached context, or writing it to the cache again after a pause, is not new work.
    expect(session.outcomeReported(id(), 2, outcome(9_000, 999, 150_000, 140_000), 0).map((e) => e.type)).not.toContain('breaker.tripped');
    const tripping = session.outcomeReported(id(), 3, outcome(1, 0), 0);
    expect(tripping.find((e) => e.type === 'breaker.tripped')?.payload).toMatchObject({ breaker: 'cost', reason: 'TOKEN_LIMIT_EXCEEDED', current_value: 10_000, threshold: 10_000 });
  });

  it('keeps the lowest limit of several throttles, survives a restore, and an operator reset starts the count again', () => {
    const session = SessionBreakers.open(DEFAULT_BREAKER_SETTINGS, 'agent-1', 's1', 0);
    session.throttled(id(), {}, { max_file_operations: 5, max_tokens: 1_000 });
    session.throttled(id(), {}, { max_file_operations: 8, max_tokens: 0 });
    expect(session.ledger.throttle).toMatchObject({ max_file_operations: 5, max_tokens: 1_000 });
    const restored = SessionBreakers.restore(DEFAULT_BREAKER_SETTINGS, structuredClone(session.ledger));
    for (let i = 0; i < 6; i++) restored.actionProposed(id(), i, 'implementation', { tool: 'Write' });
    expect(restored.stateRecord(6).state).toBe('open');
    restored.command(id(), 7, { command: 'reset', breaker: 'iteration', operator_id: 'alice' });
    expect(restored.ledger.usage?.file_operations).toBe(0);
    expect(restored.actionProposed(id(), 8, 'implementation', { tool: 'Write' }).map((e) => e.type)).not.toContain('breaker.tripped');
  });
});
