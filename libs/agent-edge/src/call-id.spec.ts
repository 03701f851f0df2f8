import { derivedCallKey, numberedCall } from './call-id.js';
import { emptySessionState } from './session-state.js';

describe('the id of a call the agent names no id for', () => {
  const call = (command: string) => ({ id: derivedCallKey('Shell', { command }), derived: true, tool: 'Shell', input: { command } });

  it('is the same for the same tool and input, whatever the key order, and a subject token', () => {
    expect(derivedCallKey('mcp', { a: 1, b: [2, { c: 3, d: 4 }] })).toBe(derivedCallKey('mcp', { b: [2, { d: 4, c: 3 }], a: 1 }));
    expect(derivedCallKey('Shell', { command: 'ls' })).not.toBe(derivedCallKey('Shell', { command: 'ls -a' }));
    expect(derivedCallKey('Shell', { command: 'ls' })).not.toBe(derivedCallKey('bash', { command: 'ls' }));
    expect(derivedCallKey('Shell', { command: 'ls' })).toMatch(/^d[0-9a-f]{32}$/);
  });

  it('numbers each run of the same call, and gives the outcome after it the number of the latest', () => {
    const state = emptySessionState();
    const test = call('npm test');
    const build = call('npm run build');
    expect(numberedCall(state, 'before_tool', test)).toBe(`${test.id}-1`);
    expect(numberedCall(state, 'after_tool', test)).toBe(`${test.id}-1`);
    expect(numberedCall(state, 'before_tool', build)).toBe(`${build.id}-1`);
    expect(numberedCall(state, 'before_tool', test)).toBe(`${test.id}-2`);
    expect(numberedCall(state, 'after_tool', build)).toBe(`${build.id}-1`);
    expect(numberedCall(state, 'after_tool', test)).toBe(`${test.id}-2`);
    expect(state.callRuns).toEqual({ [build.id]: 1, [test.id]: 2 });
  });

  it('gives an outcome whose call was never proposed the first number, and keeps the state unchanged', () => {
    const state = emptySessionState();
    expect(numberedCall(state, 'after_tool', call('ls'))).toBe(`${call('ls').id}-1`);
    expect(state.callRuns).toBeUndefined();
  });

  it('keeps the numbers of the 500 calls used last', () => {
    const state = emptySessionState();
    const first = call('echo 0');
    numberedCall(state, 'before_tool', first);
    for (let i = 1; i <= 500; i++) numberedCall(state, 'before_tool', call(`echo ${i}`));
    expect(Object.keys(state.callRuns!)).toHaveLength(500);
    expect(state.callRuns![first.id]).toBeUndefined();
    expect(state.callRuns![call('echo 500').id]).toBe(1);
  });
});
