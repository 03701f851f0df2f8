import { validateMessage, createMessage, type BreakerStateRecord } from '@warden/contracts';
import { DEFAULT_BREAKER_SETTINGS, type BreakerSettings } from './breaker-settings.js';
import { seedSettings } from './seed-settings.fixture.js';
import { SessionBreakers, type BreakerEvent } from './session-breakers.js';
import { RAISE_OR_RESET } from './cost-measure.js';

const MINUTE = 60_000;
let sequence = 0;
const id = () => `m-${++sequence}`;

/**
 * The seed's defaults (its iteration limit without a phase, and its Opus 4.6 price, which has since fallen),
 * but phases with room to spend so that the run budget is the one reached.
 */
function settings(change: (s: BreakerSettings) => void = () => undefined): BreakerSettings {
  const s = seedSettings();
  s.cost.pricing = { 'claude-opus-4-6': { input: 0.015, output: 0.075 } };
  for (const phase of Object.keys(s.cost.budgets.per_phase) as (keyof typeof s.cost.budgets.per_phase)[]) s.cost.budgets.per_phase[phase] = 1000;
  change(s);
  return s;
}

const types = (events: BreakerEvent[]) => events.map((e) => e.type);
const expensive = { action_id: 'a', status: 'success' as const, model: 'claude-opus-4-6', tokens: { prompt: 100_000, completion: 100_000 } }; // $9.00

/** Every event the aggregate produces is a valid message of the contract. */
function expectValid(events: BreakerEvent[]): void {
  for (const event of events) {
    const message = createMessage(event.type, { session_id: 's1', agent_id: 'agent-1', payload: event.payload as never });
    expect(validateMessage(message).ok).toBe(true);
  }
}

function breakerOf(record: BreakerStateRecord, kind: string) {
  return record.breakers.find((b) => b.breaker === kind)!;
}

describe('SessionBreakers', () => {
  it('trips the cost breaker when the run budget is passed, and the state says why and what to do', () => {
    const session = SessionBreakers.open(settings(), 'agent-1', 's1', 0);
    let events: BreakerEvent[] = [];
    let day = 0;
    for (let i = 0; i < 6; i++) {
      day += 9;
      events = session.outcomeReported(id(), i, { ...expensive, action_id: `a${i}` }, day);
      expectValid(events);
    }
    expect(types(events)).toEqual(['breaker.cost_recorded', 'breaker.tripped', 'breaker.state_changed']);
    expect(events[1]!.payload).toMatchObject({ breaker: 'cost', reason: 'RUN_BUDGET_EXCEEDED', current_value: 54, threshold: 50, mode: 'enforce' });
    const record = session.stateRecord(10);
    expect(record.state).toBe('open');
    expect(breakerOf(record, 'cost')).toMatchObject({
      state: 'open',
      reason: 'RUN_BUDGET_EXCEEDED',
      suggestion: `Run spent $54.00 of its $50.00 budget. ${RAISE_OR_RESET}`,
      retry_at: new Date(5 + 5 * MINUTE).toISOString(),
    });
  });

  it("publishes the run's spend to the cent in the state record, and none after an operator resets the cost breaker", () => {
    const session = SessionBreakers.open(settings(), 'agent-1', 's1', 0);
    expect(session.stateRecord(0)).not.toHaveProperty('spend_usd');
    session.outcomeReported(id(), 1, { ...expensive, action_id: 'c1' }, 9);
    session.outcomeReported(id(), 2, { ...expensive, action_id: 'c2', tokens: { prompt: 1_000, completion: 333 } }, 9);
    // $9.00 and $0.039975: the record says $9.04.
    expect(session.stateRecord(3).spend_usd).toBe(9.04);
    session.command(id(), 4, { command: 'reset', breaker: 'cost', operator_id: 'op-1' });
    expect(session.stateRecord(5)).not.toHaveProperty('spend_usd');
  });

  it('warns once per crossing, not on every event past the warning fraction', () => {
    const session = SessionBreakers.open(settings(), 'agent-1', 's1', 0);
    const warnings: BreakerEvent[] = [];
    for (let i = 0; i < 12; i++) warnings.push(...session.actionProposed(id(), i, 'review').filter((e) => e.type === 'breaker.warning'));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]!.payload).toMatchObject({ breaker: 'iteration', reason: 'APPROACHING_ITERATION_LIMIT', current_value: 8, threshold: 10 });
  });

  it('applies a message once, however often it is delivered', () => {
    const session = SessionBreakers.open(settings(), 'agent-1', 's1', 0);
    const first = session.outcomeReported('dup', 0, expensive, 9);
    expect(types(first)).toEqual(['breaker.cost_recorded']);
    expect(session.outcomeReported('dup', 0, expensive, 9)).toEqual([]);
    expect(session.ledger.cost.run).toBe(9);
  });

  it('prices a model it does not list by the documented fallback, never as zero, and says so once per session', () => {
    const session = SessionBreakers.open(settings(), 'agent-1', 's1', 0);
    const events = session.outcomeReported(id(), 0, { ...expensive, model: 'gpt-9-ultra' }, 0);
    expectValid(events);
    expect(events).toEqual([
      { type: 'breaker.error', payload: expect.objectContaining({ code: 'unknown_model', action_id: 'a', message: expect.stringContaining('"gpt-9-ultra" in the pricing table; it is priced as claude-sonnet-4-6') }) },
      { type: 'breaker.cost_recorded', payload: expect.objectContaining({ model: 'gpt-9-ultra', cost_usd: expect.closeTo(1.8, 9) }) },
    ]);
    expect(session.ledger.cost.run).toBeCloseTo(1.8, 9);
    expect(types(session.outcomeReported(id(), 1, { ...expensive, action_id: 'b', model: 'gpt-9-ultra' }, 0))).toEqual(['breaker.cost_recorded']);
    expect(types(session.outcomeReported(id(), 2, { ...expensive, model: undefined }, 0))).toEqual(['breaker.error']);
  });

  it('prices cache reads and writes at their own prices, as a real Claude Code turn reports them', () => {
    const session = SessionBreakers.open(DEFAULT_BREAKER_SETTINGS, 'agent-1', 's1', 0);
    const turn = { action_id: 't', status: 'success' as const, model: 'claude-opus-4-7', tokens: { prompt: 6, completion: 350, cache_read: 95_000, cache_write: 1_200 } };
    const events = session.outcomeReported(id(), 0, turn, 0);
    expectValid(events);
    expect(events).toEqual([{ type: 'breaker.cost_recorded', payload: expect.objectContaining({ prompt_tokens: 96_206, completion_tokens: 350, cost_usd: expect.closeTo(0.06378, 9) }) }]);
  });

  it('trips on the same action failing the same way again and again, and holds back only that action', () => {
    const session = SessionBreakers.open(DEFAULT_BREAKER_SETTINGS, 'agent-1', 's1', 0);
    const build = { tool: 'Bash', input: { command: 'cargo build' } };
    const fail = (n: number, line: number) => {
      session.actionProposed(id(), n, undefined, { action_id: `b${n}`, ...build });
      return session.outcomeReported(id(), n, { action_id: `b${n}`, status: 'error', error: { message: `error[E0277]: the trait bound is not satisfied --> src/main.rs:${line}:5` } }, 0);
    };
    fail(1, 10);
    // An edit in between does not break the run: the same build fails the same way after it.
    session.actionProposed(id(), 2, undefined, { action_id: 'e1', tool: 'Edit', input: { file_path: '/w/Cargo.toml', old_string: 'a', new_string: 'b' } });
    session.outcomeReported(id(), 2, { action_id: 'e1', status: 'success' }, 0);
    fail(3, 11);
    fail(4, 12);
    expect(types(fail(5, 13))).toEqual(['breaker.warning']);
    const trip = fail(6, 14);
    expectValid(trip);
    expect(trip.find((e) => e.type === 'breaker.tripped')?.payload).toMatchObject({ breaker: 'iteration', reason: 'REPEATED_FAILURE', current_value: 5, threshold: 5 });
    expect(breakerOf(session.stateRecord(6), 'iteration')).toMatchObject({ state: 'open', repeated_action: { tool: 'Bash', target: 'cargo build' } });
  });

  it('does not count calls made together as retries: a batch of parallel edits fails together, once', () => {
    const session = SessionBreakers.open(DEFAULT_BREAKER_SETTINGS, 'agent-1', 's1', 0);
    const edit = (n: number) => ({ action_id: `p${n}`, tool: 'Edit', input: { file_path: '/w/src/style.css', old_string: `a${n}`, new_string: `b${n}` } });
    // Six edits of one file proposed at once, before any answer; each fails because the file changed on disk.
    for (let n = 1; n <= 6; n++) session.actionProposed(id(), 100, undefined, edit(n));
    const answers = [];
    for (let n = 1; n <= 6; n++) answers.push(...session.outcomeReported(id(), 200 + n, { action_id: `p${n}`, status: 'error', error: { message: 'File has been modified since read' } }, 0));
    expect(answers.map((e) => e.type)).not.toContain('breaker.tripped');
    // Retried one after another, each after the last failure came back, they are retries.
    const retries = [];
    for (let n = 7; n <= 10; n++) {
      session.actionProposed(id(), 300 + n * 10, undefined, edit(n));
      retries.push(...session.outcomeReported(id(), 301 + n * 10, { action_id: `p${n}`, status: 'error', error: { message: 'File has been modified since read' } }, 0));
    }
    expect(retries.find((e) => e.type === 'breaker.tripped')?.payload).toMatchObject({ breaker: 'iteration', reason: 'REPEATED_FAILURE', current_value: 5 });
  });

  it('does not count the calls of one model response as retries, even run one after another', () => {
    // Claude Code runs the six edits of one response in turn, each proposed after the last one failed
    // (github.com/blackgirlbytes/planetfall-seed-signalkit, 07/d253ca52d8/4/full.jsonl): only the response's id tells.
    const session = SessionBreakers.open(DEFAULT_BREAKER_SETTINGS, 'agent-1', 's1', 0);
    const edit = (n: number, turn: string) => ({ action_id: `q${n}`, tool: 'Edit', input: { file_path: '/w/src/style.css', old_string: `a${n}`, new_string: `b${n}` }, turn });
    const stale = { status: 'error' as const, error: { message: 'File has been modified since read' } };
    const answers = [];
    for (let n = 1; n <= 6; n++) {
      session.actionProposed(id(), n * 10, undefined, edit(n, 'msg_01WUGQt4'));
      answers.push(...session.outcomeReported(id(), n * 10 + 1, { action_id: `q${n}`, ...stale }, 0));
    }
    expect(answers.map((e) => e.type)).not.toContain('breaker.tripped');
    // Four more responses that each try it again: five in all, the loop.
    const retries = [];
    for (let n = 7; n <= 10; n++) {
      session.actionProposed(id(), n * 10, undefined, edit(n, `msg_${n}`));
      retries.push(...session.outcomeReported(id(), n * 10 + 1, { action_id: `q${n}`, ...stale }, 0));
    }
    expect(retries.find((e) => e.type === 'breaker.tripped')?.payload).toMatchObject({ breaker: 'iteration', reason: 'REPEATED_FAILURE', current_value: 5 });
    // Claude Code's hook can tell the response only once a call has run: said with the outcome, it counts the same.
    const live = SessionBreakers.open(DEFAULT_BREAKER_SETTINGS, 'agent-1', 's2', 0);
    const told = [];
    for (let n = 1; n <= 6; n++) {
      live.actionProposed(id(), n * 10, undefined, { ...edit(n, 'x'), turn: undefined });
      told.push(...live.outcomeReported(id(), n * 10 + 1, { action_id: `q${n}`, ...stale, turn: 'msg_01WUGQt4' }, 0));
    }
    expect(told.map((e) => e.type)).not.toContain('breaker.tripped');
  });

  it('lets the held edit through once the agent has read the file it kept failing on', () => {
    const session = SessionBreakers.open(DEFAULT_BREAKER_SETTINGS, 'agent-1', 's1', 0);
    const css = '/w/src/style.css';
    const act = (n: number, tool: string, input: Record<string, unknown>, outcome: { status: 'success' } | { status: 'error'; error: { message: string } }) => {
      session.actionProposed(id(), n * 10, undefined, { action_id: `a${n}`, tool, input });
      return session.outcomeReported(id(), n * 10 + 1, { action_id: `a${n}`, ...outcome }, 0);
    };
    const stale = { status: 'error' as const, error: { message: 'File has been modified since read, either by the user or by a linter. Read it again before attempting to write it.' } };
    // Five edits in a row, each failing because the file changed on disk (a Claude Code session, one after another).
    const trip = [1, 2, 3, 4, 5].flatMap((n) => act(n, 'Edit', { file_path: css, old_string: `a${n}`, new_string: `b${n}` }, stale));
    expect(trip.find((e) => e.type === 'breaker.tripped')?.payload).toMatchObject({ reason: 'REPEATED_FAILURE' });
    // Something else on another target changes nothing about the hold.
    act(6, 'Read', { file_path: '/w/src/main.js' }, { status: 'success' });
    expect(breakerOf(session.stateRecord(61), 'iteration')).toMatchObject({ state: 'open', repeated_action: { tool: 'Edit', target: css } });
    // The agent reads the file, as the error told it to: the next edit is no blind repeat.
    const read = act(7, 'Read', { file_path: css, offset: 340, limit: 40 }, { status: 'success' });
    expectValid(read);
    expect(read).toContainEqual({ type: 'breaker.state_changed', payload: expect.objectContaining({ breaker: 'iteration', from: 'open', to: 'closed', cause: 'resolved' }) });
    expect(session.stateRecord(71).state).toBe('closed');
    // And its run starts again from nothing: one more failure is one, not six.
    expect(types(act(8, 'Edit', { file_path: css, old_string: 'a8', new_string: 'b8' }, stale))).toEqual([]);
  });

  it('keeps holding a command that failed again and again after other work succeeded', () => {
    const session = SessionBreakers.open(DEFAULT_BREAKER_SETTINGS, 'agent-1', 's1', 0);
    for (let n = 1; n <= 5; n++) {
      session.actionProposed(id(), n * 10, undefined, { action_id: `b${n}`, tool: 'Bash', input: { command: 'cargo build' } });
      session.outcomeReported(id(), n * 10 + 1, { action_id: `b${n}`, status: 'error', error: { message: 'error[E0277]: the trait bound is not satisfied' } }, 0);
    }
    session.actionProposed(id(), 60, undefined, { action_id: 'r', tool: 'Read', input: { file_path: '/w/src/main.rs' } });
    expect(types(session.outcomeReported(id(), 61, { action_id: 'r', status: 'success' }, 0))).toEqual([]);
    expect(breakerOf(session.stateRecord(62), 'iteration')).toMatchObject({ state: 'open', repeated_action: { tool: 'Bash', target: 'cargo build' } });
  });

  it('counts the checks an agent runs as the iterations of a declared phase, not every read and edit', () => {
    const session = SessionBreakers.open(DEFAULT_BREAKER_SETTINGS, 'agent-1', 's1', 0);
    session.started(id(), 0, 'testing');
    let n = 0;
    const act = (tool: string, input: Record<string, unknown>) => session.actionProposed(id(), ++n, 'testing', { action_id: `a${n}`, tool, input });
    for (let i = 0; i < 12; i++) act('Read', { file_path: `/w/src/f${i}.ts` });
    for (let i = 0; i < 6; i++) act('Edit', { file_path: '/w/src/a.ts', old_string: `${i}`, new_string: `${i + 1}` });
    expect(session.stateRecord(n).state).toBe('closed');
    for (let i = 0; i < 5; i++) act('Bash', { command: 'npx vitest run test/cart.test.ts' });
    expect(session.stateRecord(n).state).toBe('closed');
    const trip = act('Bash', { command: 'npx vitest run test/cart.test.ts' });
    expect(trip.find((e) => e.type === 'breaker.tripped')?.payload).toMatchObject({ breaker: 'iteration', reason: 'MAX_ITERATIONS_EXCEEDED', current_value: 6, threshold: 5 });
  });

  it('does not count a different failure, or a success, as repetition', () => {
    const session = SessionBreakers.open(DEFAULT_BREAKER_SETTINGS, 'agent-1', 's1', 0);
    const run = (n: number, status: 'success' | 'error', message = 'AssertionError: expected 2 to equal 3') => {
      session.actionProposed(id(), n, undefined, { action_id: `t${n}`, tool: 'Bash', input: { command: 'npm test' } });
      return session.outcomeReported(id(), n, { action_id: `t${n}`, status, ...(status === 'error' ? { error: { message } } : {}) }, 0);
    };
    for (let i = 0; i < 4; i++) run(i, 'error');
    run(4, 'success');
    for (let i = 5; i < 9; i++) run(i, 'error');
    run(9, 'error', 'TypeError: cannot read properties of undefined');
    for (let i = 10; i < 14; i++) run(i, 'error', `test ${i} failed: timeout`);
    expect(breakerOf(session.stateRecord(14), 'iteration').state).toBe('closed');
  });

  it('trips the time breaker of a silent session on a tick, and says when it needs the next one', () => {
    const session = SessionBreakers.open(settings(), 'agent-1', 's1', 0);
    session.started(id(), 0, 'deployment');
    expect(session.nextWakeAt(0)).toBe(13.5 * MINUTE);
    const warning = session.tick(13.5 * MINUTE);
    expect(warning).toEqual([{ type: 'breaker.warning', payload: expect.objectContaining({ breaker: 'time', reason: 'PHASE_TIMEOUT_WARNING' }) }]);
    expect(session.nextWakeAt(13.5 * MINUTE)).toBe(15 * MINUTE);
    const trip = session.tick(15 * MINUTE);
    expectValid(trip);
    expect(types(trip)).toEqual(['breaker.tripped', 'breaker.state_changed']);
    expect(trip[0]!.payload).toMatchObject({ breaker: 'time', reason: 'PHASE_TIMEOUT_EXCEEDED' });
    expect(session.stateRecord(15 * MINUTE).state).toBe('open');
    // Now the breaker's own reset time is next.
    expect(session.nextWakeAt(15 * MINUTE)).toBe(20 * MINUTE);
  });

  it('still names a deadline the clock passed after a tick that came a millisecond before it', () => {
    const session = SessionBreakers.open(settings(), 'agent-1', 's1', 0);
    session.started(id(), 0, 'deployment');
    session.tick(13.5 * MINUTE);
    // A timer fired a millisecond early: nothing to trip yet.
    expect(types(session.tick(15 * MINUTE - 1))).toEqual([]);
    // By the time the next wake is armed the clock is past the timeout: it is named, so the wake comes at once.
    expect(session.nextWakeAt(15 * MINUTE + 2)).toBe(15 * MINUTE);
    expect(types(session.tick(15 * MINUTE + 2))).toContain('breaker.tripped');
  });

  it('gives a phase warning already due when the start is handled late, and still trips on time', () => {
    const session = SessionBreakers.open(settings(), 'agent-1', 's1', 0);
    // Stored at 0, handled 14 minutes later: past the warning (13.5), before the timeout (15).
    const late = session.started(id(), 0, 'deployment', 14 * MINUTE);
    expect(late).toEqual([{ type: 'breaker.warning', payload: expect.objectContaining({ breaker: 'time', reason: 'PHASE_TIMEOUT_WARNING' }) }]);
    expect(session.nextWakeAt(14 * MINUTE)).toBe(15 * MINUTE);
    expect(types(session.tick(15 * MINUTE))).toEqual(['breaker.tripped', 'breaker.state_changed']);
    // Handled at once, nothing is due yet.
    const prompt = SessionBreakers.open(settings(), 'agent-1', 's2', 0);
    expect(prompt.started(id(), 0, 'deployment', 1000)).toEqual([]);
  });

  it('says a silent session is due when a deadline passed unwatched, and not once the tick has given it', () => {
    const session = SessionBreakers.open(settings(), 'agent-1', 's1', 0);
    session.started(id(), 0, 'deployment');
    expect(session.isDue(10 * MINUTE)).toBe(false);
    // Restored after the service was down from minute 10 to 16: warning and timeout both passed, nothing looks ahead to them.
    const next = session.nextWakeAt(16 * MINUTE);
    expect(next === undefined || next > 16 * MINUTE).toBe(true);
    expect(session.isDue(16 * MINUTE)).toBe(true);
    expect(session.stateRecord(16 * MINUTE).state).toBe('closed');
    expect(types(session.tick(16 * MINUTE))).toContain('breaker.tripped');
    expect(session.isDue(16 * MINUTE)).toBe(false);
  });

  it('probes in HALF_OPEN with the agent\'s own events and closes when they pass', () => {
    const session = SessionBreakers.open(settings(), 'agent-1', 's1', 0);
    for (let i = 0; i < 10; i++) session.outcomeReported(id(), 0, { action_id: `e${i}`, status: 'error' }, 0);
    expect(breakerOf(session.stateRecord(0), 'error_rate').state).toBe('open');
    expect(types(session.tick(5 * MINUTE))).toEqual(['breaker.state_changed']);
    expect(session.stateRecord(5 * MINUTE).state).toBe('half_open');
    // A timer tick is not a probe.
    session.tick(5 * MINUTE + 1);
    expect(session.ledger.circuits.error_rate.probes_passed).toBe(0);
    session.outcomeReported(id(), 5 * MINUTE + 2, { action_id: 'p1', status: 'success' }, 0);
    session.outcomeReported(id(), 5 * MINUTE + 3, { action_id: 'p2', status: 'success' }, 0);
    const closing = session.outcomeReported(id(), 5 * MINUTE + 4, { action_id: 'p3', status: 'success' }, 0);
    expect(closing).toEqual([
      { type: 'breaker.state_changed', payload: expect.objectContaining({ breaker: 'error_rate', from: 'half_open', to: 'closed', cause: 'probe_succeeded' }) },
    ]);
    expect(session.stateRecord(6 * MINUTE).state).toBe('closed');
  });

  it('re-opens with a longer wait when a probe fails', () => {
    const session = SessionBreakers.open(settings(), 'agent-1', 's1', 0);
    for (let i = 0; i < 10; i++) session.outcomeReported(id(), 0, { action_id: `e${i}`, status: 'error' }, 0);
    session.tick(5 * MINUTE);
    const events = session.outcomeReported(id(), 5 * MINUTE + 1, { action_id: 'f1', status: 'error' }, 0);
    expect(events[0]).toEqual({ type: 'breaker.tripped', payload: expect.objectContaining({ breaker: 'error_rate', reason: 'ERROR_DURING_RECOVERY' }) });
    expect(session.ledger.circuits.error_rate).toMatchObject({ state: 'open', consecutive_opens: 2, retry_at: 5 * MINUTE + 1 + 10 * MINUTE });
  });

  it('does not count actions refused while the iteration breaker is open, and a new phase starts its count again', () => {
    const session = SessionBreakers.open(settings(), 'agent-1', 's1', 0);
    session.started(id(), 0, 'deployment');
    for (let i = 0; i < 4; i++) session.actionProposed(id(), i, undefined);
    expect(session.stateRecord(4).state).toBe('open');
    for (let i = 0; i < 5; i++) session.actionProposed(id(), 10 + i, undefined);
    expect(session.ledger.iteration.counts.deployment).toBe(4);
    session.phaseChanged(id(), 20, 'testing');
    expect(session.ledger.iteration.counts.testing).toBeUndefined();
  });

  it('trips on stagnation reported with outcomes', () => {
    const session = SessionBreakers.open(settings(), 'agent-1', 's1', 0);
    session.started(id(), 0, 'testing');
    let events: BreakerEvent[] = [];
    for (let i = 0; i < 3; i++) events = session.outcomeReported(id(), i, { action_id: `t${i}`, status: 'success', progress: { tests_passed: 0 } }, 0);
    expect(events[0]).toEqual({ type: 'breaker.tripped', payload: expect.objectContaining({ breaker: 'iteration', reason: 'STAGNATION_DETECTED' }) });
  });

  it('carries out operator commands and records each one', () => {
    const session = SessionBreakers.open(settings(), 'agent-1', 's1', 0);
    const forced = session.command(id(), 1, { command: 'force_open', breaker: 'time', operator_id: 'op-1', reason: 'looks stuck' });
    expectValid(forced);
    expect(forced).toEqual([
      { type: 'breaker.state_changed', payload: expect.objectContaining({ breaker: 'time', from: 'closed', to: 'open', cause: 'operator', operator_id: 'op-1' }) },
      { type: 'breaker.command_applied', payload: expect.objectContaining({ command: 'force_open', breaker: 'time', changed: ['time'] }) },
    ]);
    expect(session.nextWakeAt(1)).toBe(120 * MINUTE * 0.9);
    expect(breakerOf(session.stateRecord(1), 'time')).toMatchObject({ state: 'open', reason: 'force_open by op-1: looks stuck' });

    const disabled = session.command(id(), 2, { command: 'disable', breaker: 'all', operator_id: 'op-1' });
    expect(disabled[0]!.payload).toMatchObject({ command: 'disable', changed: ['iteration', 'cost', 'time', 'error_rate'] });
    expect(session.stateRecord(2).state).toBe('closed');
    for (let i = 0; i < 6; i++) session.outcomeReported(id(), 3, { ...expensive, action_id: `d${i}` }, 54);
    expect(session.ledger.circuits.cost.state).toBe('closed');

    session.command(id(), 4, { command: 'enable', breaker: 'all', operator_id: 'op-1' });
    expect(session.stateRecord(4).state).toBe('open');
    const reset = session.command(id(), 5, { command: 'reset', breaker: 'all', operator_id: 'op-1' });
    expect(reset.at(-1)!.payload).toMatchObject({ command: 'reset', changed: ['time'] });
    expect(session.ledger.cost.run).toBe(0);
    expect(session.stateRecord(5).state).toBe('closed');
  });

  it('a reset clears the measure, so the next action is not blocked by the same figures', () => {
    const session = SessionBreakers.open(settings(), 'agent-1', 's1', 0);
    for (let i = 0; i < 6; i++) session.outcomeReported(id(), i, { ...expensive, action_id: `c${i}` }, 9 * (i + 1));
    expect(session.stateRecord(6).state).toBe('open');
    session.command(id(), 7, { command: 'reset', breaker: 'cost', operator_id: 'op-1' });
    expect(session.stateRecord(7).state).toBe('closed');
    expect(types(session.outcomeReported(id(), 8, { ...expensive, action_id: 'after' }, 63))).toEqual(['breaker.cost_recorded']);
    expect(session.stateRecord(8).state).toBe('closed');
  });

  it('in metrics-only mode reports the trip but leaves the session unblocked', () => {
    const session = SessionBreakers.open(settings((s) => (s.cost.mode = 'metrics_only')), 'agent-1', 's1', 0);
    let events: BreakerEvent[] = [];
    for (let i = 0; i < 6; i++) events = session.outcomeReported(id(), i, { ...expensive, action_id: `m${i}` }, 9 * (i + 1));
    expect(events[1]).toEqual({ type: 'breaker.tripped', payload: expect.objectContaining({ mode: 'metrics_only' }) });
    const record = session.stateRecord(6);
    expect(record.state).toBe('closed');
    expect(breakerOf(record, 'cost')).toMatchObject({ state: 'open', metrics_only: true });
  });

  it('an ended session needs no timer and trips nothing more', () => {
    const session = SessionBreakers.open(settings(), 'agent-1', 's1', 0);
    session.started(id(), 0, 'deployment');
    session.end(id());
    expect(session.nextWakeAt(0)).toBeUndefined();
    expect(session.tick(200 * MINUTE)).toEqual([]);
  });

  it('survives a round trip through its stored ledger', () => {
    const session = SessionBreakers.open(settings(), 'agent-1', 's1', 0);
    session.started(id(), 0, 'implementation');
    for (let i = 0; i < 5; i++) session.actionProposed(id(), i, undefined);
    const restored = SessionBreakers.restore(settings(), JSON.parse(JSON.stringify(session.ledger)));
    expect(restored.stateRecord(5)).toEqual(session.stateRecord(5));
    restored.actionProposed(id(), 6, undefined);
    expect(restored.ledger.iteration.counts.implementation).toBe(6);
  });
});
