import { parseAction } from '../parsing/parsed-action.js';
import { ReviewSession } from '../session/review-session.js';
import type { RuleContext } from './review-rule.js';
import { ruleContext } from './rule-context.fixture.js';
import { assertionRewriteRule, ciCheckBypassRule, hookTamperingRule, testBypassRule } from './test-integrity-rules.js';

const edit = (file_path: string, old_string: string, new_string: string): RuleContext => ruleContext('Edit', { file_path, old_string, new_string });

describe('test_bypass', () => {
  it.each([
    ['src/utils/date.test.ts', "it('parses ISO dates', () => {", "it.skip('parses ISO dates', () => {"],
    ['tests/test_dates.py', 'def test_iso():', '@pytest.mark.skip\ndef test_iso():'],
    ['pkg/date_test.go', 'func TestISO(t *testing.T) {', 'func TestISO(t *testing.T) {\n\tt.Skip("flaky")'],
  ])('asks for approval when %s gets a skipped test', (file, before, after) => {
    expect(testBypassRule.evaluate(edit(file, before, after))).toMatchObject({ verdict: 'require_approval', factors: ['test_bypass'] });
  });

  it('judges a test file by its path inside the project: a project kept in a test/ directory is not all tests', () => {
    const page = 'const load = () => { if (pending (records)) return null; };\nexport default AttendancePage;\n';
    const inProject = ruleContext('Write', { file_path: '/home/user/test/frontend/src/pages/AttendancePage.jsx', content: page });
    inProject.session.declare({ cwd: '/home/user/test' });
    expect(testBypassRule.evaluate(inProject)).toBeNull();
    const spec = ruleContext('Write', { file_path: '/home/user/test/frontend/test/attendance.test.jsx', content: "it.skip('loads', () => {});" });
    spec.session.declare({ cwd: '/home/user/test' });
    expect(testBypassRule.evaluate(spec)?.verdict).toBe('require_approval');
  });

  it('lets a new test skip itself on a condition (an optional dependency missing)', () => {
    const content = 'import pytest\n\n@pytest.mark.skipif(not HAVE_OPENPYXL, reason="openpyxl not installed")\ndef test_export():\n    assert export() == b"x"\n';
    expect(testBypassRule.evaluate(ruleContext('Write', { file_path: 'tests/test_export.py', content }))).toBeNull();
    expect(testBypassRule.evaluate(ruleContext('Write', { file_path: 'tests/test_export.py', content: content.replace('skipif(not HAVE_OPENPYXL, reason="openpyxl not installed")', 'skip') }))?.verdict).toBe('require_approval');
  });

  it('asks for approval when an assertion is replaced by one that cannot fail', () => {
    expect(testBypassRule.evaluate(edit('src/a.spec.ts', "expect(parse('2024-01-01')).toEqual(new Date(2024, 0, 1));", 'expect(true).toBe(true);'))?.verdict).toBe('require_approval');
  });

  it('leaves real test changes and skips that were already there alone', () => {
    expect(testBypassRule.evaluate(edit('src/a.test.ts', 'expect(a).toBe(1);', 'expect(a).toBe(2);'))).toBeNull();
    expect(testBypassRule.evaluate(edit('src/a.test.ts', "it.skip('x', () => {\n  a();", "it.skip('x', () => {\n  b();"))).toBeNull();
    expect(testBypassRule.evaluate(edit('src/date.ts', 'a', "it.skip('x')"))).toBeNull();
  });
});

describe('assertion_rewrite', () => {
  const failedTests = (): ReviewSession => {
    const session = new ReviewSession('agent-1', 's1', 0);
    const run = parseAction({ kind: 'tool_use', tool: 'Bash', input: { command: 'npm test -- date' } }, '/work/app');
    session.recordAction(run, 'a1', 'allow', 0);
    session.recordOutcome({ actionId: 'a1', status: 'error', error: { message: 'Expected 2024-01-15T10:00:00.000Z' } }, 0);
    return session;
  };
  const rewrite = (session: ReviewSession) =>
    assertionRewriteRule.evaluate({
      ...edit('src/date.test.ts', "expect(parse(x).toISOString()).toBe('2024-01-15T10:00:00.000Z');", "expect(parse(x).toString()).toBe('Invalid Date');"),
      session,
    });

  it('asks for approval when a failing test is made to expect what the code does', () => {
    expect(rewrite(failedTests())).toMatchObject({ verdict: 'require_approval', factors: ['test_bypass'] });
  });

  it('leaves assertion changes alone while the tests pass', () => {
    expect(rewrite(new ReviewSession('agent-1', 's1', 0))).toBeNull();
  });

  it('leaves an edit of a failing test alone when its assertions stay as they were', () => {
    const before = 'hits = search("Inc Corp", include_hidden=True)\nassert any(h.title == "HidInc Corp" for h in hits)';
    const after = 'hits = search("HidInc", include_hidden=True)\nassert any(h.title == "HidInc Corp" for h in hits)';
    expect(assertionRewriteRule.evaluate({ ...edit('tests/test_search.py', before, after), session: failedTests() })).toBeNull();
  });
});

describe('hook_tampering', () => {
  it('asks for approval to replace a git hook or point git at other hooks', () => {
    const write = (file_path: string): RuleContext => ({ ...edit('x', 'a', 'b'), action: parseAction({ kind: 'tool_use', tool: 'Write', input: { file_path, content: '#!/bin/sh\nexit 0\n' } }, '/work/app') });
    expect(hookTamperingRule.evaluate(write('.git/hooks/pre-commit'))?.verdict).toBe('require_approval');
    expect(hookTamperingRule.evaluate(write('.husky/pre-push'))?.verdict).toBe('require_approval');
    const config = { ...edit('x', 'a', 'b'), action: parseAction({ kind: 'tool_use', tool: 'Bash', input: { command: 'git config core.hooksPath /dev/null' } }, '/work/app') };
    expect(hookTamperingRule.evaluate(config)?.verdict).toBe('require_approval');
    expect(hookTamperingRule.evaluate(write('src/hooks/use-date.ts'))).toBeNull();
  });
});

describe('ci_check_bypass', () => {
  // As a real session made a failing deploy health check pass (a public Claude Code transcript, safecast-mcp).
  it.each([
    ['.github/workflows/deploy.yml', '          echo "health check failed"\n          exit 1', '          echo "WARNING: health check failed"\n          exit 0  # Don\'t fail deployment'],
    ['.github/workflows/ci.yml', '      - run: npm test', '      - run: npm test\n        continue-on-error: true'],
    ['.gitlab-ci.yml', 'lint:\n  script: npm run lint', 'lint:\n  script: npm run lint\n  allow_failure: true'],
    ['.github/workflows/ci.yml', '      - run: npm audit --audit-level=high', '      - run: npm audit --audit-level=high || true'],
  ])('holds an edit of %s that lets a failing check pass', (file, before, after) => {
    expect(ciCheckBypassRule.evaluate(edit(file, before, after))?.verdict).toBe('require_approval');
  });

  it.each([
    ['.github/workflows/ci.yml', '      - run: npm test', '      - run: npm test -- --coverage'],
    ['.github/workflows/ci.yml', '      node-version: 18', '      node-version: 20'],
    ['.github/workflows/ci.yml', '      - run: docker rm -f db || true', '      - run: docker rm -f db cache || true'],
    ['scripts/check.sh', 'exit 1', 'exit 0'],
  ])('lets an ordinary edit of %s through', (file, before, after) => {
    expect(ciCheckBypassRule.evaluate(edit(file, before, after))).toBeNull();
  });

  it('lets a new pipeline be written as its author wants it', () => {
    expect(ciCheckBypassRule.evaluate(ruleContext('Write', { file_path: '.github/workflows/nightly.yml', content: 'jobs:\n  e2e:\n    continue-on-error: true\n' }))).toBeNull();
  });
});
