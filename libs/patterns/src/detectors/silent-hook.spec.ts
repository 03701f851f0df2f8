import { SessionDriver } from '../session-driver.fixture.js';
import { SessionPatterns } from '../session-patterns.js';
import { UNPROPOSED_RUNS } from './silent-hook.js';

/** A telemetry report of tool runs `seconds` after the driver's clock: runs `from`..`to` (keys t1, t2, ...). */
function report(s: SessionDriver, from: number, to: number, seconds = 5) {
  s.now += seconds * 1000;
  const runs = Array.from({ length: to - from + 1 }, (_, i) => ({ key: `t${from + i}`, tool: i % 2 ? 'Edit' : 'Bash' }));
  s.reports.push(...s.patterns.toolsObserved(s.now, runs.map((r) => ({ ...r, at: new Date(s.now).toISOString() }))));
}

describe('a hook gone silent (telemetry of tool runs against the proposals)', () => {
  it('reports nothing while every reported run was proposed, whatever an exporter sends again', () => {
    const s = new SessionDriver();
    for (let i = 0; i < 4; i++) s.bash(`npm test -- ${i}`);
    report(s, 1, 4);
    report(s, 1, 4, 15);
    report(s, 1, 4, 15);
    expect(s.of('bypass_trap')).toEqual([]);
    expect(s.patterns.snapshot.tool_runs).toMatchObject({ runs: 4 });
  });

  it('reports a high bypass_trap once runs beyond the proposals outlast a report, with no proposal meanwhile', () => {
    const s = new SessionDriver();
    for (let i = 0; i < 3; i++) s.bash(`npm test -- ${i}`);
    report(s, 1, 3 + UNPROPOSED_RUNS);
    expect(s.of('bypass_trap')).toEqual([]); // seen once: proposals may still be on their way
    report(s, 4 + UNPROPOSED_RUNS, 6 + UNPROPOSED_RUNS, 15);
    const [found] = s.of('bypass_trap');
    expect(found).toMatchObject({ severity: 'high', details: { kind: 'silent_hook', unproposed_runs: UNPROPOSED_RUNS + 3, reported_runs: UNPROPOSED_RUNS + 6, proposed: 3 } });
    expect(found!.description).toMatch(/no hook call proposed .*Warden hook is no longer called/);
    // It goes on: reported again only when it gets worse, by the episode's rule.
    report(s, 7 + UNPROPOSED_RUNS, 7 + UNPROPOSED_RUNS, 15);
    expect(s.of('bypass_trap')).toHaveLength(1);
  });

  it('takes back the suspicion when the proposals come after all', () => {
    const s = new SessionDriver();
    report(s, 1, UNPROPOSED_RUNS + 1);
    for (let i = 0; i < UNPROPOSED_RUNS + 1; i++) s.bash(`npm run build -- ${i}`);
    report(s, UNPROPOSED_RUNS + 2, UNPROPOSED_RUNS + 2, 15);
    expect(s.of('bypass_trap')).toEqual([]);
    expect(s.patterns.snapshot.tool_runs?.suspect).toBeUndefined();
  });

  it('waits for a second report at least 10 s after the first', () => {
    const s = new SessionDriver();
    report(s, 1, UNPROPOSED_RUNS);
    report(s, UNPROPOSED_RUNS + 1, UNPROPOSED_RUNS + 1, 2);
    expect(s.of('bypass_trap')).toEqual([]);
    report(s, UNPROPOSED_RUNS + 2, UNPROPOSED_RUNS + 2, 9);
    expect(s.of('bypass_trap')).toHaveLength(1);
  });

  it('times a report by its runs, on the agent\'s clock, when they carry times', () => {
    const s = new SessionDriver();
    const run = (n: number, at: number) => ({ key: `t${n}`, tool: 'Bash', at: new Date(at).toISOString() });
    s.patterns.toolsObserved(s.now + 1_000, Array.from({ length: UNPROPOSED_RUNS }, (_, i) => run(i, 1_000_000)));
    // Delivered a minute later, but run 5 s after the others: not yet.
    expect(s.patterns.toolsObserved(s.now + 60_000, [run(UNPROPOSED_RUNS, 1_005_000)])).toEqual([]);
    expect(s.patterns.toolsObserved(s.now + 61_000, [run(UNPROPOSED_RUNS + 1, 1_011_000)]).map((r) => r.pattern_type)).toEqual(['bypass_trap']);
  });

  it('keeps the tally across a restart, and ignores runs reported after the session ended', () => {
    const s = new SessionDriver();
    report(s, 1, UNPROPOSED_RUNS);
    s.patterns = SessionPatterns.restore(s.settings, [], JSON.parse(JSON.stringify(s.patterns.snapshot)));
    report(s, UNPROPOSED_RUNS + 1, UNPROPOSED_RUNS + 1, 15);
    expect(s.of('bypass_trap')).toHaveLength(1);
    s.patterns.end();
    expect(s.patterns.toolsObserved(s.now + 60_000, [{ key: 'late', tool: 'Bash' }])).toEqual([]);
  });
});
