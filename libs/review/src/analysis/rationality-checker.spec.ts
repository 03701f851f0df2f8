import { parseAction } from '../parsing/parsed-action.js';
import { pathMatcher } from '@warden/actions';
import { ReviewSession } from '../session/review-session.js';
import { RationalityChecker } from './rationality-checker.js';

const checker = new RationalityChecker();
const expected = pathMatcher(['/work/shop/**']);
const bash = (command: string) => parseAction({ kind: 'tool_use', tool: 'Bash', input: { command } }, '/work/shop');
const tool = (name: string, input: Record<string, unknown>) => parseAction({ kind: 'tool_use', tool: name, input }, '/work/shop');

function session(goal = 'Fix the failing date parser test in src/utils/date.ts'): ReviewSession {
  const s = new ReviewSession('agent', 'session', 0);
  s.declare({ goal, expected_paths: ['/work/shop/**'], cwd: '/work/shop' });
  return s;
}

describe('RationalityChecker (seed 001)', () => {
  it('scores an action on the declared goal high', () => {
    const result = checker.check(tool('Read', { file_path: 'src/utils/date.ts' }), session(), expected);
    expect(result.components).toEqual({ goal_alignment: 1, logical_progression: 1, efficiency: 1, completeness: 1 });
    expect(result.score).toBe(1);
  });

  it('finds no goal alignment for an action outside the expected paths that shares nothing with the goal', () => {
    const result = checker.check(tool('Write', { file_path: '/etc/motd', content: 'hello' }), session(), expected);
    expect(result.components.goal_alignment).toBe(0);
    expect(result.issues).toContain('unrelated_to_goal');
  });

  it('does not penalise goal alignment when the agent declared nothing', () => {
    const bare = new ReviewSession('agent', 'session', 0);
    expect(checker.check(tool('Write', { file_path: '/etc/motd', content: 'x' }), bare, pathMatcher([])).components.goal_alignment).toBe(1);
  });

  it('rates retrying a failed action without change as a repetition', () => {
    const s = session();
    const test = bash('npm test -- date');
    s.recordAction(test, 'a1', 'allow', 0);
    s.recordOutcome({ actionId: 'a1', status: 'error', error: { message: 'Expected 2024-01-01' } }, 0);
    const result = checker.check(test, s, expected);
    expect(result.components.logical_progression).toBe(0.3);
    expect(result.issues).toContain('repeats_failed_action');
  });

  it('rates running the tests after an edit as building on it, and a new direction as exploring', () => {
    const s = session();
    s.recordAction(tool('Edit', { file_path: 'src/utils/date.ts', old_string: 'a', new_string: 'b' }), 'a1', 'allow', 0);
    expect(checker.check(bash('npm test'), s, expected).components.logical_progression).toBe(1);
    expect(checker.check(bash('systemctl status nginx'), s, expected).components.logical_progression).toBe(0.7);
  });

  it('sees reverting the session’s own edit as contradicting it', () => {
    const s = session();
    s.recordAction(tool('Edit', { file_path: 'src/utils/date.ts', old_string: 'a', new_string: 'b' }), 'a1', 'allow', 0);
    s.recordOutcome({ actionId: 'a1', status: 'success' }, 0);
    const result = checker.check(bash('git checkout -- src/utils/date.ts'), s, expected);
    expect(result.components.logical_progression).toBe(0);
    expect(result.issues).toContain('contradicts_previous');
  });

  it('sees deleting what the session itself created as tidying up, and deleting a file it only changed as undoing', () => {
    const s = session();
    s.recordAction(tool('Write', { file_path: 'scripts/check_dates.py', content: 'print(1)' }), 'a1', 'allow', 0);
    s.recordOutcome({ actionId: 'a1', status: 'success' }, 0);
    s.recordAction(tool('Read', { file_path: 'src/utils/date.ts' }), 'a2', 'allow', 0);
    s.recordAction(tool('Edit', { file_path: 'src/utils/date.ts', old_string: 'a', new_string: 'b' }), 'a3', 'allow', 0);
    s.recordOutcome({ actionId: 'a3', status: 'success' }, 0);
    expect(checker.check(bash('rm scripts/check_dates.py'), s, expected).issues).not.toContain('contradicts_previous');
    expect(checker.check(bash('rm src/utils/date.ts'), s, expected).issues).toContain('contradicts_previous');
  });

  it('relates an action to any request of the session, plural or singular', () => {
    const s = session('Build the campaign activity log for the team leads dashboard');
    s.declare({ goal: 'Fix the date parser' });
    const check = bash('curl -s https://leads.example.com/api/activities');
    expect(checker.check(check, s, pathMatcher(['/elsewhere/**'])).issues).not.toContain('unrelated_to_goal');
    expect(checker.check(bash('curl -s https://weather.example.com/forecast'), s, pathMatcher(['/elsewhere/**'])).issues).toContain('unrelated_to_goal');
  });

  it('halves efficiency when a dedicated tool does the job or the agent sleeps to wait', () => {
    expect(checker.check(bash('cat src/utils/date.ts'), session(), expected)).toMatchObject({ components: { efficiency: 0.5 }, suggestions: [expect.stringContaining('Read tool')] });
    expect(checker.check(bash('sleep 60'), session(), expected).components.efficiency).toBe(0.5);
    expect(checker.check(bash('cat package.json | jq .scripts'), session(), expected).components.efficiency).toBe(1);
  });

  it('finds incomplete actions: an edit that changes nothing, a missing command or field', () => {
    expect(checker.check(tool('Edit', { file_path: 'src/utils/date.ts', old_string: 'a', new_string: 'a' }), session(), expected).components.completeness).toBe(0);
    expect(checker.check(bash('  '), session(), expected).components.completeness).toBe(0);
    expect(checker.check(tool('Write', { file_path: 'src/x.ts' }), session(), expected).components.completeness).toBe(0);
  });

  it("reads a write's path and content as every agent names them (Cursor's Write: path, contents)", () => {
    // Cursor agent transcripts record Write as {path, contents} (corpus: cursor agent-transcripts, ts-nim).
    expect(checker.check(tool('Write', { path: '/work/shop/.env.example', contents: 'A=1' }), session(), expected).components.completeness).toBe(1);
    expect(checker.check(tool('Write', { path: '/work/shop/.env.example' }), session(), expected).components.completeness).toBe(0);
  });
});
