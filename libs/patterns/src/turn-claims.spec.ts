import { checkKindOf, claimsIn, disputesFix, looksAtBaseline, showsFailure } from './turn-claims.js';

describe('what the words that end a turn claim', () => {
  it.each([
    ['All 42 tests pass and the build is clean.', ['test', 'build']],
    ['Build succeeded. Both builds pass.', ['build']],
    ['**Tests**: ✅ passing', ['test']],
    ['CI is green and the deployment succeeded.', ['ci', 'deploy']],
    ['Ran `npm run lint` — lint passes.', ['lint']],
  ])('%s claims %j pass', (words, kinds) => {
    expect(claimsIn(words).passing.sort()).toEqual([...kinds].sort());
  });

  it.each([
    'The tests should pass once CI picks up the change.',
    'Tests are not passing yet: two fail on the date parser.',
    'All tests pass except the two flaky ones.',
    'Let me run the tests to make sure they pass.',
    'Do the tests pass on your machine?',
    'I added tests for the parser.',
  ])('%s claims no passing check', (words) => {
    expect(claimsIn(words).passing).toEqual([]);
  });

  it('reads a blame of the code before the change only when it is about a failure', () => {
    expect(claimsIn('Control-plane has pre-existing compilation errors unrelated to this change.').blamesBefore).toBe(true);
    expect(claimsIn('The 3 failing tests are unrelated to my changes.').blamesBefore).toBe(true);
    expect(claimsIn('I kept the pre-existing layout of the page.').blamesBefore).toBe(false);
  });

  it('reads a claimed fix, not a plan or a question', () => {
    expect(claimsIn('Fixed. The background now stops at the navbar.').fixed).toBe(true);
    expect(claimsIn('I have completely resolved the 500 Internal Server Error!').fixed).toBe(true);
    expect(claimsIn('Let me know if it works now.').fixed).toBe(false);
    expect(claimsIn('Once deployed, this should be fixed.').fixed).toBe(false);
  });

  it('hears the user dispute a fix only when they say it is still so', () => {
    expect(disputesFix('now its the same as before and the buttons dont work')).toBe(true);
    expect(disputesFix('this is still error after the htaccess fix')).toBe(true);
    expect(disputesFix('custom_feed.js still has that problem')).toBe(true);
    expect(disputesFix('Still doesn\'t work.')).toBe(true);
    expect(disputesFix('Nope, still cannot drag.')).toBe(true);
    // A new report is no dispute of the last fix.
    expect(disputesFix('The "inflation adjusted" toggle doesn\'t work. Fix it.')).toBe(false);
    expect(disputesFix('Great, now add a README.')).toBe(false);
  });
});

describe('what a command checks', () => {
  it.each([
    ['npx vitest run src/cart.test.ts', 'test'],
    ['cd api && cargo test --workspace 2>&1 | tail -20', 'test'],
    ['python -m pytest -q', 'test'],
    ['swift build --package-path control-plane 2>&1 | tail -20', 'build'],
    ['npm run build', 'build'],
    ['npx tsc --noEmit -p tsconfig.json', 'lint'],
    ['flutter analyze', 'lint'],
    ['gh pr checks 42', 'ci'],
    ['ls -la src', undefined],
    ['git commit -m "fix tests"', undefined],
  ])('%s runs %s', (cmd, kind) => {
    expect(checkKindOf({ cmd })).toBe(kind);
  });

  it('sees a failure in the output of a run whose status a pipe lost, not in a passing run that logged an error', () => {
    expect(showsFailure("error: 'control-plane': unknown package 'SwiftSCIM'")).toBe(true);
    expect(showsFailure(' Test Files  1 failed | 7 passed (8)\n      Tests  1 failed | 66 passed (67)')).toBe(true);
    expect(showsFailure('src/a.ts(3,5): error TS2304: Cannot find name x')).toBe(true);
    expect(showsFailure('stderr | upload\nError: boom (expected in this test)\n Test Files  9 passed (9)\n      Tests  77 passed (77)')).toBe(false);
    expect(showsFailure('Compiling cart v0.1.0\nFinished dev [unoptimized] target(s)')).toBe(false);
  });

  it('knows the commands that look at the code before the change', () => {
    expect(looksAtBaseline({ cmd: 'git stash && npm test; git stash pop' })).toBe(true);
    expect(looksAtBaseline({ cmd: 'git worktree add ../base main' })).toBe(true);
    expect(looksAtBaseline({ cmd: 'git checkout main -- src/cart.ts' })).toBe(true);
    expect(looksAtBaseline({ cmd: 'git stash list' })).toBe(false);
    expect(looksAtBaseline({ cmd: 'git checkout -b feature/x' })).toBe(false);
  });
});
