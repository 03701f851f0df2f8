import { parseAction } from '../parsing/parsed-action.js';
import { ReviewSession } from '../session/review-session.js';
import type { RuleContext } from './review-rule.js';
import { testBypassRule } from './test-integrity-rules.js';

const edit = (file_path: string, old_string: string, new_string: string): RuleContext => ({
  action: parseAction({ kind: 'tool_use', tool: 'Edit', input: { file_path, old_string, new_string } }, '/work/app'),
  session: new ReviewSession('agent-1', 's1', 0),
  limits: { maxFileOperations: 500 },
  inScope: () => true,
});

describe('test_bypass', () => {
  it.each([
    ['src/utils/date.test.ts', "it('parses ISO dates', () => {", "it.skip('parses ISO dates', () => {"],
    ['tests/test_dates.py', 'def test_iso():', '@pytest.mark.skip\ndef test_iso():'],
    ['pkg/date_test.go', 'func TestISO(t *testing.T) {', 'func TestISO(t *testing.T) {\n\tt.Skip("flaky")'],
  ])('asks for approval when %s gets a skipped test', (file, before, after) => {
    expect(testBypassRule.evaluate(edit(file, before, after))).toMatchObject({ verdict: 'require_approval', factors: ['test_bypass'] });
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
