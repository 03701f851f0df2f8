import { applyEdits, commandStart, removeWord, shellCommands } from './shell-words.js';

const values = (line: string) => shellCommands(line).map((words) => words.map((w) => w.value));

describe('shellCommands', () => {
  it('splits simple commands and keeps quoted words whole', () => {
    expect(values('git commit -m "a; b" && git push -f | tee log; echo \'x y\'')).toEqual([
      ['git', 'commit', '-m', 'a; b'],
      ['git', 'push', '-f'],
      ['tee', 'log'],
      ['echo', 'x y'],
    ]);
  });

  it('keeps the positions of words as written', () => {
    const line = 'cd app && git push  --force origin';
    const force = shellCommands(line)[1]![2]!;
    expect(line.slice(force.start, force.end)).toBe('--force');
    const quoted = shellCommands('echo "a b"')[0]![1]!;
    expect(quoted).toMatchObject({ text: '"a b"', value: 'a b' });
  });

  it('keeps redirections to descriptors and substitutions inside their words', () => {
    expect(values('make 2>&1 | cat')).toEqual([['make', '2>&1'], ['cat']]);
    expect(values('echo $(git push -f; ls) done')).toEqual([['echo', '$(git push -f; ls)', 'done']]);
    expect(values('(cd app; ls)')).toEqual([['cd', 'app'], ['ls']]);
  });

  it('skips comments and here-document bodies', () => {
    expect(values("ls # git push -f\ncat <<'EOF'\ngit push -f\nEOF\npwd")).toEqual([['ls'], ['cat', '<<EOF'], ['pwd']]);
    expect(values('cat << EOF > notes.md\ngit push -f\nEOF\npwd')).toEqual([['cat', '<<', 'EOF', '>', 'notes.md'], ['pwd']]);
    expect(values('cat <<-END\n  git push -f\n  END\ndate')).toEqual([['cat', '<<-END'], ['date']]);
  });
});

describe('commandStart', () => {
  it('skips assignments, sudo and its options', () => {
    const [words] = shellCommands('FOO=1 sudo -u deploy -E env git push');
    expect(words![commandStart(words!)]!.value).toBe('git');
    expect(commandStart(shellCommands('FOO=1')[0]!)).toBe(-1);
  });
});

describe('edits', () => {
  it('applies edits from the end and removes a word with its blank', () => {
    const line = 'git commit --no-verify -m x';
    const word = shellCommands(line)[0]![2]!;
    expect(applyEdits(line, [removeWord(line, word)])).toBe('git commit -m x');
    const last = 'git push --no-verify';
    expect(applyEdits(last, [removeWord(last, shellCommands(last)[0]![2]!)])).toBe('git push');
    expect(applyEdits('abc', [{ start: 0, end: 1, text: 'X' }, { start: 2, end: 3, text: 'Z' }])).toBe('XbZ');
  });
});
