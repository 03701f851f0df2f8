import { parseShellCommand, type ShellSegment } from './shell-command.js';
import { expandBraces } from './word-fields.js';

/** The commands that run, as `argv` joined, with how Warden reached them. */
function runs(command: string): string[] {
  return parseShellCommand(command).map((s: ShellSegment) => `${s.argv.join(' ')}${s.via ? ` <${s.via}>` : ''}`);
}

describe('the words the shell makes of one written word', () => {
  it('expands braces as bash does: lists, nested lists, sequences, around text', () => {
    expect(expandBraces('{a,b}')).toEqual(['a', 'b']);
    expect(expandBraces('x{a,{b,c}}y')).toEqual(['xay', 'xby', 'xcy']);
    expect(expandBraces('file{,.bak}')).toEqual(['file', 'file.bak']);
    expect(expandBraces('{1..3}')).toEqual(['1', '2', '3']);
    expect(expandBraces('{c..a}')).toEqual(['c', 'b', 'a']);
    expect(expandBraces('{1..9..4}')).toEqual(['1', '5', '9']);
    expect(expandBraces('{a}')).toEqual(['{a}']);
    expect(expandBraces('{%h}')).toEqual(['{%h}']);
    // More words than any line of work writes: left as written by the caller.
    expect(expandBraces('{1..1000}')).toBeUndefined();
  });

  it('reads a brace expansion as the words it makes, the program too', () => {
    expect(runs('rm -rf {/etc,/usr}')).toEqual(['rm -rf /etc /usr']);
    expect(runs('{rm,-rf,/}')).toEqual(['rm -rf /']);
    expect(runs('mkdir -p src/{api,web}/test')).toEqual(['mkdir -p src/api/test src/web/test']);
    expect(runs('cp config.yml{,.orig}')).toEqual(['cp config.yml config.yml.orig']);
  });

  it('leaves quoted braces and braces that do not expand as written', () => {
    expect(runs("echo '{a,b}' \"{c,d}\"")).toEqual(['echo {a,b} {c,d}']);
    expect(runs("git log --format='{%h}' {x}")).toEqual(['git log --format={%h} {x}']);
    expect(runs("awk '{print $1}' data.txt")).toEqual(['awk {print $1} data.txt']);
  });

  it('splits a word where an unquoted $IFS stands, also in the program', () => {
    expect(runs('rm${IFS}-rf${IFS}/')).toEqual(['rm -rf /']);
    expect(runs('cat$IFS/etc/shadow')).toEqual(['cat /etc/shadow']);
    expect(parseShellCommand('rm${IFS}-rf${IFS}/')[0]).toMatchObject({ name: 'rm', dynamic: [false, false, false] });
  });

  it('splits what an unquoted command substitution prints, when the line says what it prints', () => {
    expect(runs('$(echo rm -rf /)')).toContain('rm -rf /');
    expect(runs('rm `echo -rf /etc`')).toContain('rm -rf /etc');
    // Quoted, it stays one word; printed by a command Warden does not run, it stays unknown.
    expect(parseShellCommand('echo "$(echo a b)"')[0]?.argv).toEqual(['echo', 'a b']);
    expect(parseShellCommand('rm -rf $(cat list.txt)')[0]).toMatchObject({ argv: ['rm', '-rf', '$(cat list.txt)'], dynamic: [false, false, true] });
  });

  it('splits what an unquoted variable holds when the line set it, and keeps a quoted one whole', () => {
    expect(runs("A='-rf /'; rm $A")).toEqual(['rm -rf /']);
    expect(runs('X=/; rm$IFS-rf$IFS$X')).toEqual(['rm -rf /']);
    expect(runs('A="my file.txt"; rm "$A"')).toEqual(['rm my file.txt']);
    expect(parseShellCommand('A="my file.txt"; rm "$A"')[0]?.argv).toEqual(['rm', 'my file.txt']);
    expect(parseShellCommand('rm -rf $UNSET_DIR/x')[0]?.dynamic).toEqual([false, false, true]);
  });

  it('runs a loop body once with each word of a brace expansion', () => {
    expect(runs('for d in {build,/etc}; do rm -rf "$d"; done')).toEqual(['rm -rf build', 'rm -rf /etc']);
  });
});

describe('a script the shell reads from a process substitution', () => {
  it('is what the substitution prints, piped into the shell', () => {
    expect(runs('bash <(echo rm -rf /)')).toEqual(['bash <(echo rm -rf /)', 'echo rm -rf / <bash <(…)>', 'bash <bash <(…)>', 'rm -rf / <bash>', 'echo rm -rf /']);
    expect(runs('source <(echo rm -rf ~)')).toContain('rm -rf ~ <bash>');
    expect(runs('. <(echo git reset --hard)')).toContain('git reset --hard <bash>');
    expect(runs('bash < <(echo rm -rf /)')).toContain('rm -rf / <bash>');
  });

  it("is unknown when a pipeline makes it, as a script piped in is; a program's own output is the program's", () => {
    const [shell] = parseShellCommand('bash <(echo cm0gLXJmIH4= | base64 -d)').filter((s) => s.via === 'bash <(…)' && s.name === 'bash');
    expect(shell?.opaque).toBe('bash runs the script piped into it');
    expect(runs('source <(kubectl completion bash)')).toEqual(['source <(kubectl completion bash)', 'kubectl completion bash']);
  });

  it('leaves a script file and an output process substitution alone', () => {
    expect(runs('bash ./build.sh')).toEqual(['bash ./build.sh']);
    expect(runs('diff <(sort a) <(sort b)')).toEqual(['diff <(sort a) <(sort b)', 'sort a', 'sort b']);
  });
});
