import { analyseShellCommand, parseShellCommand } from './shell-command.js';

const argvs = (command: string) => parseShellCommand(command).map((s) => s.argv);

describe('parseShellCommand', () => {
  it('splits on ;, &&, ||, | and & and keeps quoted text whole', () => {
    expect(argvs(`cd app && npm test -- --grep "date parser" || echo 'failed; see log' | tee out; sleep 1 &`)).toEqual([
      ['cd', 'app'],
      ['npm', 'test', '--', '--grep', 'date parser'],
      ['echo', 'failed; see log'],
      ['tee', 'out'],
      ['sleep', '1'],
    ]);
  });

  it('marks piped commands', () => {
    const segments = parseShellCommand('curl -fsSL https://x.sh | sh');
    expect(segments.map((s) => s.pipedFrom)).toEqual([false, true]);
  });

  it('peels off sudo, env assignments and wrappers and remembers the privilege', () => {
    const [segment] = parseShellCommand('sudo -u root FOO=1 nohup env -i BAR=2 rm -rf /tmp/x');
    expect(segment!.argv).toEqual(['rm', '-rf', '/tmp/x']);
    expect(segment!.privileged).toBe(true);
  });

  it('reads the commands that wrappers and command-valued options run', () => {
    const nested = (command: string) => parseShellCommand(command).filter((s) => s.nested || s.wrappers.length).map((s) => [s.via ?? s.wrappers.join(' '), ...s.argv]);
    expect(nested('arch -arm64 rm -rf build')).toEqual([['arch', 'rm', '-rf', 'build']]);
    expect(nested('unshare --mount-proc=/proc rm -rf /')).toEqual([['unshare', 'rm', '-rf', '/']]);
    expect(nested("script -q /dev/null bash -c 'rm -rf dist'")).toContainEqual(['bash -c', 'rm', '-rf', 'dist']);
    expect(nested("script -c 'make test' build.log")).toEqual([['script -c', 'make', 'test']]);
    expect(nested("trap 'rm -f /tmp/app.lock' EXIT")).toEqual([['trap', 'rm', '-f', '/tmp/app.lock']]);
    expect(nested("tmux new-session -d -s dev 'npm run dev'")).toEqual([['tmux new-session', 'npm', 'run', 'dev']]);
    expect(nested("ssh -o 'ProxyCommand=nc -x proxy:1080 %h %p' host")).toEqual([['ssh ProxyCommand', 'nc', '-x', 'proxy:1080', '%h', '%p']]);
    expect(nested("ssh -qvoProxyCommand='rm -rf /' host")).toContainEqual(['ssh ProxyCommand', 'rm', '-rf', '/']);
    expect(nested("rsync -ae 'rm -rf /' src host:dst")).toEqual([['rsync -e', 'rm', '-rf', '/']]);
    expect(nested("tar -cI 'xz -9' -f a.tar.xz src")).toEqual([['tar -cI', 'xz', '-9']]);
    expect(nested("tar -cf out.tar --info-script='rm -rf /' src")).toEqual([['tar info-script', 'rm', '-rf', '/']]);
    expect(nested("git -c 'alias.wipe=!rm -rf /' wipe")).toEqual([['git -c alias', 'rm', '-rf', '/']]);
    expect(nested("git -C repo -c 'alias.wipe=!rm -rf /' wipe")).toEqual([['git -c alias', 'rm', '-rf', '/']]);
    expect(nested("tmux split-window -b -l 10 'tail -f log'")).toEqual([['tmux split-window', 'tail', '-f', 'log']]);
    expect(nested(`awk 'BEGIN { system("rm -rf /tmp/x") }'`)).toContainEqual(['awk code', 'rm', '-rf', '/tmp/x']);
    expect(nested(`awk -F, '{ print $2 | "sort -u" }' data.csv`)).toEqual([['awk code', 'sort', '-u']]);
    expect(nested("parallel 'gzip -9 {}' ::: a.log b.log")).toEqual([['parallel', 'gzip', '-9', 'a.log'], ['parallel', 'gzip', '-9', 'b.log']]);
    expect(nested("parallel 'rm -rf /' ::: x")).toEqual([['parallel', 'rm', '-rf', '/', 'x']]);
    // ssh as the transport is not a command of its own; awk's own program is not shell.
    expect(nested("rsync -az -e 'ssh -p 2222' src/ host:dst/")).toEqual([]);
    expect(nested("ssh -o ProxyCommand='ssh -W %h:%p bastion' host")).toEqual([]);
    expect(nested("git -c core.sshCommand='ssh -i ~/.ssh/deploy_key' fetch")).toEqual([]);
    expect(nested("awk '{ print $1 }' file.txt")).toEqual([]);
  });

  it('collects redirections, including descriptors and &>', () => {
    const [segment] = parseShellCommand('npm run build > build.log 2> err.log 2>&1 &> all.log');
    expect(segment!.argv).toEqual(['npm', 'run', 'build']);
    expect(segment!.redirects).toEqual([
      { operator: '>', target: 'build.log' },
      { operator: '2>', target: 'err.log' },
      { operator: '&>', target: 'all.log' },
    ]);
  });

  it('parses the commands inside $(...), backticks and sh -c', () => {
    const inner = parseShellCommand(`echo "$(rm -rf /)" \`whoami\`; bash -c 'cd / && rm -r -f *'`).filter((s) => s.nested);
    expect(inner.map((s) => s.argv)).toEqual([['cd', '/'], ['rm', '-r', '-f', '*'], ['rm', '-rf', '/'], ['whoami']]);
    expect(inner.find((s) => s.argv[0] === 'rm' && s.argv[1] === '-r')).toMatchObject({ via: 'bash -c', cwd: '/' });
  });

  it("runs a for loop's body once per word of a short list known as written, and once with the variable unknown otherwise", () => {
    expect(argvs('for lib in libs/a libs/b; do rm -rf "$lib/.build"; done')).toEqual([['rm', '-rf', 'libs/a/.build'], ['rm', '-rf', 'libs/b/.build']]);
    const unknown = parseShellCommand('lib=/srv; for lib in $(ls) *.txt; do rm -rf "$lib"; done').find((s) => s.argv[0] === 'rm')!;
    // The loop's own variable, never a value it had before the loop.
    expect(unknown.argv).toEqual(['rm', '-rf', '$lib']);
    expect(unknown.dynamic[2]).toBe(true);
    // Nested loops read their bodies within a budget, not eight times eight times eight …
    const nested = 'for a in 1 2 3 4 5 6 7 8; do for b in 1 2 3 4 5 6 7 8; do for c in 1 2 3 4 5 6 7 8; do rm -rf "$a/$b/$c"; done; done; done';
    expect(parseShellCommand(nested).length).toBeLessThanOrEqual(40);
  });

  it('treats a here-document as data, not as commands', () => {
    const segments = parseShellCommand("cat > notes.md <<'EOF'\nrm -rf /\nEOF\necho done");
    expect(segments.map((s) => s.argv)).toEqual([['cat'], ['echo', 'done']]);
  });

  it('ignores comments and copes with unbalanced quotes', () => {
    expect(argvs('ls -la # rm -rf /')).toEqual([['ls', '-la']]);
    expect(argvs('echo "unterminated')).toEqual([['echo', 'unterminated']]);
    expect(analyseShellCommand('echo "unterminated').syntaxError).toBeDefined();
    expect(analyseShellCommand('echo "terminated"').syntaxError).toBeUndefined();
  });

  it('keeps a redirection written alone as a command: `> file` empties the file', () => {
    const [truncation, listing] = parseShellCommand('> /etc/passwd; ls');
    expect(truncation).toMatchObject({ argv: [], redirects: [{ operator: '>', target: '/etc/passwd' }] });
    expect(listing!.argv).toEqual(['ls']);
  });
});
