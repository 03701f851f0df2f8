import { resolvePath } from '@warden/actions';
import { resolvePatternSettings, SessionPatterns, type PatternReport } from '@warden/patterns';
import { StepReviewer, type ProposedAction } from '@warden/review';

/**
 * The reviewer and the pattern detector read an action's paths through one library (@warden/actions):
 * whichever agent wrote the path and however (a drive letter, Git Bash's /c/, ~, $HOME, a share), both
 * resolve it to the same canonical path and judge it inside or outside the project alike. (They used to
 * disagree: the reviewer wrote a Windows path c:/users/… and a home as itself, the pattern detector
 * /c/users/… and ~.)
 */
const T0 = Date.parse('2026-11-28T10:00:00Z');
let ids = 0;

interface Case {
  name: string;
  cwd: string;
  tool: string;
  input: Record<string, unknown>;
  raw: string;
  canonical: string;
  /** The path lies in the session's project. */
  inside: boolean;
}

const WINDOWS = 'C:\\Users\\Me\\App';
const LINUX = '/home/ann/app';
const CASES: Case[] = [
  { name: 'a Windows drive path (Claude Code Edit)', cwd: WINDOWS, tool: 'Edit', input: { file_path: 'C:\\Users\\Me\\App\\src\\Main.ts', old_string: 'a', new_string: 'b' }, raw: 'C:\\Users\\Me\\App\\src\\Main.ts', canonical: 'c:/users/me/app/src/main.ts', inside: true },
  { name: "Git Bash's /c/ (Gemini CLI write_file)", cwd: WINDOWS, tool: 'write_file', input: { file_path: '/c/Users/me/app/src/week.ts', content: 'x' }, raw: '/c/Users/me/app/src/week.ts', canonical: 'c:/users/me/app/src/week.ts', inside: true },
  { name: '~ on Windows (Antigravity write_to_file)', cwd: WINDOWS, tool: 'write_to_file', input: { TargetFile: '~/App/docs/notes.md', CodeContent: 'x' }, raw: '~/App/docs/notes.md', canonical: 'c:/users/me/app/docs/notes.md', inside: true },
  { name: 'a relative path with backslashes (OpenCode write)', cwd: WINDOWS, tool: 'write', input: { filePath: 'src\\util\\dates.ts', content: 'x' }, raw: 'src\\util\\dates.ts', canonical: 'c:/users/me/app/src/util/dates.ts', inside: true },
  { name: 'another project in Git Bash spelling (Cursor Write)', cwd: WINDOWS, tool: 'Write', input: { path: '/c/Users/Me/Other/x.ts', contents: 'x' }, raw: '/c/Users/Me/Other/x.ts', canonical: 'c:/users/me/other/x.ts', inside: false },
  { name: 'a share (Copilot CLI create)', cwd: WINDOWS, tool: 'create', input: { path: '\\\\NAS\\Team\\report.md', file_text: 'x' }, raw: '\\\\NAS\\Team\\report.md', canonical: '//nas/team/report.md', inside: false },
  { name: '$HOME on Linux (Factory Droid Create)', cwd: LINUX, tool: 'Create', input: { file_path: '$HOME/app/src/a.ts', content: 'x' }, raw: '$HOME/app/src/a.ts', canonical: '/home/ann/app/src/a.ts', inside: true },
  { name: '~ outside the project (Claude Code Write)', cwd: LINUX, tool: 'Write', input: { file_path: '~/other/notes.md', content: 'x' }, raw: '~/other/notes.md', canonical: '/home/ann/other/notes.md', inside: false },
];

function reviewed(c: Case) {
  const reviewer = new StepReviewer();
  const address = { agentId: 'agent-1', sessionId: `review-${++ids}` };
  reviewer.startSession(address, { context: { goal: 'Keep the app working', cwd: c.cwd } });
  const action: ProposedAction = { action_id: `a${ids}`, kind: 'tool_use', tool: c.tool, input: c.input };
  const { verdict, ruleHits } = reviewer.review(action, address);
  return { targets: (verdict.side_effects?.effects ?? []).map((e) => e.target), outside: ruleHits.includes('write_outside_project') };
}

function detected(c: Case) {
  const patterns = SessionPatterns.open(resolvePatternSettings(), [], 'agent-1', `patterns-${++ids}`, T0);
  patterns.started(T0, { context: { goal: 'Keep the app working', cwd: c.cwd } });
  const reports: PatternReport[] = [];
  reports.push(...patterns.actionProposed(T0 + 1000, { action_id: 'a1', kind: 'tool_use', tool: c.tool, input: c.input }));
  reports.push(...patterns.outcomeReported(T0 + 1500, { action_id: 'a1', status: 'success' }, undefined));
  const step = patterns.snapshot.steps.find((s) => s.id === 'a1');
  const creep = reports.find((r) => r.pattern_type === 'scope_creep');
  return { paths: step?.paths ?? [], outside: creep?.details?.['out_of_scope_path'] };
}

describe('one reading of paths for the reviewer and the pattern detector', () => {
  it.each(CASES)('resolves $name to the same canonical path', (c) => {
    expect(resolvePath(c.raw, c.cwd)).toBe(c.canonical);
    expect(reviewed(c).targets).toContain(c.canonical);
    expect(detected(c).paths).toEqual([c.canonical]);
  });

  it.each(CASES)('judges $name inside or outside the project alike', (c) => {
    expect(reviewed(c).outside).toBe(!c.inside);
    expect(detected(c).outside).toBe(c.inside ? undefined : c.canonical);
  });
});
