import { MAX_CLOCK_SKEW_MS } from './intervention-session.js';
import { respondToIssue } from './issue-response.js';
import { DEFAULT_PROMPTS } from './prompts.js';
import { issue, session, settings } from './session.fixture.js';

const MINUTE = 60_000;

describe("the session's clock", () => {
  it("is the controller's clock until the session carries a time, then the latest time it carried, moved on by what passed since", () => {
    const s = session();
    expect(s.timeAt(1_000)).toBe(1_000);
    // A replay of last week's session: its messages carry the recording's times, read today.
    const today = Date.parse('2026-11-29T10:00:00Z');
    const recorded = Date.parse('2026-11-22T08:00:00Z');
    expect(s.observe(recorded, today, true)).toBe(recorded);
    expect(s.timeAt(today + 200)).toBe(recorded + 200);
    expect(s.observe(recorded + 5 * MINUTE, today + 300, true)).toBe(recorded + 5 * MINUTE);
  });

  it('never goes back: an earlier time is dated at the latest already seen', () => {
    const s = session();
    s.observe(10 * MINUTE, 10 * MINUTE);
    expect(s.observe(10 * MINUTE - 1_000, 10 * MINUTE + 100)).toBe(10 * MINUTE);
    expect(s.timeAt(10 * MINUTE + 100)).toBe(10 * MINUTE);
  });

  it('keeps a live session within MAX_CLOCK_SKEW_MS of when its messages were stored: old stamps cannot freeze it', () => {
    const s = session();
    const stored = Date.parse('2026-11-29T10:00:00Z');
    expect(s.observe(stored - 3_000, stored)).toBe(stored - 3_000);
    expect(s.observe(Date.parse('2026-01-01T00:00:00Z'), stored + 60_000)).toBe(stored + 60_000 - MAX_CLOCK_SKEW_MS);
    // Declared a replay (session.started `replay`), a recording's past is kept.
    s.record.replay = true;
    expect(s.observe(Date.parse('2026-01-01T00:00:00Z'), stored + 120_000)).toBe(stored + 60_000 - MAX_CLOCK_SKEW_MS);
    const replayed = session();
    replayed.record.replay = true;
    expect(replayed.observe(Date.parse('2026-01-01T00:00:00Z'), stored)).toBe(Date.parse('2026-01-01T00:00:00Z'));
  });

  it('runs the cool-down on the session time, however fast the messages are read', () => {
    const cooled = settings({ intervention_cooldown_seconds: 30 });
    const respond = (s: ReturnType<typeof session>, at: number, key: string) =>
      respondToIssue(s, issue({ type: 'scope_creep', at, trigger: { kind: 'pattern', message_id: key, issue_type: 'scope_creep' } }), {
        settings: cooled,
        templates: DEFAULT_PROMPTS,
        causeId: key,
        at,
      }).plan.skip;
    // Read 50 ms apart, carried two minutes apart: the second issue is past the cool-down, as in the recording.
    const s = session(cooled);
    s.record.replay = true;
    expect(respond(s, s.observe(1_000, 5 * MINUTE), 'p1')).toBeUndefined();
    expect(respond(s, s.observe(1_000 + 2 * MINUTE, 5 * MINUTE + 50), 'p2')).toBeUndefined();
    // Carried ten seconds apart: within it.
    expect(respond(s, s.observe(1_000 + 2 * MINUTE + 10_000, 5 * MINUTE + 100), 'p3')).toBe('cooldown');
  });
});
