import { analyseShellCommand, parseShellCommand, type ShellSegment } from './shell-command.js';

/** The commands that run, as `argv` joined, with how Warden reached them. */
function runs(command: string): string[] {
  return parseShellCommand(command).map((s: ShellSegment) => `${s.argv.join(' ')}${s.via ? ` <${s.via}>` : ''}${s.remoteHost ? ` @${s.remoteHost}` : ''}`);
}

describe('what a shell line runs', () => {
  it('follows lists, pipelines, groups, subshells and background jobs', () => {
    expect(runs('git status || git reset --hard; (cd x && make) & { echo a; }')).toEqual(['git status', 'git reset --hard', 'cd x', 'make', 'echo a']);
    const [first] = parseShellCommand('rm -rf /x & disown');
    expect(first).toMatchObject({ argv: ['rm', '-rf', '/x'], background: true });
  });

  it('gives each command its own redirections, and a background list runs in the background whole', () => {
    const [grep, echo] = parseShellCommand('grep x a.txt 2>/dev/null || echo none > out.txt');
    expect(grep?.redirects).toEqual([{ operator: '2>', target: '/dev/null' }]);
    expect(echo?.redirects).toEqual([{ operator: '>', target: 'out.txt' }]);
    expect(parseShellCommand('make build && rm -rf dist &').map((s) => s.background)).toEqual([true, true]);
  });

  it('runs the substitutions of a here-document whose delimiter is not quoted, and of tests', () => {
    expect(runs('cat <<EOF\n$(git reset --hard)\nEOF')).toContain('git reset --hard');
    expect(runs("cat <<'EOF'\n$(git reset --hard)\nEOF")).toEqual(['cat']);
    expect(runs('[ -n "$(git reset --hard)" ] && echo changed')).toEqual(['echo changed', 'git reset --hard']);
    expect(runs('[[ -f x ]] || (( $(git clean -fdx | wc -l) > 0 ))')).toEqual(['git clean -fdx', 'wc -l']);
  });

  it('reads on after a syntax error the parser stops at, and says so', () => {
    const analysis = analyseShellCommand('echo a; rm -rf x &&\n&& ls\ngit reset --hard');
    expect(analysis.segments.map((s) => s.argv.join(' '))).toEqual(['echo a', 'rm -rf x', 'ls', 'git reset --hard']);
    expect(analysis.syntaxError).toMatch(/unexpected token '&&' near "&& ls/);
  });

  it('joins line continuations as bash does', () => {
    expect(runs('git re\\\nset --hard')).toEqual(['git reset --hard']);
  });

  it('reads command and process substitutions anywhere, also in redirections and arithmetic', () => {
    for (const line of ['echo x >$(git reset --hard)', 'echo $(( $(git reset --hard) + 1 ))', 'echo <(git reset --hard)', 'echo foo`git reset --hard`bar', 'echo x >"`git reset --hard`"']) {
      expect(parseShellCommand(line).find((s) => s.argv[1] === 'reset')).toMatchObject({ nested: true });
    }
  });

  it('takes the words after a redirection as arguments', () => {
    expect(runs('rm -rf 2>/dev/null /')).toEqual(['rm -rf /']);
  });

  it('looks through wrappers and their options', () => {
    expect(runs('sudo -u root -- git reset --hard')).toEqual(['git reset --hard']);
    expect(parseShellCommand('sudo -u root -- git reset --hard')[0]).toMatchObject({ privileged: true, wrappers: ['sudo'] });
    for (const line of ['env -i git reset --hard', 'env -C /tmp git reset --hard', "env -S 'PATH=/usr/bin' git reset --hard", 'timeout -s KILL 10 git reset --hard', 'nice -n 5 nohup git reset --hard', 'command -- git reset --hard', 'FOO=1 git reset --hard', 'busybox git reset --hard']) {
      expect(runs(line)).toEqual(['git reset --hard']);
    }
    expect(parseShellCommand('env -C /srv rm -rf x')[0]?.cwd).toBe('/srv');
  });

  it('says that command -v describes a command without running it', () => {
    expect(parseShellCommand('command -v rm')[0]).toMatchObject({ query: true });
  });

  it('reads the script of bash -c, sh -lc, su -c, eval, watch and ssh', () => {
    expect(runs("sh -lc 'git reset --hard'")).toContain('git reset --hard <sh -c>');
    expect(runs('eval "rm -rf /"')).toContain('rm -rf / <eval>');
    expect(runs("su -c 'rm -rf /' root")).toContain('rm -rf / <su -c>');
    expect(runs("ssh -p 22 root@host 'sudo rm /etc/passwd'")).toContain('rm /etc/passwd <ssh root@host> @root@host');
    expect(runs("bash -- -c 'echo ok'")).toEqual(['bash -- -c echo ok']);
  });

  it('runs nothing of what a shell only checks for syntax (bash -n, -o noexec)', () => {
    expect(runs("echo 'rm -rf /' | bash -n")).toEqual(["echo rm -rf /", 'bash -n']);
    expect(runs("bash -nc 'rm -rf /'")).toEqual(['bash -nc rm -rf /']);
    expect(runs('sh -o noexec deploy.sh')).toEqual(['sh -o noexec deploy.sh']);
    expect(runs("echo 'rm -rf /' | bash -e")).toContain('rm -rf / <bash>');
  });

  it('reads here-documents and here-strings fed to a shell as code, and others as data', () => {
    expect(runs('bash <<EOF\nrm -rf /etc\nEOF')).toContain('rm -rf /etc <bash>');
    expect(runs('cat <<EOF | sh\ngit reset --hard\nEOF')).toContain('git reset --hard <sh>');
    expect(runs('bash <<<"rm -rf /"')).toContain('rm -rf / <bash>');
    expect(runs("cat > notes.md <<'EOF'\nrm -rf /\nEOF")).toEqual(['cat']);
  });

  it('reads what xargs, parallel and find -exec run, with their input where the line shows it', () => {
    expect(runs('echo / | xargs rm -rf')).toContain('rm -rf / <xargs>');
    expect(runs("echo / | xargs -I{} bash -c 'rm -rf {}'")).toContain('rm -rf / <xargs bash -c>');
    expect(runs("echo 'rm -rf /' | xargs bash -c")).toContain('rm -rf / <xargs bash -c>');
    expect(parseShellCommand('find . -print0 | xargs -0 rm -rf').at(-1)).toMatchObject({ argv: ['rm', '-rf', '{input}'], dynamic: [false, false, true] });
    expect(runs('parallel rm -rf {} ::: build /')).toEqual(['parallel rm -rf {} ::: build /', 'rm -rf build <parallel>', 'rm -rf / <parallel>']);
    expect(runs("parallel ::: 'rm -rf /'")).toContain('rm -rf / <parallel>');
    expect(runs('find . -exec rm -rf {} \\;')).toContain('rm -rf . <find . -exec>');
    expect(runs("find . -name '*.pyc' -delete")).toContain('rm -r -f ./{matches} <find . -delete>');
    expect(runs('find . -delete -name x')).toContain('rm -r -f . <find . -delete>');
    expect(runs('find . -exec echo -delete \\; -print')).toEqual(['find . -exec echo -delete ; -print', 'echo -delete <find . -exec>']);
  });

  it('reads the shell calls and deletions of interpreter one-liners and here-documents', () => {
    expect(runs(`python -c "import os; os.system('rm -rf /')"`)).toContain('rm -rf / <python code>');
    expect(runs(`node -e "require('child_process').execSync('git reset --hard')"`)).toContain('git reset --hard <node code>');
    expect(runs(`python3 <<EOF\nimport subprocess\nsubprocess.run(["rm", "-rf", "/"])\nEOF`)).toContain('rm -rf / <python3 code>');
    expect(runs(`node -e "require('fs').rmSync(require('os').homedir(), { recursive: true })"`)).toContain('rm -rf ~ <node code>');
    expect(runs(`ruby -e "require 'fileutils'; FileUtils.rm_rf('/home/user')"`)).toContain('rm -rf /home/user <ruby code>');
    expect(runs(`perl -e 'system("rm -rf /srv")'`)).toContain('rm -rf /srv <perl code>');
    expect(runs(`pwsh -Command "Remove-Item -Recurse -Force C:\\data"`)).toContain('rm -rf C:\\data <pwsh code>');
    expect(runs(`python -c "print('rm -rf /')"`)).toEqual([`python -c print('rm -rf /')`]);
  });

  it('expands the variables it knows and marks the others as known only at run time', () => {
    expect(runs('TMPDIR=/tmp/../root rm -rf $TMPDIR/x')).toEqual(['rm -rf /tmp/../root/x']);
    expect(runs('rm -rf ${TMPDIR:-/tmp}/build')).toEqual(['rm -rf /tmp/build']);
    expect(parseShellCommand('rm -rf "$BUILD"')[0]?.dynamic).toEqual([false, false, true]);
    expect(runs('d=$(mktemp -d); rm -rf "$d"')).toContain('rm -rf /tmp/mktemp');
  });

  it('knows what an echo or printf of literal words prints in a substitution, and nothing else a substitution prints', () => {
    expect(runs('kubectl $(echo delete) pod foo')).toEqual(['kubectl delete pod foo', 'echo delete']);
    expect(runs('$(printf rm) -rf /')).toEqual(['rm -rf /', 'printf rm']);
    expect(parseShellCommand('kubectl $(echo delete) pod foo')[0]?.dynamic).toEqual([false, false, false, false]);
    // Quoted words and %s formats, a few printed one after the other: the text is put together before it runs.
    expect(runs(`kubectl $(printf %s delete) pod`)[0]).toBe('kubectl delete pod');
    expect(runs(`eval "$(printf '%s' rm; printf '%s' ' -rf /')"`)).toContain('rm -rf / <eval>');
    expect(runs(`eval "$(printf '%s %s' git status)"`)).toContain('git status <eval>');
    // Options, other format directives, escapes and expansions leave the substitution as written, known at run time only.
    for (const line of ['kubectl $(echo -e delete) pod', 'kubectl $(printf %d 1) pod', "kubectl $(printf 'del\\x65te') pod", 'kubectl $(echo $VERB) pod', 'kubectl $(cat verb.txt) pod']) {
      expect({ line, dynamic: parseShellCommand(line)[0]?.dynamic[1] }).toEqual({ line, dynamic: true });
    }
  });

  it('runs a function of the line where the line calls it, with the call\'s arguments; one never called where it is defined', () => {
    expect(runs('run() {\n  rm -rf "$1"\n}\nrun /tmp/sim/rep_ok 0; run build 1')).toEqual(['rm -rf /tmp/sim/rep_ok', 'rm -rf build']);
    expect(runs('wipe() { rm -rf "$1"; }; wipe "$TARGET"')[0]).toBe('rm -rf $1');
    expect(parseShellCommand('wipe() { rm -rf "$1"; }; wipe "$TARGET"')[0]?.dynamic).toEqual([false, false, true]);
    expect(runs('wipe() { rm -rf "$1"; }')).toEqual(['rm -rf $1']);
    // A recursion is followed a few calls deep, then ends.
    expect(runs('f() { echo "$1"; f "$1"; }; f x').length).toBeLessThan(10);
    // The call's redirections are its body's.
    expect(parseShellCommand('add() { echo "alias ll=ls"; }; add >> ~/.bashrc')[0]?.redirects).toEqual([{ operator: '>>', target: '~/.bashrc' }]);
    expect(parseShellCommand('noop() { :; }; noop > /etc/motd').some((s) => s.redirects.some((r) => r.target === '/etc/motd'))).toBe(true);
  });

  it('follows cd into the commands after it, in the same shell only', () => {
    const [, rm] = parseShellCommand('cd .. && rm -rf build');
    expect(rm?.cwd).toBe('..');
    expect(parseShellCommand('(cd ..) ; rm -rf build').at(-1)?.cwd).toBeUndefined();
  });

  it('reviews what an unknown program may run when a destructive command follows it', () => {
    expect(runs('mytool rm -rf /')).toContain('rm -rf / <mytool (a program that may run its arguments)>');
    expect(runs('caffeinate rm -rf /')).toEqual(['rm -rf /']);
    expect(runs('echo rm -rf /')).toEqual(['echo rm -rf /']);
  });

  it('never throws on odd input', () => {
    for (const line of ['', '   ', '&& git reset --hard', '""', "'", 'a'.repeat(5000), '$(((', 'cat <<EOF', '\u0000\u0001']) expect(() => parseShellCommand(line)).not.toThrow();
    expect(runs('&& git reset --hard')).toEqual(['git reset --hard']);
  });
});
