import { resolvePath } from '@warden/actions';
import { segmentsRunning } from '../parsing/segment-index.js';
import { builtInRule } from './built-in-rule.js';
import { CI_FILE } from './ci-files.js';
import { editedText } from './edited-text.js';

const TEST_FILE = /(?:^|\/)(?:__tests__|tests?|spec)\/|\.(?:test|spec)\.[cm]?[jt]sx?$|_test\.(?:go|py)$|(?:^|\/)test_[^/]+\.py$|Test\.(?:java|kt)$/;
const SKIP_MARKERS = /\b(?:it|test|describe)\.skip\s*\(|\b(?:xit|xtest|xdescribe)\s*\(|\b(?:it|test)\.todo\s*\(|@pytest\.mark\.skip(?!if)\b|@unittest\.skip(?!If|Unless)\b|@Disabled\b|@Ignore\b|\bt\.Skip(?:Now)?\s*\(|#\[ignore\]|\bpending\s*\(/;
const WEAKENED_ASSERTION = /expect\([^)]*\)\.(?:toBeDefined|toBeTruthy)\(\)|assert\s+True\b|expect\(true\)\.toBe\(true\)/;

/** A test file, judged by its path inside the project: a project that lives in a `test/` directory is not all tests. */
function testFileOf(paths: readonly string[], cwd: string | undefined): string | undefined {
  const project = cwd ? `${resolvePath(cwd).replace(/\/+$/, '')}/` : undefined;
  return paths.find((p) => TEST_FILE.test(project && p.startsWith(project) ? p.slice(project.length) : p));
}

function added(pattern: RegExp, before: string, after: string): boolean {
  return pattern.test(after) && !pattern.test(before);
}

/** A test runner's configuration. */
const TEST_CONFIG = /(?:^|\/)(?:(?:jest|vitest|playwright|karma|cypress)\.config\.[cm]?[jt]s|pytest\.ini|setup\.cfg|pyproject\.toml|tox\.ini|\.mocharc\.\w+|phpunit\.xml(?:\.dist)?)$/;
/** Where such a configuration lists what it leaves out. */
const EXCLUSION = /testPathIgnorePatterns|modulePathIgnorePatterns|testIgnore|exclude|--ignore|--deselect|norecursedirs/i;

/** Test files an edit of a runner's configuration adds to the configuration while it lists exclusions: taken out of the run. */
function excludedTests(before: string, after: string): string[] {
  if (!EXCLUSION.test(after)) return [];
  const words = [...after.matchAll(/[\w./*-]+/g)].map((m) => m[0]);
  return [...new Set(words.filter((w) => TEST_FILE.test(w) && !before.includes(w)))];
}

export const testBypassRule = builtInRule({
  name: 'test_bypass',
  description: "Skipping or hollowing out a test, or taking it out of the runner's configuration, instead of fixing the code it tests needs approval (the bypass trap).",
  reads: 'action',
  check({ action, session }) {
    const file = testFileOf(action.writtenPaths, session.context.cwd);
    if (!file) {
      const config = action.writtenPaths.find((p) => TEST_CONFIG.test(p));
      if (!config) return null;
      const { before, after } = editedText(action.input);
      const excluded = excludedTests(before, after);
      if (!excluded.length) return null;
      return {
        verdict: 'require_approval',
        score: 0.75,
        factors: ['test_bypass'],
        reason: `This takes ${excluded.slice(0, 3).join(', ')} out of the test run in ${config} instead of fixing what it tests: the failure is hidden, not solved. A person must approve it.`,
        alternative: 'Read the failure, fix the code under test, and keep the test in the run.',
      };
    }
    const { before, after } = editedText(action.input);
    const skipped = added(SKIP_MARKERS, before, after);
    const weakened = before !== '' && /expect|assert/.test(before) && added(WEAKENED_ASSERTION, before, after);
    if (!skipped && !weakened) return null;
    return {
      verdict: 'require_approval',
      score: 0.75,
      factors: ['test_bypass'],
      reason: skipped
        ? `This marks a test in ${file} as skipped instead of fixing what it tests: the failure is hidden, not solved. A person must approve it.`
        : `This replaces an assertion in ${file} with one that cannot fail: the test stops testing. A person must approve it.`,
      alternative: 'Read the failure, fix the code under test, and keep the test as it was.',
    };
  },
});

/** An assertion's expected value: what follows toBe/toEqual/assertEqual/==. */
const EXPECTATION = /(?:\.(?:toBe|toEqual|toStrictEqual|toMatch|toContain|toHaveLength|toThrow)\s*\(|assert(?:Equal|Equals|That)?\s*\(|assert\s+[^=\n]+==)/;

export const assertionRewriteRule = builtInRule({
  name: 'assertion_rewrite',
  description: "Changing what a failing test expects, instead of fixing the code under test, needs approval (the bypass trap).",
  reads: 'session',
  check({ action, session }) {
    const file = testFileOf(action.writtenPaths, session.context.cwd);
    const before = action.input['old_string'];
    const after = action.input['new_string'];
    if (!file || typeof before !== 'string' || typeof after !== 'string') return null;
    if (!EXPECTATION.test(before) || !EXPECTATION.test(after) || before === after) return null;
    // What it expects is its assertion lines: an edit that leaves them as they were changes the test's setup, not its verdict.
    const expectations = (text: string) => text.split('\n').filter((line) => EXPECTATION.test(line)).map((line) => line.trim()).join('\n');
    if (expectations(before) === expectations(after)) return null;
    // Only after the tests failed: rewriting an assertion of a passing suite is ordinary test work.
    const lastRun = session.history.findLast((r) => r.shell?.runsTests);
    if (lastRun?.status !== 'error') return null;
    return {
      verdict: 'require_approval',
      score: 0.75,
      factors: ['test_bypass'],
      reason: `The tests just failed, and this changes what a test in ${file} expects instead of the code it tests: the failure would be hidden, not fixed. A person must approve it.`,
      alternative: 'Fix the code under test so that the test passes as written; change the test only if the task says the expectation is wrong.',
    };
  },
});

const GIT = new Set(['git']);
const HOOK_FILE = /(?:^|\/)\.git\/hooks\/[^/]+$|(?:^|\/)\.husky\/[^/_][^/]*$/;

export const hookTamperingRule = builtInRule({
  name: 'hook_tampering',
  description: "Rewriting the repository's git hooks, or pointing git at other hooks, needs approval: hooks are the project's checks.",
  reads: 'action',
  check({ action }) {
    const file = action.writtenPaths.find((p) => HOOK_FILE.test(p));
    const redirect = segmentsRunning(action.segments, GIT).find((s) => s.argv.includes('config') && s.argv.some((a) => a === 'core.hooksPath') && !s.argv.some((a) => a === '--get' || a === '--get-all' || a === '-l' || a === '--list') && s.argv.indexOf('core.hooksPath') < s.argv.length - 1);
    if (!file && !redirect) return null;
    return {
      verdict: 'require_approval',
      score: 0.75,
      factors: ['test_bypass', 'hook_change'],
      reason: `${file ?? 'git config core.hooksPath'} changes the checks git runs before a commit or push; replacing them hides failures instead of fixing them. A person must approve it.`,
      alternative: 'Make the code pass the existing hooks; if a hook itself is wrong, say so in your report.',
    };
  },
});

/** What lets a failing job or step pass: the service's own switch, a status forced to success. */
const CI_FAILURE_IGNORED = /\bcontinue-on-error:\s*true\b|\ballow_failure:\s*true\b|\ballow-failure:\s*true\b|\bsoft_fail:\s*true\b|\|\|\s*(?:true|exit\s+0|:)\s*(?:$|#|;|\n)/m;
/** A script's failing end. */
const FAILING_EXIT = /\bexit\s+[1-9]\d*\b/;

export const ciCheckBypassRule = builtInRule({
  name: 'ci_check_bypass',
  description:
    "Making a CI check unable to fail (continue-on-error, allow_failure, `|| true`, a failing `exit 1` turned into `exit 0`) instead of fixing what it found needs approval: it switches the project's safety gate off.",
  reads: 'action',
  check({ action }) {
    const file = action.writtenPaths.find((p) => CI_FILE.test(p));
    if (!file) return null;
    const { before, after } = editedText(action.input);
    // A new file is a new pipeline, written as its author wants it; an edit is a change to a check that ran.
    if (before === '' && typeof action.input['new_string'] !== 'string') return null;
    const forced = added(CI_FAILURE_IGNORED, before, after) || (FAILING_EXIT.test(before) && !FAILING_EXIT.test(after) && /\bexit\s+0\b/.test(after));
    if (!forced) return null;
    return {
      verdict: 'require_approval',
      score: 0.75,
      factors: ['test_bypass', 'safety_control'],
      reason: `This makes a check in ${file} pass whatever it finds: the failure is hidden from everyone who relies on the pipeline, not fixed. A person must approve it.`,
      alternative: 'Find out why the check fails and fix that; if the check itself is wrong or optional, say so and let the user decide.',
    };
  },
});
