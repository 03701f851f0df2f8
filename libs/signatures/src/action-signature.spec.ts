import { actionSignature, actionTarget, digest, failureSignature, fingerprint, foldedDigest } from './action-signature.js';

describe('what identifies an action and a failure', () => {
  it('is the command line whatever its spacing, else the file, else the whole input', () => {
    expect(actionTarget({ command: 'cargo   build\n --release', description: 'Build' })).toBe('cargo build --release');
    expect(actionTarget({ file_path: '/w/src/a.ts', old_string: 'x', new_string: 'y' })).toBe('/w/src/a.ts');
    expect(actionTarget({ b: 1, a: 'x' })).toBe(actionTarget({ a: 'x', b: 1 }));
    expect(actionSignature('Bash', { command: 'npm test' })).toBe(actionSignature('Bash', { command: ' npm  test ', description: 'again' }));
    expect(actionSignature('Bash', { command: 'npm test' })).not.toBe(actionSignature('Bash', { command: 'npm run build' }));
  });

  it('digests a text to the same short string each time, and different texts to different ones', () => {
    const texts = Array.from({ length: 20_000 }, (_, i) => `git commit -m "fix ${i}"`);
    expect(new Set(texts.map(digest)).size).toBe(texts.length);
    expect(digest('a'.repeat(4096))).toBe(digest('a'.repeat(4096)));
    expect(digest('a'.repeat(4096)).length).toBeLessThanOrEqual(11);
  });

  it('digests a text with its whitespace folded as the folded text itself', () => {
    for (const text of ['  npm \t test\n\n -- --watch  ', 'a\u00a0\u2028b', '\n\n', 'x', 'cat <<EOF\n  two  spaces\nEOF\n']) {
      const folded = text.replace(/\s+/g, ' ').trim();
      expect(foldedDigest(text)).toEqual({ length: folded.length, digest: digest(folded) });
    }
  });

  it('gives the values it always gave: keys and signatures are stored and compared across versions', () => {
    expect(fingerprint('git status')).toBe('tujpv7');
    expect(digest('git status')).toBe('1ysxpct98h4');
    expect(foldedDigest('  rm -rf   /tmp/x\n\t ')).toEqual({ length: 13, digest: 'xqxos06h6m' });
  });

  it('folds the varying parts of an error: the same failure twice has one signature', () => {
    const a = failureSignature({ message: 'error[E0277]: trait bound not satisfied at src/main.rs:42:7 (took 1.52s)' });
    const b = failureSignature({ message: 'error[E0277]: trait bound not satisfied at src/main.rs:43:9 (took 2.01s)' });
    expect(a).toBe(b);
    expect(failureSignature({ message: 'error: could not find `Cargo.toml`' })).not.toBe(a);
  });

  it('folds the items an error lists: the files in the way of a checkout change from one attempt to the next', () => {
    // git switch, as a Codex session met it again and again while its own logs kept changing the files.
    const checkout = (files: string[]) =>
      failureSignature({ message: `error: Your local changes to the following files would be overwritten by checkout:\n${files.map((f) => `\t${f}\n`).join('')}Please commit your changes or stash them before you switch branches.\nAborting\n` });
    expect(checkout(['.codex/rules/default.rules', '.codex/sessions/2025/12/25/rollout-a.jsonl'])).toBe(checkout(['.codex/history.jsonl', '.codex/sessions/2025/12/25/rollout-b.jsonl']));
    expect(checkout(['.codex/history.jsonl'])).not.toBe(failureSignature({ message: "error: pathspec 'mian' did not match any file(s) known to git\n" }));
  });

  it('tells long failures apart by their error lines, not by the banner every run of the suite prints first', () => {
    const banner = `${'='.repeat(30)}\n  Go Board Engine - Test Suite\n${'='.repeat(30)}\n${Array.from({ length: 12 }, (_, i) => `testCase${i}: ok`).join('\n')}\n`;
    const run = (error: string, ms: number) => failureSignature({ message: `Exit code 1 ${banner}${error}\n    at Object.<anonymous> (Test.js:${ms}:7)\nDone in ${ms}ms` });
    expect(run("TypeError: Cannot read properties of undefined (reading 'setFontColor')", 412)).toBe(run("TypeError: Cannot read properties of undefined (reading 'setFontColor')", 398));
    expect(run('ReferenceError: print is not defined', 412)).not.toBe(run("TypeError: Cannot read properties of undefined (reading 'setFontColor')", 412));
    expect(run('  FAIL: copyBoard should copy values correctly (length mismatch)', 40)).not.toBe(run('ReferenceError: tgtValues is not defined', 40));
  });
});
