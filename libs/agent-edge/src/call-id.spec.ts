import { CLOSED_CALLS_KEPT, DERIVED_CALLS_KEPT, deliveryOf, derivedCall, derivedCallKey, hasOpenCall, newCallId, noteOutcome, noteProposed, noteRefused, proposedIn, repeatedCallId } from './call-id.js';
import type { EdgeToolCall } from './edge-event.js';
import { emptySessionState } from './session-state.js';

describe('the id of a call the agent names no id for', () => {
  const payload = (command: string, timestamp: number) => ({ sessionId: 's-1', timestamp, toolName: 'bash', toolArgs: JSON.stringify({ command }) });
  const proposal = (command: string, timestamp = 1) => proposedIn(derivedCall('bash', { command }), payload(command, timestamp));
  const outcome = (command: string) => derivedCall('bash', { command });
  const id = (call: EdgeToolCall, tag: string) => `${call.id}-${tag}`;

  it('has a key that is the same for the same tool and input, whatever the key order, and a subject token', () => {
    expect(derivedCallKey('mcp', { a: 1, b: [2, { c: 3, d: 4 }] })).toBe(derivedCallKey('mcp', { b: [2, { d: 4, c: 3 }], a: 1 }));
    expect(derivedCallKey('Shell', { command: 'ls' })).not.toBe(derivedCallKey('Shell', { command: 'ls -a' }));
    expect(derivedCallKey('Shell', { command: 'ls' })).not.toBe(derivedCallKey('bash', { command: 'ls' }));
    expect(derivedCallKey('Shell', { command: 'ls' })).toMatch(/^d[0-9a-f]{32}$/);
  });

  it('takes a new id of its key for every call, a subject token', () => {
    const key = derivedCallKey('Shell', { command: 'ls' });
    const ids = new Set(Array.from({ length: 1000 }, () => newCallId(key)));
    expect(ids.size).toBe(1000);
    for (const each of ids) expect(each).toMatch(new RegExp(`^${key}-[0-9a-f]{16}[0-9a-z]+$`));
  });

  it('tells the same payload delivered again from the next call of the same command', () => {
    expect(deliveryOf(proposal('npm test', 1))).toBe(deliveryOf(proposal('npm test', 1)));
    expect(deliveryOf(proposal('npm test', 1))).not.toBe(deliveryOf(proposal('npm test', 2)));
    expect(deliveryOf(proposal('npm test', 1))).toMatch(/^[0-9a-f]{16}$/);
    expect(deliveryOf(outcome('npm test'))).toBeUndefined();
    expect(proposal('npm test', 1).id).toBe(proposal('npm test', 2).id);
    // A call the agent names is left as it is.
    expect(proposedIn({ id: 'toolu_1', tool: 'Bash', input: {} }, {})).toEqual({ id: 'toolu_1', tool: 'Bash', input: {} });
  });

  it('reports an outcome under its proposal’s id, and closes it', () => {
    const state = emptySessionState();
    const first = proposal('npm test');
    noteProposed(state, first, id(first, 'a1'));
    expect(hasOpenCall(state, outcome('npm test'))).toBe(true);
    expect(noteOutcome(state, outcome('npm test'))).toBe(id(first, 'a1'));
    expect(hasOpenCall(state, outcome('npm test'))).toBe(false);
    // Delivered again, the outcome keeps its id.
    expect(noteOutcome(state, outcome('npm test'))).toBe(id(first, 'a1'));
    // The next run of the same command is a proposal of its own, and its outcome goes to it.
    noteProposed(state, proposal('npm test', 2), id(first, 'a2'));
    expect(noteOutcome(state, outcome('npm test'))).toBe(id(first, 'a2'));
  });

  it('keeps the id of an open call for its payload delivered again, and only while it is open', () => {
    const state = emptySessionState();
    const call = proposal('npm test', 7);
    expect(repeatedCallId(state, call)).toBeUndefined();
    noteProposed(state, call, id(call, 'a1'));
    expect(repeatedCallId(state, call)).toBe(id(call, 'a1'));
    // Another payload of the same command is another call.
    expect(repeatedCallId(state, proposal('npm test', 8))).toBeUndefined();
    noteOutcome(state, outcome('npm test'));
    expect(repeatedCallId(state, call)).toBeUndefined();
  });

  it('closes a call the agent was told not to run, unless a later call of its key replaced it', () => {
    const state = emptySessionState();
    const call = proposal('rm -rf build');
    noteProposed(state, call, id(call, 'a1'));
    noteProposed(state, call, id(call, 'a2'));
    noteRefused(state, call, id(call, 'a1'));
    expect(repeatedCallId(state, call)).toBe(id(call, 'a2'));
    noteRefused(state, call, id(call, 'a2'));
    expect(repeatedCallId(state, call)).toBeUndefined();
    expect(state.derivedCalls![call.id]).toEqual({ tag: 'a2', closed: true });
    // Recorded refused at once when the answer came first.
    noteProposed(state, call, id(call, 'a3'), true);
    expect(state.derivedCalls![call.id]).toEqual({ tag: 'a3', closed: true });
    expect(noteOutcome(state, outcome('rm -rf build'))).toBe(id(call, 'a3'));
  });

  it('gives an outcome whose call was never proposed an id of its own, and keeps the state unchanged', () => {
    const state = emptySessionState();
    expect(noteOutcome(state, outcome('ls'))).toBe(`${outcome('ls').id}-unproposed`);
    expect(state.derivedCalls).toBeUndefined();
  });

  it(`remembers the ${DERIVED_CALLS_KEPT} open calls proposed last, and the ${CLOSED_CALLS_KEPT} closed ones`, () => {
    const state = emptySessionState();
    const echo = (i: number | string) => proposal(`echo ${i}`);
    noteProposed(state, echo(0), id(echo(0), 'first'));
    for (let i = 1; i <= DERIVED_CALLS_KEPT; i++) noteProposed(state, echo(i), id(echo(i), `t${i}`));
    expect(Object.keys(state.derivedCalls!)).toHaveLength(DERIVED_CALLS_KEPT);
    expect(state.derivedCalls![echo(0).id]).toBeUndefined();
    // Proposed again, a key is forgotten last.
    noteProposed(state, echo(1), id(echo(1), 'again'));
    noteProposed(state, echo('new'), id(echo('new'), 'new'));
    expect(state.derivedCalls![echo(1).id]?.tag).toBe('again');
    expect(state.derivedCalls![echo(2).id]).toBeUndefined();
    // Closed calls: the latest few.
    for (let i = 3; i <= 20; i++) noteOutcome(state, outcome(`echo ${i}`));
    const closed = Object.entries(state.derivedCalls!).filter(([, record]) => record.closed);
    expect(closed.map(([key]) => key)).toEqual(Array.from({ length: CLOSED_CALLS_KEPT }, (_, i) => echo(20 - CLOSED_CALLS_KEPT + 1 + i).id));
    expect(hasOpenCall(state, outcome('echo 21'))).toBe(true);
  });
});
