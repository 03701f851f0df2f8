import type { Step } from './action-step.js';
import { StepWindow } from './step-window.js';

/** As stored: JSON drops the fields a read step carries as undefined. */
const stored = (steps: readonly Step[]) => JSON.parse(JSON.stringify(steps)) as Step[];

const FULL: Step = {
  id: 'toolu_01',
  at: 1_772_442_000_123.5,
  tool: 'Bash',
  op: 'exec',
  sig: 'zik0zj',
  cmd: 'cp ~/other/.env ./.env && npm run dev &',
  paths: ['~/other/.env', '~/projects/cart/.env'],
  text: 'copy the settings',
  marks: ['bypass', 'secret'],
  ports: ['3000'],
  bg: -1,
  phase: 'testing',
  status: 'error',
  err: 'Error:1x2y3z',
  err_text: 'error boom',
  out: '5a5a',
  files_touched: 3,
  tokens: 6300,
  cost_usd: 0.0123,
  alignment: 0.25,
  blocked: true,
};

describe('StepWindow', () => {
  it('gives back every field of the steps it holds', () => {
    const steps: Step[] = [FULL, { id: 'a2', at: FULL.at + 1, tool: 'Read', op: 'read', sig: '0', paths: ['~/projects/cart/src/a.ts'], status: 'success', tokens: 0, files_touched: 0 }, { id: 'a3', at: FULL.at + 2 }];
    const window = StepWindow.of(steps, 65);
    expect(stored(window.steps())).toEqual(steps);
    expect(stored([window.step(1)])).toEqual([steps[1]]);
  });

  it('keeps as given what its bits cannot say', () => {
    const odd = {
      id: 'odd',
      at: 5,
      op: 'fly',
      sig: 'Not-A-Fingerprint',
      marks: ['secret', 'bypass'],
      phase: 'maintenance',
      status: 'pending',
      files_touched: 300_000,
      paths: [],
      text: '',
    } as unknown as Step;
    const big = { id: 'big', at: 6, sig: 'zzzzzzz', tokens: 2 ** 40 + 0.5 } as Step;
    expect(stored(StepWindow.of([odd, big], 65).steps())).toEqual([odd, big]);
  });

  it('packs the largest signature beside full bits exactly, and the tool with or without a rest', () => {
    const largest: Step = { id: 'l', at: 7, tool: 'Edit', op: 'other', sig: (2 ** 32 - 1).toString(36), phase: 'testing', status: 'error', bg: -1, marks: ['bypass', 'secret'], blocked: true, files_touched: 126 };
    const many: Step = { id: 'm', at: 8, tool: 'Write', sig: '0', files_touched: 127, err: 'E:1' };
    const toolless: Step = { id: 't', at: 9, err_text: 'boom' };
    expect(stored(StepWindow.of([largest, many, toolless], 65).steps())).toEqual([largest, many, toolless]);
  });

  it('packs whole tokens beside the tool, keeps other tokens and tools beyond the last number as given', () => {
    const tokens: Step[] = [
      { id: 'none', at: 1, tool: 'Bash' },
      { id: 'zero', at: 2, tool: 'Bash', tokens: 0 },
      { id: 'largest', at: 3, tool: 'Read', tokens: 2 ** 42 - 2 },
      { id: 'beyond', at: 4, tool: 'Read', tokens: 2 ** 42 },
      { id: 'part', at: 5, tokens: 12.5 },
      { id: 'below', at: 6, tool: 'Edit', tokens: -3 },
    ];
    expect(stored(StepWindow.of(tokens, 65).steps())).toEqual(tokens);
    // More tool names than numbers: the later ones are held as they are, and found by their ids all the same.
    const tools: Step[] = Array.from({ length: 1100 }, (_, i) => ({ id: `t${i}`, at: i, tool: `mcp__server${i % 3}__tool${i}`, tokens: i }));
    const window = StepWindow.of(tools, 1100);
    expect(stored(window.steps())).toEqual(tools);
    expect([window.indexOf('t3'), window.indexOf('t1099')]).toEqual([3, 1099]);
    expect(StepWindow.of([FULL], 65).indexOf(FULL.id)).toBe(0);
  });

  it('inserts in proposal order, replaces, removes and drops the oldest', () => {
    const window = new StepWindow(4);
    for (const [id, at] of [['b', 20], ['d', 40], ['a', 10], ['c', 30], ['c2', 30]] as const) window.insert({ id, at });
    expect(window.steps().map((s) => s.id)).toEqual(['a', 'b', 'c', 'c2', 'd']);
    expect(window.indexOf('c')).toBe(2);
    expect(window.indexOf('x')).toBe(-1);
    window.replace(2, { id: 'c', at: 30, status: 'success' });
    window.remove(0);
    expect(window.steps().map((s) => [s.id, s.status])).toEqual([
      ['b', undefined],
      ['c', 'success'],
      ['c2', undefined],
      ['d', undefined],
    ]);
    window.dropOldest(3);
    expect(window.steps().map((s) => s.id)).toEqual(['d']);
    expect(window.timeAt(0)).toBe(40);
    window.clear();
    expect(window.length).toBe(0);
  });

  it('holds more steps than its bound when it is given more (a snapshot from a larger window)', () => {
    const steps = Array.from({ length: 10 }, (_, i) => ({ id: `s${i}`, at: i }));
    const window = StepWindow.of(steps, 3);
    window.insert({ id: 'late', at: 100 });
    expect(window.steps().map((s) => s.id)).toEqual([...steps.map((s) => s.id), 'late']);
  });

  it('gives the steps it last read again until it changes (the detectors, then the stored snapshot)', () => {
    const window = StepWindow.of([{ id: 'a', at: 1 }], 65);
    const read = window.steps();
    expect(window.steps()).toBe(read);
    StepWindow.of([{ id: 'b', at: 1 }], 65).steps();
    expect(window.steps()).not.toBe(read);
    const again = window.steps();
    window.replace(0, { id: 'a', at: 1, status: 'success' });
    expect(window.steps()).not.toBe(again);
    expect(window.steps()[0]!.status).toBe('success');
  });
});
