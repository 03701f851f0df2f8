import { readFileSync } from 'node:fs';
import { resolvePatternSettings } from './detector-settings-file.js';
import type { PatternReport } from './session-patterns.js';
import { SessionDriver, T0 } from './session-driver.fixture.js';
import { SessionPatterns } from './session-patterns.js';
import type { SessionSnapshot } from './session-state.js';

const CWD = '/home/dev/projects/cart';
const failing = (line: number) => ({ error: `TypeError: x is undefined at src/cart.ts:${line}`, errorClass: 'TypeError' });

describe('episodes', () => {
  it('reports a pattern once while it continues, closes the episode after quiet evaluations, and numbers the next one', () => {
    const s = new SessionDriver();
    for (let i = 0; i < 4; i++) s.bash('npm test', failing(i));
    expect(s.of('repetitive_errors').map((r) => [r.severity, r.episode])).toEqual([['medium', 1]]);
    s.bash('npm test'); // success ends the run: one quiet evaluation for the action, one for the outcome
    s.read(`${CWD}/src/cart.ts`); // two more: closed after three
    expect(s.patterns.snapshot.episodes.repetitive_errors).toMatchObject({ n: 1, open: false });
    for (let i = 0; i < 3; i++) s.bash('npm test', failing(i));
    expect(s.of('repetitive_errors').map((r) => [r.severity, r.episode])).toEqual([
      ['medium', 1],
      ['medium', 2],
    ]);
    expect(s.last('repetitive_errors')!.pattern_id).not.toBe(s.of('repetitive_errors')[0]!.pattern_id);
  });

  it('keeps an episode open across a short pause in the evidence', () => {
    // Each action is two evaluations (proposal, outcome): the pause and the new run are seven.
    const s = SessionDriver.with({ episode: { quiet_evaluations: 8 } });
    for (let i = 0; i < 3; i++) s.bash('npm test', failing(i));
    s.bash('npm test');
    for (let i = 0; i < 3; i++) s.bash('npm test', failing(i));
    expect(s.of('repetitive_errors').map((r) => r.episode)).toEqual([1]);
  });

  it('re-reports one severity higher when the evidence grew by the escalation factor', () => {
    // A ladder with medium only: growth alone escalates.
    const s = SessionDriver.with({ repetitive_errors: { severity: { medium: 2, critical: 100 } }, episode: { escalation_growth: 2 } });
    for (let i = 0; i < 8; i++) s.bash('npm test', failing(i));
    expect(s.of('repetitive_errors').map((r) => [r.severity, r.evidence_action_ids.length])).toEqual([
      ['medium', 2],
      ['high', 4],
      ['critical', 8],
    ]);
  });

  it('marks the patterns of a shadow detector, and a disabled detector reports nothing', () => {
    const s = SessionDriver.with({ repetitive_errors: { mode: 'shadow' }, hallucination: { enabled: false } });
    for (let i = 0; i < 3; i++) s.read(`${CWD}/src/missing${i}.ts`, { error: 'ENOENT: no such file or directory', errorClass: 'ENOENT' });
    for (let i = 0; i < 3; i++) s.read(`${CWD}/src/missing.ts`, { error: 'ENOENT: no such file or directory', errorClass: 'ENOENT' });
    expect(s.reports.map((r) => [r.pattern_type, r.shadow])).toEqual([['repetitive_errors', true]]);
  });
});

describe('events', () => {
  it('dates a session on the agent\'s clock: a verdict stamped by the reviewer\'s clock months later moves nothing out of the window', () => {
    const s = new SessionDriver();
    const verdictAt = T0 + 200 * 86_400_000;
    for (let i = 0; i < 4; i++) {
      const id = s.bash('npm test', failing(i));
      // A recording replayed on its own times: the reviewer judges it today.
      s.reports.push(...s.patterns.verdict(verdictAt, { action_id: id, verdict: 'allow', rationality: { score: 0.8, components: { goal_alignment: 0.9 } } } as never));
    }
    expect(s.patterns.snapshot.now).toBeLessThan(T0 + 60_000);
    expect(s.of('repetitive_errors').map((r) => [r.severity, r.evidence_action_ids.length])).toEqual([['medium', 3]]);
  });

  it('applies a redelivered action or outcome once', () => {
    const s = new SessionDriver();
    const proposal = { action_id: 'x1', kind: 'tool_use', tool: 'Bash', input: { command: 'npm test' } };
    const outcome = { action_id: 'x1', status: 'error' as const, error: { message: 'boom', class: 'Error' } };
    for (let i = 0; i < 3; i++) {
      s.patterns.actionProposed(T0 + 1000, proposal);
      s.patterns.outcomeReported(T0 + 2000, outcome, undefined);
    }
    expect(s.patterns.snapshot.steps).toHaveLength(1);
    expect(s.patterns.snapshot.counted).toEqual(['x1']);
    expect(s.patterns.evaluate()).toEqual([]);
  });

  it('joins an outcome that arrives before its proposal, in proposal order', () => {
    const s = new SessionDriver();
    s.patterns.outcomeReported(T0 + 3000, { action_id: 'late', status: 'error', error: { message: 'boom', class: 'Error' } }, undefined);
    s.patterns.actionProposed(T0 + 4000, { action_id: 'next', kind: 'tool_use', tool: 'Read', input: { file_path: `${CWD}/a.ts` } });
    s.patterns.actionProposed(T0 + 1000, { action_id: 'late', kind: 'tool_use', tool: 'Bash', input: { command: 'npm test' } });
    expect(s.patterns.snapshot.steps.map((x) => [x.id, x.status, x.cmd])).toEqual([
      ['late', 'error', 'npm test'],
      ['next', undefined, undefined],
    ]);
    expect(s.patterns.snapshot.counted).toEqual(['late']);
  });

  it('keeps only the mark of an ended session', () => {
    const s = new SessionDriver();
    for (let i = 0; i < 5; i++) s.bash('npm test', failing(i));
    s.patterns.end();
    expect(s.patterns.ended).toBe(true);
    expect(s.patterns.snapshot).toMatchObject({ ended: true, steps: [], counted: [] });
    expect(JSON.stringify(s.patterns.snapshot).length).toBeLessThan(1000);
  });
});

describe('a session started in its home directory', () => {
  it('writes its files in the home without leaving its scope, and not the home\'s other directories', () => {
    const s = SessionDriver.with({}, { context: { goal: 'design the dataset system', cwd: '/home/tarive', expected_paths: ['/home/tarive/**'] }, phase: 'implementation' });
    for (const file of ['design.md', 'decode_b64.py', 'setup_sync.sh', 'notes.txt']) s.edit(`/home/tarive/${file}`);
    expect(s.of('scope_creep')).toEqual([]);
    for (const file of ['Documents/a.md', 'Documents/b.md', 'other/c.md']) s.edit(`/home/tarive/${file}`);
    expect(s.of('scope_creep').length).toBeGreaterThan(0);
  });
});

describe('a session whose working directory is not known', () => {
  it('has no project to leave: a path the user names later does not become the only place it may work', () => {
    // A Gemini CLI chat records no working directory (agunginsani/expenses-tracker, eighth set's DEV half).
    const s = SessionDriver.with({}, { context: { goal: 'I want to create an expenses tracker' }, phase: 'implementation' });
    s.edit('/Users/ann/git/expenses-tracker/docs/spec.md');
    s.asks('Create new /Documents/expenses-tracker and put the documents there.');
    for (const file of ['a.html', 'b.html', 'c.html', 'd.html', 'e.html', 'f.html', 'g.html']) s.edit(`/Users/ann/git/expenses-tracker/.superpowers/${file}`);
    expect(s.of('scope_creep')).toEqual([]);
  });
});

describe('state', () => {
  it('survives a restart mid-session: a JSON copy carries the windows, runs and episodes on', () => {
    const s = new SessionDriver();
    s.bash('npm test', failing(1));
    s.bash('npm test', failing(2));
    for (let i = 0; i < 9; i++) s.run('BashOutput', { bash_id: 'b1' });
    s.restart();
    s.bash('npm test', failing(3));
    expect(s.last('repetitive_errors')!.evidence_action_ids).toEqual(['a1', 'a2', 'a12']);
    s.run('BashOutput', { bash_id: 'b1' });
    s.restart();
    for (let i = 0; i < 9; i++) s.run('BashOutput', { bash_id: 'b1' });
    expect(s.last('polling_loop')!.details).toMatchObject({ repetitions: 10 });
    // The open episode came through the restart too: no second report of the same pattern.
    s.restart();
    s.bash('npm test', failing(4));
    expect(s.of('repetitive_errors')).toHaveLength(1);
  });

  it('stays bounded however long the session runs', () => {
    const s = SessionDriver.with({ window: { max_actions: 20 } });
    for (let i = 0; i < 500; i++) s.run('Read', { file_path: `${CWD}/src/f${i}.ts` }, { tokens: 1000 }, 1);
    const { snapshot } = s.patterns;
    expect(snapshot.steps).toHaveLength(20);
    expect(snapshot.counted.length).toBeLessThanOrEqual(20);
    expect(snapshot.resources.slots.length).toBeLessThanOrEqual(13);
    expect(JSON.stringify(snapshot).length).toBeLessThan(12_000);
  });

  it('continues from a snapshot stored by the earlier code, whose steps are objects with every field kept', () => {
    // Written by the version before the packed window: a session mid-way (a repeated failure, a polling run,
    // an action still waiting for its outcome, a blocked one), then its remaining events and their reports.
    const recorded = JSON.parse(readFileSync(new URL('./stored-snapshot.fixture.json', import.meta.url), 'utf8')) as {
      snapshot: SessionSnapshot;
      events: { kind: 'action' | 'outcome' | 'verdict'; at: number; payload: never; cost?: number }[];
      reports: PatternReport[];
    };
    // The polling ladder of the code that stored it (no low rung: low starts where medium does).
    const settings = resolvePatternSettings({ polling_loop: { severity: { low: 10 } } });
    const replay = (patterns: SessionPatterns, events: typeof recorded.events) =>
      events.flatMap((e) => (e.kind === 'action' ? patterns.actionProposed(e.at, e.payload) : e.kind === 'outcome' ? patterns.outcomeReported(e.at, e.payload, e.cost) : patterns.verdict(e.at, e.payload)));
    const restored = SessionPatterns.restore(settings, [], JSON.parse(JSON.stringify(recorded.snapshot)) as SessionSnapshot);
    expect(restored.snapshot.steps.map((s) => s.id)).toEqual(recorded.snapshot.steps.map((s) => s.id));
    // That code wrote the session's home (/home/dev) as `~`; paths are now written out, stored ones read so on restore.
    const reports = JSON.parse(JSON.stringify(recorded.reports).replaceAll('~/', '/home/dev/')) as PatternReport[];
    expect(replay(restored, recorded.events)).toEqual(reports);
    // And from the snapshot this version stores, after a second restart half-way through.
    const again = SessionPatterns.restore(settings, [], JSON.parse(JSON.stringify(recorded.snapshot)) as SessionSnapshot);
    const half = Math.floor(recorded.events.length / 2);
    const first = replay(again, recorded.events.slice(0, half));
    const continued = SessionPatterns.restore(settings, [], JSON.parse(JSON.stringify(again.snapshot)) as SessionSnapshot);
    expect([...first, ...replay(continued, recorded.events.slice(half))]).toEqual(reports);
  });

  it("reads a stored session's paths in the form paths have now: the same file is the same path and the same write", () => {
    const s = new SessionDriver();
    const id = s.edit(`${CWD}/src/cart.ts`, failing(1));
    const fresh = s.patterns.snapshot.steps.find((step) => step.id === id)!;
    // As the code before the one form stored it: the home as ~, the signature taken from that spelling.
    const stored = JSON.parse(JSON.stringify(s.patterns.snapshot)) as SessionSnapshot;
    const old = stored.steps.find((step) => step.id === id)!;
    old.paths = ['~/projects/cart/src/cart.ts'];
    old.sig = 'signed-with-the-tilde';
    const restored = SessionPatterns.restore(s.settings, [], stored).snapshot.steps.find((step) => step.id === id)!;
    expect(restored.paths).toEqual([`${CWD}/src/cart.ts`]);
    expect(restored.sig).toBe(fresh.sig);
  });

  it('starts each polling run afresh, whatever the run before it held', () => {
    const s = new SessionDriver();
    for (let i = 0; i < 3; i++) s.run('BashOutput', { bash_id: 'b1' }, { output: `still running ${i}` });
    s.edit(`${CWD}/src/cart.ts`);
    expect(s.patterns.snapshot.polling).toBeUndefined();
    const stored = () => JSON.parse(JSON.stringify(s.patterns.snapshot)) as SessionSnapshot;
    const status = s.bash('git status');
    expect(stored().polling).toEqual({ sig: expect.any(String), count: 1, ids: [status], outputs: [], tool: 'Bash', cmd: 'git status' });
    const poll = s.run('BashOutput', { bash_id: 'b2' }, { output: 'done' });
    expect(stored().polling).toEqual({ sig: expect.any(String), count: 1, ids: [poll], outputs: [expect.any(String)], check: expect.any(String), tool: 'BashOutput' });
    const again = s.run('BashOutput', { bash_id: 'b2' }, { output: 'done' });
    expect(stored().polling).toMatchObject({ count: 2, ids: [poll, again] });
    expect(stored().polling!.outputs).toHaveLength(1);
  });

  it('stores what counting read of a step only until it is counted', () => {
    const s = new SessionDriver();
    s.bash('npm test', { output: 'ok', cost: 0.5 });
    s.patterns.actionProposed(s.now + 1000, { action_id: 'waiting', kind: 'tool_use', tool: 'Bash', input: { command: 'npm run build' } });
    s.patterns.outcomeReported(s.now + 2000, { action_id: 'early', status: 'success', output_excerpt: 'done' }, 0.25);
    const steps = s.patterns.snapshot.steps;
    expect(steps.find((x) => x.id === 'a1')).toMatchObject({ status: 'success', tokens: undefined });
    expect(steps.find((x) => x.id === 'a1')).not.toHaveProperty('out', expect.anything());
    expect(steps.find((x) => x.id === 'a1')).not.toHaveProperty('cost_usd', expect.anything());
    // The outcome that came before its proposal waits with its output and cost to be counted.
    expect(steps.find((x) => x.id === 'early')).toMatchObject({ out: expect.any(String), cost_usd: 0.25 });
  });
});
