import { SessionDriver } from '../session-driver.fixture.js';

describe('claims at the end of a turn, held against what the session did', () => {
  it('a success its own latest check contradicts is a hallucination; two make it medium', () => {
    const s = new SessionDriver();
    s.edit('/home/dev/projects/cart/src/cart.ts');
    const failed = s.bash('npm test', { error: 'Tests: 2 failed, 40 passed' });
    s.edit('/home/dev/projects/cart/src/cart.ts');
    s.says('Fixed the rounding. All tests pass now.');
    expect(s.last('hallucination')).toMatchObject({ severity: 'low', evidence_action_ids: expect.arrayContaining([failed]) });
    expect(s.last('hallucination')!.description).toContain('tests pass');
    s.edit('/home/dev/projects/cart/src/total.ts');
    s.says('Done — the test suite is green.');
    expect(s.last('hallucination')).toMatchObject({ severity: 'medium' });
  });

  it('a failure the output shows counts though a pipe lost the exit status', () => {
    const s = new SessionDriver();
    s.edit('/home/dev/projects/cart/Package.swift');
    const build = s.bash('swift build 2>&1 | tail -5', { output: "Sources/App/main.swift:3:5: error: cannot find 'Cart' in scope" });
    s.says('The build succeeds.');
    expect(s.last('hallucination')).toMatchObject({ severity: 'low', evidence_action_ids: expect.arrayContaining([build]) });
  });

  it('a success after a passing run claims nothing wrong', () => {
    const s = new SessionDriver();
    s.bash('npm test', { error: 'Tests: 1 failed' });
    s.edit('/home/dev/projects/cart/src/cart.ts');
    s.bash('npm test', { output: 'Tests: 41 passed, 41 total' });
    s.says('All tests pass.');
    expect(s.of('hallucination')).toEqual([]);
  });

  it('failures called pre-existing without a look at the code before the change are an assumption trap', () => {
    const s = new SessionDriver();
    s.edit('/home/dev/projects/cart/src/cart.ts');
    const failed = s.bash('cargo test 2>&1 | tail', { output: 'test result: FAILED. 2 passed; 1 failed' });
    s.says('The remaining failure is pre-existing and unrelated to my change.');
    expect(s.last('assumption_trap')).toMatchObject({ severity: 'low', evidence_action_ids: expect.arrayContaining([failed]) });
  });

  it('calling them pre-existing is fair after running them without the change, or before changing anything', () => {
    const stashed = new SessionDriver();
    stashed.edit('/home/dev/projects/cart/src/cart.ts');
    stashed.bash('cargo test', { error: '1 failed' });
    stashed.bash('git stash && cargo test; git stash pop', { error: '1 failed' });
    stashed.says('The failure is pre-existing: it fails without my change too.');
    expect(stashed.of('assumption_trap')).toEqual([]);

    const seenFirst = new SessionDriver();
    seenFirst.bash('cargo test', { error: '1 failed' });
    seenFirst.edit('/home/dev/projects/cart/src/cart.ts');
    seenFirst.bash('cargo test', { error: '1 failed' });
    seenFirst.says('That failing test is pre-existing.');
    expect(seenFirst.of('assumption_trap')).toEqual([]);
  });

  it('a fix the user says still does not work is a false success; a new request is not', () => {
    const s = new SessionDriver();
    const change = s.edit('/home/dev/projects/cart/src/layout.css');
    s.says('Fixed. The banner now stops at the navbar.');
    s.asks('Please also add a footer.');
    expect(s.of('hallucination')).toEqual([]);
    s.edit('/home/dev/projects/cart/src/footer.css');
    s.says('I have fixed the footer spacing.');
    s.asks('it is still the same as before');
    expect(s.last('hallucination')).toMatchObject({ severity: 'low' });
    expect(s.last('hallucination')!.evidence_action_ids).not.toContain(change);
    expect(s.last('hallucination')!.description).toContain('the user says it still does not work');
  });

  it('rounds of changes the user says still do not work are stagnation, whatever the agent claimed', () => {
    const s = new SessionDriver();
    s.asks('The drag handle does not move the node.');
    const rounds: string[] = [];
    for (const reply of ['same error as before', 'nope, still cannot drag', 'still no go']) {
      rounds.push(s.edit('/home/dev/projects/cart/src/App.tsx'));
      s.says('I changed how the node is dragged.');
      s.asks(reply);
    }
    expect(s.last('stagnation')).toMatchObject({ severity: 'medium', evidence_action_ids: rounds });
    expect(s.last('stagnation')!.description).toContain('3 rounds of changes after which the user said it still does not work');
    // No claim of a fix was made: nothing was said falsely.
    expect(s.of('hallucination')).toEqual([]);
  });

  it('a dispute needs a change before it, and opens the reply: a long specification saying "no change" disputes nothing', () => {
    const s = new SessionDriver();
    for (let i = 0; i < 3; i++) s.asks('still not working');
    s.edit('/home/dev/projects/cart/src/cart.ts');
    s.asks(`${'Add the export button to the toolbar and wire it to the CSV writer. '.repeat(6)}Keep the API as it is: no change to the routes.`);
    expect(s.of('stagnation')).toEqual([]);
  });

  it('is stored with the session and read back by a new replica', () => {
    const s = new SessionDriver();
    s.edit('/home/dev/projects/cart/src/layout.css');
    s.says('Resolved: the layout works correctly now.');
    s.restart();
    s.asks('still broken on mobile');
    expect(s.last('hallucination')).toMatchObject({ severity: 'low' });
  });
});
