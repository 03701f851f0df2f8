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
});
