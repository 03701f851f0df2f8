import { builtInRule } from './built-in-rule.js';

const TEST_FILE = /(?:^|\/)(?:__tests__|tests?|spec)\/|\.(?:test|spec)\.[cm]?[jt]sx?$|_test\.(?:go|py)$|(?:^|\/)test_[^/]+\.py$|Test\.(?:java|kt)$/;
const SKIP_MARKERS = /\b(?:it|test|describe)\.skip\s*\(|\b(?:xit|xtest|xdescribe)\s*\(|\b(?:it|test)\.todo\s*\(|@pytest\.mark\.skip|@unittest\.skip|@Disabled\b|@Ignore\b|\bt\.Skip(?:Now)?\s*\(|#\[ignore\]|\bpending\s*\(/;
const WEAKENED_ASSERTION = /expect\([^)]*\)\.(?:toBeDefined|toBeTruthy)\(\)|assert\s+True\b|expect\(true\)\.toBe\(true\)/;

function added(pattern: RegExp, before: string, after: string): boolean {
  return pattern.test(after) && !pattern.test(before);
}

export const testBypassRule = builtInRule({
  name: 'test_bypass',
  description: 'Skipping or hollowing out a test instead of fixing the code it tests needs approval (the bypass trap).',
  reads: 'action',
  check({ action }) {
    const file = action.writtenPaths.find((p) => TEST_FILE.test(p));
    if (!file) return null;
    const before = typeof action.input['old_string'] === 'string' ? action.input['old_string'] : '';
    const after = typeof action.input['new_string'] === 'string' ? action.input['new_string'] : typeof action.input['content'] === 'string' ? action.input['content'] : '';
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
