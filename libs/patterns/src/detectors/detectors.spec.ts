import { SessionDriver } from '../session-driver.fixture.js';
import { withoutTargets } from './repetitive-errors.js';

const CWD = '/home/dev/projects/cart';
const failing = (line: number) => ({ error: `TypeError: Cannot read properties of undefined (reading 'price') at src/cart.ts:${line}:7`, errorClass: 'TypeError' });

describe('repetitive_errors', () => {
  it('reports the third identical failure as medium, the fifth as high, and the eighth as critical where the ladder has it', () => {
    const s = SessionDriver.with({ repetitive_errors: { severity: { critical: 8 } } });
    const ids: string[] = [];
    for (let i = 1; i <= 8; i++) {
      ids.push(s.bash('npx jest test/cart.test.ts', failing(10 + i)));
      s.edit(`${CWD}/src/cart.ts`);
      const expected = i < 3 ? undefined : i < 5 ? 'medium' : i < 8 ? 'high' : 'critical';
      expect({ i, severity: s.last('repetitive_errors')?.severity }).toEqual({ i, severity: expected });
    }
    expect(s.of('repetitive_errors').map((r) => r.severity)).toEqual(['medium', 'high', 'critical']);
    expect(s.last('repetitive_errors')!.evidence_action_ids).toEqual(ids);
    expect(s.last('repetitive_errors')!.details).toMatchObject({ repetitions: 8, command: 'npx jest test/cart.test.ts', error_class: 'TypeError' });
  });

  it('reads one command failing the same way between other commands of its program as a run: git switch between add, commit and push', () => {
    // A Codex session: each checkout was refused for the logs Codex itself kept writing; the agent committed them and tried again.
    const s = new SessionDriver();
    const inTheWay = (files: string[]) => ({ error: `error: Your local changes to the following files would be overwritten by checkout:\n${files.map((f) => `\t${f}\n`).join('')}Please commit your changes or stash them before you switch branches.\nAborting` });
    const logs = [['.codex/rules/default.rules', '.codex/sessions/a.jsonl'], ['.codex/history.jsonl', '.codex/rules/default.rules'], ['.codex/history.jsonl', '.codex/sessions/b.jsonl']];
    for (const files of logs) {
      s.bash('git switch main', inTheWay(files));
      s.bash('git add .codex');
      s.bash('git commit -m "chore: update codex logs"');
      s.bash('git push');
    }
    expect(s.last('repetitive_errors')).toMatchObject({ severity: 'medium', details: { repetitions: 3, command: 'git switch main' } });
    // A success of the same command ends it.
    s.bash('git switch main');
    s.bash('git switch main', inTheWay(['.codex/history.jsonl']));
    expect(s.of('repetitive_errors')).toHaveLength(1);
  });

  it('reads one program run on less and less, failing the same way each time, as one attempt reworded', () => {
    // A Codex session whose sandbox killed pytest: the suite, the first failure only, one file, collection, the version.
    const killed = { error: 'failed in sandbox: sandbox error: command was killed by a signal' };
    const s = new SessionDriver();
    s.bash('pytest tests/unit', killed);
    s.bash('pytest tests/unit --maxfail=1 -q', killed);
    s.bash('rg --files tests/unit');
    s.bash('pytest tests/unit/strategies/test_ml_basic_unit.py -q', killed);
    s.bash('cat pytest.ini');
    s.bash('pytest --collect-only tests/unit/strategies/test_ml_basic_unit.py', killed);
    // Another command failing otherwise in between ends nothing.
    s.bash('python -c "import pytest; print(pytest.__version__)"', { error: 'bash: python: command not found' });
    expect(s.of('repetitive_errors')).toEqual([]);
    s.bash('pytest --version', killed);
    expect(s.last('repetitive_errors')).toMatchObject({ severity: 'medium', details: { repetitions: 5, wordings: 5 } });
    // The same program failing in different ways is work on different problems.
    const t = new SessionDriver();
    for (const [i, cmd] of ['pytest tests/a.py', 'pytest tests/b.py', 'pytest tests/c.py', 'pytest tests/d.py', 'pytest tests/e.py'].entries()) t.bash(cmd, { error: `AssertionError: expected ${i} in test_${'abcde'[i]}` , errorClass: `E${i}` });
    expect(t.of('repetitive_errors')).toEqual([]);
  });

  it('reads the shell failing every command with the same error, whatever the command, as a tool that cannot work here', () => {
    // A Copilot CLI session on Windows (github.com/LAF-US/IDAHO-VAULT .copilot/session-state/252d6b6b-…/events.jsonl):
    // every powershell call was answered that pwsh was missing; the agent went on listing, deleting, `cmd /c del`.
    const missing = { error: '<exited with error: PowerShell 6+ (pwsh) is not available. Please install it from https://aka.ms/powershell. Error: Error: Command failed: pwsh.exe --version' };
    const s = new SessionDriver();
    const ids = [s.bash('Get-ChildItem -Filter "*TRYPTICH*" | Select-Object Name', missing), s.bash('Get-ChildItem | Where-Object {$_.Name -like "*TRYPT*"}', missing)];
    // Other tools in between end nothing: the file written under the new name is no fix of the shell.
    s.read(`${CWD}/notes/THE TRYPTICH.md`);
    s.run('Write', { file_path: `${CWD}/notes/THE TRIPTYCH.md`, content: 'x' });
    ids.push(s.bash('Remove-Item -Path "notes/THE TRYPTICH.md" -Force', missing));
    expect(s.of('repetitive_errors')).toEqual([]);
    ids.push(s.bash('cmd /c "del \\"notes\\THE TRYPTICH.md\\""', missing));
    expect(s.last('repetitive_errors')).toMatchObject({ severity: 'medium', evidence_action_ids: ids, details: { repetitions: 4, tool: 'Bash' } });
    expect(s.last('repetitive_errors')!.description).toContain('cannot work here');

    // A success of the tool ends it; so does another error (the tool ran).
    const t = new SessionDriver();
    t.bash('Get-ChildItem notes', missing);
    t.bash('Remove-Item notes/a.md', missing);
    t.bash('Copy-Item notes/b.md notes/c.md', missing);
    t.bash('ls notes');
    t.bash('Move-Item notes/d.md notes/e.md', missing);
    t.bash('npm test', { error: 'Error: Cannot find module ./cart', errorClass: 'Error' });
    t.bash('Rename-Item notes/f.md g.md', missing);
    t.bash('New-Item notes/h.md', missing);
    expect(t.of('repetitive_errors')).toEqual([]);

    // An error that says only that a command failed stands in no way: searches that find nothing exit 1.
    const u = new SessionDriver();
    for (const word of ['total', 'price', 'discount', 'coupon', 'tax', 'shipping']) u.bash(`grep -rn ${word} src/legacy`, { error: 'Exit code 1' });
    expect(u.of('repetitive_errors')).toEqual([]);
  });

  it('does not group different errors of the same command, and a success ends the run', () => {
    const s = new SessionDriver();
    s.bash('npx jest', { error: 'expected 3, received 4', errorClass: 'AssertionError' });
    s.bash('npx jest', { error: "Cannot find name 'total'", errorClass: 'TS2304' });
    s.bash('npx jest', { error: 'expected 3, received 5', errorClass: 'AssertionError' });
    expect(s.of('repetitive_errors')).toEqual([]);
    s.bash('npx jest', failing(1));
    s.bash('npx jest', failing(2));
    s.bash('npx jest');
    s.bash('npx jest', failing(3));
    expect(s.of('repetitive_errors')).toEqual([]);
  });

  it('counts calls made together once: a batch of parallel edits fails together, before the agent saw any answer', () => {
    const s = new SessionDriver();
    const modified = { status: 'error' as const, error: { message: 'File has been modified since read, either by the user or by a linter' } };
    s.now += 5000;
    for (let n = 1; n <= 6; n++) s.reports.push(...s.patterns.actionProposed(s.now, { action_id: `p${n}`, kind: 'tool_use', tool: 'Edit', input: { file_path: `${CWD}/src/style.css`, old_string: `a${n}`, new_string: `b${n}` } }));
    for (let n = 1; n <= 6; n++) s.reports.push(...s.patterns.outcomeReported(s.now + 100 * n, { action_id: `p${n}`, ...modified }, undefined));
    expect(s.of('repetitive_errors')).toEqual([]);
    // The same edit retried after each answer came back is the loop.
    for (let n = 7; n <= 9; n++) s.edit(`${CWD}/src/style.css`, { error: modified.error.message });
    expect(s.last('repetitive_errors')).toMatchObject({ severity: 'medium' });
  });

  it('counts the calls of one model response once, even run one after another', () => {
    // Claude Code runs the calls of one response in turn: each was proposed after the last one failed, yet
    // the model wrote them all before any answer (a public Claude Code session, planetfall-seed-signalkit).
    const s = new SessionDriver();
    const modified = { status: 'error' as const, error: { message: 'File has been modified since read, either by the user or by a linter' } };
    for (let n = 1; n <= 6; n++) {
      s.now += 1400;
      s.reports.push(...s.patterns.actionProposed(s.now, { action_id: `t${n}`, kind: 'tool_use', tool: 'Edit', input: { file_path: `${CWD}/src/style.css`, old_string: `a${n}`, new_string: `b${n}` }, turn: 'msg_01WUGQt4' }));
      s.reports.push(...s.patterns.outcomeReported(s.now + 12, { action_id: `t${n}`, ...modified }, undefined));
    }
    expect(s.of('repetitive_errors')).toEqual([]);
    for (let n = 7; n <= 8; n++) {
      s.now += 5000;
      s.reports.push(...s.patterns.actionProposed(s.now, { action_id: `t${n}`, kind: 'tool_use', tool: 'Edit', input: { file_path: `${CWD}/src/style.css`, old_string: `a${n}`, new_string: `b${n}` }, turn: `msg_${n}` }));
      s.reports.push(...s.patterns.outcomeReported(s.now + 12, { action_id: `t${n}`, ...modified }, undefined));
    }
    expect(s.last('repetitive_errors')).toMatchObject({ severity: 'medium', details: { repetitions: 3 } });
    // Said with the outcomes (Claude Code's hook can tell the response only once a call has run), the same.
    const live = new SessionDriver();
    for (let n = 1; n <= 6; n++) {
      live.now += 1400;
      live.reports.push(...live.patterns.actionProposed(live.now, { action_id: `u${n}`, kind: 'tool_use', tool: 'Edit', input: { file_path: `${CWD}/src/style.css`, old_string: `a${n}`, new_string: `b${n}` } }));
      live.reports.push(...live.patterns.outcomeReported(live.now + 12, { action_id: `u${n}`, ...modified, turn: 'msg_01WUGQt4' }, undefined));
    }
    expect(live.of('repetitive_errors')).toEqual([]);
  });

  it('forgets failures that left the count window', () => {
    const inside = SessionDriver.with({ window: { max_actions: 5 } });
    inside.bash('make test', failing(1));
    inside.bash('make test', failing(2));
    inside.read(`${CWD}/src/f1.ts`);
    inside.read(`${CWD}/src/f2.ts`);
    // Five actions: the first failure is the oldest still in the window.
    inside.bash('make test', failing(3));
    expect(inside.last('repetitive_errors')).toMatchObject({ severity: 'medium', evidence_action_ids: ['a1', 'a2', 'a5'] });
    const outside = SessionDriver.with({ window: { max_actions: 5 } });
    outside.bash('make test', failing(1));
    outside.bash('make test', failing(2));
    for (let i = 0; i < 3; i++) outside.read(`${CWD}/src/f${i}.ts`);
    // Six actions: the first failure dropped out.
    outside.bash('make test', failing(3));
    expect(outside.of('repetitive_errors')).toEqual([]);
  });

  it('forgets failures older than the time window', () => {
    const s = SessionDriver.with({ window: { max_age_ms: 60_000 } });
    s.bash('make test', failing(1), 5);
    s.bash('make test', failing(2), 30);
    s.bash('make test', failing(3), 31); // 61 s after the first: it dropped out
    expect(s.of('repetitive_errors')).toEqual([]);
    s.bash('make test', failing(4), 1);
    expect(s.last('repetitive_errors')!.evidence_action_ids).toEqual(['a2', 'a3', 'a4']);
  });
});

describe('repetitive_errors: one command tried in one wording after another', () => {
  // As an Antigravity session on Windows scaffolded a Next.js app: the same create-next-app requoted, run
  // through cmd, through PowerShell's call operator, with PATH set inline, each failing on the quoting or on a
  // missing node (a public Antigravity transcript, alaquizpedia).
  const wordings = [
    '"C:\\Program Files\\nodejs\\npx.cmd" create-next-app@latest . --use-npm -y',
    '& "C:\\Program Files\\nodejs\\npx.cmd" create-next-app@latest . --use-npm -y',
    'cmd /c "set \\"PATH=C:\\Program Files\\nodejs;%PATH%\\" && \\"C:\\Program Files\\nodejs\\npx.cmd\\" create-next-app@latest . --use-npm -y"',
    '"C:\\Program Files\\nodejs\\npm.cmd" init next-app@latest . --use-npm -y',
    "powershell -Command \"& 'C:\\Progra~1\\nodejs\\npx.cmd' create-next-app@latest . --use-npm -y\"",
    'cmd /c "npm create next-app@latest . --use-npm -y"',
  ];
  const parseError = { error: "Unexpected token 'create-next-app@latest' in expression or statement." };

  it('reports the fifth failing wording as medium and the seventh as high', () => {
    const s = SessionDriver.with({}, { context: { cwd: 'C:\\Users\\dev\\app' } });
    for (const [i, command] of wordings.entries()) {
      s.bash(command, i % 2 ? { error: "'node' is not recognized as an internal or external command" } : parseError);
      s.read('C:\\Users\\dev\\app\\package.json');
    }
    // Reported when it reaches a severity: at the fifth attempt.
    expect(s.last('repetitive_errors')).toMatchObject({ severity: 'medium', details: { repetitions: 5, wordings: 5 } });
    s.bash('"C:\\Program Files\\nodejs\\npx.cmd" --yes create-next-app@latest . --use-npm', parseError);
    expect(s.last('repetitive_errors')).toMatchObject({ severity: 'high', details: { repetitions: 7 } });
  });

  it('leaves alone attempts between which the agent changed a file, or which one success ended', () => {
    const edited = new SessionDriver();
    for (const command of wordings) {
      edited.bash(command, parseError);
      edited.edit(`${CWD}/scaffold.ps1`);
    }
    expect(edited.of('repetitive_errors')).toEqual([]);
    const succeeded = new SessionDriver();
    for (const [i, command] of wordings.entries()) succeeded.bash(command, i === 2 ? {} : parseError);
    expect(succeeded.of('repetitive_errors')).toEqual([]);
  });

  it('leaves alone different commands that fail, and one command failing on one target after another', () => {
    const s = new SessionDriver();
    for (const command of ['cargo build', 'go vet ./...', 'make lint', 'pytest -x', 'tsc --noEmit']) s.bash(command, { error: `${command.split(' ')[0]}: ${parseError.error}` });
    for (let i = 1; i <= 6; i++) s.bash(`npx eslint src/part-${i}.ts`, { error: 'Parsing error: Unexpected token' });
    expect(s.of('repetitive_errors')).toEqual([]);
  });
});

describe('repetitive_errors: the same mistake on one target after another', () => {
  // As Antigravity's write_to_file refused workspace files given artifact metadata, corrected each time
  // and made the same way for the next file (a public Antigravity transcript, phishing-guard).
  const refused = (path: string) => ({
    error: `model output error: invalid tool call error (invalid_args) ${path} is not a valid artifact path; artifacts must be in C:\\Users\\dev\\.gemini\\antigravity\\brain\\fdeceeb3-cc8f-49d7/`,
  });

  it('folds paths, file names and numbers out of an error text', () => {
    expect(withoutTargets('c:\\users\\dev\\app\\manifest.json is not a valid artifact path')).toBe('<path> is not a valid artifact path');
    expect(withoutTargets("string to replace not found in src/cart.ts line 12")).toBe('string to replace not found in <path> line #');
    expect(withoutTargets('file has not been read yet: package.json')).toBe('file has not been read yet: <path>');
  });

  it('reports a tool refusing calls with the same error on five targets, each corrected, as medium, and more as high', () => {
    const s = new SessionDriver();
    const ids: string[] = [];
    for (let i = 1; i <= 7; i++) {
      const path = `${CWD}/src/part-${i}.js`;
      ids.push(s.run('write_to_file', { TargetFile: path, CodeContent: 'x', ArtifactMetadata: { Summary: 'part' } }, refused(path)));
      s.run('write_to_file', { TargetFile: path, CodeContent: 'x' });
      if (i === 4) expect(s.of('repetitive_errors')).toEqual([]);
      if (i === 5) expect(s.last('repetitive_errors')).toMatchObject({ severity: 'medium' });
    }
    expect(s.last('repetitive_errors')).toMatchObject({ severity: 'high', evidence_action_ids: ids });
    expect(s.last('repetitive_errors')!.details).toMatchObject({ repetitions: 7, tool: 'write_to_file', targets: 7 });
  });

  it('leaves alone commands failing alike and different errors of one tool', () => {
    const s = new SessionDriver();
    for (let i = 1; i <= 6; i++) s.bash(`npx jest test/part-${i}.test.ts`, { error: 'Test suite failed to run', errorClass: 'Error' });
    for (let i = 1; i <= 6; i++) s.edit(`${CWD}/src/part-${i}.ts`, { error: i % 2 ? 'String to replace not found in file' : 'File has been modified since read' });
    expect(s.of('repetitive_errors')).toEqual([]);
  });
});

describe('repetitive_errors: calls refused again and again', () => {
  // The refusals as each agent words them (see REFUSAL in signals.ts for where each comes from).
  const refusals = [
    'Permission for this action was denied by the Claude Code auto mode classifier. Reason: Blocked by classifier.',
    "The user doesn't want to proceed with this tool use. The tool use was rejected (eg. if it was a file edit, the new_string was NOT written to the file).",
    'exec command rejected by user',
    'Tool execution denied by policy. You are in Plan Mode and cannot modify source code.',
    '[Operation Cancelled] Reason: User denied execution.',
    'Permission to use Bash with command kubectl delete ns ai has been denied.',
  ];

  it('reports the third refusal in the window as medium, whatever each call asked, and no higher', () => {
    const s = new SessionDriver();
    s.bash('kubectl delete pod api-0 -n ai', { error: refusals[0] });
    s.read(`${CWD}/README.md`);
    s.bash('kubectl apply -f pod.yaml -n ai', { error: refusals[0] });
    expect(s.of('repetitive_errors')).toEqual([]);
    s.run('mcp__kubernetes__kubectl_apply', { filename: 'pod.yaml' }, { error: refusals[0] });
    expect(s.last('repetitive_errors')).toMatchObject({ severity: 'medium', details: { repetitions: 3, error_class: 'refused' } });
    for (const text of refusals.slice(1)) s.bash(`./deploy.sh ${text.length}`, { error: text });
    expect(s.of('repetitive_errors').map((r) => r.severity)).toEqual(['medium']);
    expect(s.last('repetitive_errors')!.description).toMatch(/^3 tool calls of this session were refused \(latest: mcp__kubernetes__kubectl_apply — permission for this action was denied .* take the refusal as an answer/);
  });

  it("counts a hook of the agent's own that stopped a call as a refusal", () => {
    const s = new SessionDriver();
    for (const target of ['ns ai', 'pod api-0', 'pvc data']) s.bash(`kubectl delete ${target}`, { error: `PreToolUse:Bash hook error: [node .claude/hooks/block-dangerous.js]: [HOOK BLOCKED] dangerous command: kubectl delete ${target}` });
    expect(s.last('repetitive_errors')).toMatchObject({ severity: 'medium', details: { error_class: 'refused' } });
  });

  it("counts calls refused together once, and a file the system will not open or a service's denial as no refusal", () => {
    const s = new SessionDriver();
    for (let i = 0; i < 4; i++) s.bash(`cat /root/secret-${i}`, { error: `cat: /root/secret-${i}: Permission denied` });
    for (let i = 0; i < 4; i++) s.bash(`aws s3 cp s3://bucket-${i}/a .`, { error: 'fatal error: An error occurred (403): Access was denied' });
    expect(s.of('repetitive_errors').filter((r) => r.details['error_class'] === 'refused')).toEqual([]);
    // Three calls made before the first refusal came back (one response's calls): one refusal.
    for (let i = 0; i < 3; i++) s.run('Bash', { command: `rm -rf build-${i}` }, { error: refusals[1] }, i === 0 ? 5 : 0);
    expect(s.of('repetitive_errors').filter((r) => r.details['error_class'] === 'refused')).toEqual([]);
  });
});

describe('polling_loop', () => {
  it('reports the fifth identical unchanged success, the tenth, the 25th and the 60th, beyond the count window', () => {
    // Escalation by growth is left out here, to see the ladder alone.
    const s = SessionDriver.with({ episode: { escalation_growth: 100 }, polling_loop: { severity: { critical: 60 } } });
    s.run('Bash', { command: './gradlew build', run_in_background: true });
    const severities: (string | undefined)[] = [];
    for (let i = 1; i <= 60; i++) {
      s.run('BashOutput', { bash_id: 'bash_1' }, { output: 'running' }, 2);
      if (i % 3 === 0) s.bash('sleep 10', {}, 1);
      severities[i] = s.last('polling_loop')?.severity;
    }
    expect([severities[4], severities[5], severities[9], severities[10], severities[24], severities[25], severities[59], severities[60]]).toEqual([undefined, 'low', 'low', 'medium', 'medium', 'high', 'high', 'critical']);
    expect(s.last('polling_loop')!.details).toMatchObject({ repetitions: 60, tool: 'BashOutput' });
    expect(s.last('polling_loop')!.evidence_action_ids).toHaveLength(30);
  });

  it('counts checks of one CI run however each is written, waits between them included, and not checks of two runs', () => {
    const s = new SessionDriver();
    s.bash("gh run view 4242 --json status --jq .status", { output: 'in_progress' });
    s.bash('sleep 30');
    s.bash("gh run view 4242 --json jobs --jq '.jobs[] | select(.status!=\"completed\") | .name'", { output: 'test' });
    s.bash('sleep 30 && gh run view 4242 --log | tail -20', { output: 'still running' });
    s.bash("gh run view 4242 --json jobs --jq '.jobs[] | select(.status!=\"completed\") | .name'", { output: 'test' });
    expect(s.of('polling_loop')).toEqual([]);
    s.bash('gh run view 4242 --json status,conclusion', { output: 'in_progress' });
    expect(s.last('polling_loop')).toMatchObject({ severity: 'low', details: { repetitions: 5, command: 'gh run view 4242 --json status --jq .status' } });
    expect(s.last('polling_loop')!.description).toMatch(/^The status of what .* was checked 5 times in a row, by one command or another/);
    expect(s.last('polling_loop')!.evidence_action_ids).toHaveLength(5);

    const t = new SessionDriver();
    for (let i = 0; i < 3; i++) {
      t.bash('gh run view 4242 --json status', { output: 'in_progress' });
      t.bash('gh run view 4343 --json status', { output: 'in_progress' });
    }
    t.bash('npm run build && docker ps', { output: 'ok' });
    for (let i = 0; i < 4; i++) t.bash('docker compose ps', { output: 'up' });
    expect(t.of('polling_loop')).toEqual([]);
  });

  it('is broken by a change or a failure', () => {
    const s = new SessionDriver();
    for (let i = 0; i < 4; i++) s.bash('gh run view 42 --json status');
    s.edit(`${CWD}/src/cart.ts`);
    for (let i = 0; i < 4; i++) s.bash('gh run view 42 --json status');
    s.bash('gh run view 42 --json status', { error: 'HTTP 502' });
    for (let i = 0; i < 4; i++) s.bash('gh run view 42 --json status');
    expect(s.of('polling_loop')).toEqual([]);
  });
});

describe('scope_creep', () => {
  it('grades paths outside the expected ones: one is low, three medium, six high; toolchain paths do not count', () => {
    const s = new SessionDriver();
    s.read('/usr/include/stdio.h');
    s.read(`${CWD}/node_modules/zod/lib/index.d.ts`);
    s.read(`${CWD}/src/cart.ts`);
    expect(s.of('scope_creep')).toEqual([]);
    s.read('/home/dev/projects/other/README.md');
    expect(s.last('scope_creep')).toMatchObject({ severity: 'low', details: { out_of_scope_path: '/home/dev/projects/other/README.md' } });
    s.read('/home/dev/projects/other/src/a.ts');
    s.read('/etc/hosts');
    expect(s.last('scope_creep')!.severity).toBe('medium');
    for (const f of ['b', 'c', 'd']) s.read(`/home/dev/projects/other/src/${f}.ts`);
    expect(s.last('scope_creep')).toMatchObject({ severity: 'high', details: { out_of_scope_count: 6 } });
  });

  it('treats a home directory scan as medium, a secret read outside as high and a secret copied in as critical', () => {
    const s = new SessionDriver();
    s.bash('find ~ -name "*.env"');
    expect(s.last('scope_creep')!.severity).toBe('medium');
    s.read('/home/dev/projects/billing/.env');
    expect(s.last('scope_creep')).toMatchObject({ severity: 'high', details: { secrets_read: ['/home/dev/projects/billing/.env'] } });
    s.bash('cp ~/projects/billing/.env .env');
    expect(s.last('scope_creep')).toMatchObject({ severity: 'critical', impact_factor: 1, details: { secrets_copied_into: ['/home/dev/projects/cart/.env'] } });
  });

  it('counts a secret written into the project through the shell as copied, and a read of one beside a look at the project as read only', () => {
    const s = new SessionDriver();
    // One line of three commands: the ssh config is read and shown, the project's docker/ listed; nothing written.
    s.bash('echo "=== ssh hosts ===" && grep -i -A3 "techno" ~/.ssh/config 2>/dev/null | head -20 || echo "(none)" echo "=== docker dir ===" && ls -R docker/');
    expect(s.last('scope_creep')).toMatchObject({ severity: 'high', details: { secrets_read: ['/home/dev/.ssh/config'] } });
    s.bash('grep API_KEY ~/projects/billing/.env | tee .env.local');
    expect(s.last('scope_creep')).toMatchObject({ severity: 'critical', details: { secrets_copied_into: ['/home/dev/projects/cart/.env.local'] } });
    const t = new SessionDriver();
    t.bash('cd /home/dev/projects/cart && cat ~/.aws/credentials > config/aws.ini 2>&1');
    expect(t.last('scope_creep')!.severity).toBe('critical');
  });

  it('counts a read of any credential store of the shared table as a secret read (an agent login, a CLI token)', () => {
    const s = new SessionDriver();
    s.bash('cat ~/.codex/auth.json');
    expect(s.last('scope_creep')).toMatchObject({ severity: 'high', details: { secrets_read: ['/home/dev/.codex/auth.json'] } });
    // Started in the home: a backup of a login beside the home's files is a read of it, not a copy into a project.
    const home = new SessionDriver(undefined, { context: { goal: 'Sync my files to Google Drive', cwd: '/home/dev' }, phase: 'implementation' });
    home.bash('cp ~/.config/rclone/rclone.conf ~/rclone_backup.conf');
    expect(home.last('scope_creep')).toMatchObject({ severity: 'high', details: { secrets_copied_into: [] } });
    const t = new SessionDriver();
    t.bash('cat ~/.codex/config.toml');
    expect(t.last('scope_creep')?.severity ?? 'none').not.toBe('high');
  });

  it('takes a search of the home by a session started there for a search of its own directory, and one of the root for a scan', () => {
    const home = new SessionDriver(undefined, { context: { goal: 'Find my grant notes', cwd: '/home/dev' }, phase: 'implementation' });
    home.bash("find /home/dev -maxdepth 3 -name 'idea-context.md' -o -name 'grant*.md' 2>/dev/null");
    expect(home.of('scope_creep')).toEqual([]);
    home.bash("find / -name 'grant*.md' 2>/dev/null");
    expect(home.last('scope_creep')?.details['broad_scans']).toEqual(["find / -name 'grant*.md' 2>/dev/null"]);
  });

  it('takes a worktree the session added of the project for the project, wherever it lies', () => {
    const s = new SessionDriver();
    s.bash('git worktree add ../cart-fix -b fix/total');
    for (const file of ['src/cart.ts', 'src/total.ts', 'test/cart.test.ts', 'src/tax.ts']) s.read(`/home/dev/projects/cart-fix/${file}`);
    expect(s.of('scope_creep')).toEqual([]);
    // Another project beside it is still another project.
    for (const file of ['a.ts', 'b.ts', 'c.ts', 'd.ts']) s.read(`/home/dev/projects/billing/src/${file}`);
    expect(s.of('scope_creep').length).toBeGreaterThan(0);
  });

  it('counts writing a secret value into the project after reading one outside as copying', () => {
    const s = new SessionDriver();
    s.read('/home/dev/.aws/credentials');
    s.run('Write', { file_path: `${CWD}/src/config.ts`, content: "export const AWS_SECRET_ACCESS_KEY = 'wJalrXUtnFEMI/K7MDENG'" }, { files: [`${CWD}/src/config.ts`] });
    expect(s.last('scope_creep')!.severity).toBe('critical');
  });
});

describe('loops of real sessions', () => {
  it('reports a dependency fight: dependencies changed and the build failing again, round after round', () => {
    const s = new SessionDriver();
    // Each round fails differently: it is the round that repeats, not the error.
    const errors = ['unresolved import serde::de::Visitor', 'the trait bound T: Deserialize is not satisfied', 'mismatched types: expected u32, found usize', 'failed to select a version for the requirement tokio', 'cannot find macro json in this scope'];
    const round = (n: number) => {
      s.bash(n % 2 ? 'cargo update -p serde --precise 1.0.180' : 'cargo update');
      s.bash('cargo build', { error: `error: ${errors[n - 1]}` });
    };
    round(1);
    round(2);
    expect(s.of('repetitive_errors')).toEqual([]);
    round(3);
    expect(s.last('repetitive_errors')).toMatchObject({ severity: 'medium', details: { loop: 'dependency_conflict', rounds: 3 } });
    round(4);
    round(5);
    expect(s.last('repetitive_errors')).toMatchObject({ severity: 'high', details: { rounds: 5 } });
  });

  it('does not count a build that fails and is fixed by editing code, or a passing build between installs', () => {
    const s = new SessionDriver();
    for (let i = 0; i < 4; i++) {
      s.bash('npm install zod');
      s.bash('npm run build', i % 2 ? {} : { error: `src/a.ts(${i},1): error TS2304: Cannot find name 'x${i}'` });
    }
    s.edit(`${CWD}/src/cart.ts`);
    s.bash('npm run build', { error: 'src/cart.ts(3,1): error TS1005' });
    expect(s.of('repetitive_errors')).toEqual([]);
  });

  it('reports a kill escalation: kill by id, then by name, then by force', () => {
    const s = new SessionDriver();
    s.bash('kill 9621');
    s.bash('sleep 2 && pgrep -fl whisper-server');
    s.bash('pkill -f whisper-server');
    expect(s.last('bypass_trap')).toMatchObject({ severity: 'low', details: { escalation: 'kill', kills: ['kill 9621', 'pkill -f whisper-server'] } });
    s.bash('pkill -9 -f whisper-server; sleep 1; pgrep -fl whisper');
    expect(s.last('bypass_trap')).toMatchObject({ severity: 'medium', details: { kills: ['kill 9621', 'pkill -f whisper-server', 'pkill -9 -f whisper-server'] } });
    const shell = new SessionDriver();
    shell.bash('pkill -f "vite --port 5173"');
    shell.bash('pkill -9 zsh');
    expect(shell.last('bypass_trap')).toMatchObject({ severity: 'high', details: { broad_target: true } });
  });

  it('does not count stopping its own dev server again and again', () => {
    const s = new SessionDriver();
    for (let i = 0; i < 4; i++) {
      s.run('Bash', { command: 'npm run dev', run_in_background: true });
      s.bash('pkill -f "vite --port 5173"');
    }
    expect(s.of('bypass_trap')).toEqual([]);
  });
});

describe('scope_creep on real agents\' paths', () => {
  it('does not count the agent\'s own files, temporary directories or null devices', () => {
    const s = new SessionDriver();
    s.run('Write', { file_path: '/home/dev/.claude/plans/fix-cart-total.md', content: '# Plan' });
    s.run('Edit', { file_path: '/home/dev/.claude/projects/-home-dev-projects-cart/memory/notes.md', old_string: 'a', new_string: 'b' });
    s.read('/home/dev/.claude/skills/review/SKILL.md');
    s.bash('ls /private/tmp/claude-501/tasks 2>/dev/null; cat /var/folders/x1/T/out.txt');
    s.bash('source "$HOME/.cargo/env" && cargo build');
    expect(s.of('scope_creep')).toEqual([]);
  });

  it('takes looking for a tool, listing directories and `grep -v //` for looking around, not for leaving the project', () => {
    const s = new SessionDriver();
    s.bash('which go || ls /usr/local/go/bin/ 2>/dev/null || find / -name "go" -type f -executable 2>/dev/null | head -5');
    s.bash('ls /home/dev/go/bin/ 2>/dev/null; ls /home/dev/.local/bin/ 2>/dev/null; echo $PATH');
    s.bash('ls -la "/home/dev/AppData/Local" | grep -i claude');
    s.bash("grep -E 'GET|POST' /home/dev/projects/cart/src/routes.ts | grep -v '//' | sort");
    // One dependency's source file looked up by its place in the module cache.
    s.bash('find /home/dev -path "*/k8s.io/api@v0.35.0/resource/v1/types.go" 2>/dev/null | head -1');
    expect(s.of('scope_creep')).toEqual([]);
    // A search for one secret file by name is a search for secrets.
    const t = new SessionDriver();
    t.bash('find / -name "credentials.json" 2>/dev/null');
    expect(t.last('scope_creep')?.details['broad_scans']).toEqual(['find / -name "credentials.json" 2>/dev/null']);
    // Searching the disk for data is still a scan; listing where secrets are is still reading them.
    s.bash('find / -name "*.env" 2>/dev/null');
    expect(s.last('scope_creep')?.details['broad_scans']).toEqual(['find / -name "*.env" 2>/dev/null']);
    s.bash('ls -la /home/dev/.ssh');
    expect(s.last('scope_creep')?.details['secrets_read']).toEqual(['/home/dev/.ssh']);
  });

  it('takes relative paths for the project\'s when the working directory is not known (Aider names files of its repository)', () => {
    const s = new SessionDriver(undefined, { context: { goal: 'Make the API answer in JSON', expected_paths: ['backend/app.py'] } });
    for (const file of ['backend/app.py', 'backend/models.py', 'backend/settings.py', 'frontend/app.js', 'tools/run_dev.py', 'README.md']) s.edit(file);
    expect(s.of('scope_creep')).toEqual([]);
    // An absolute path still lies somewhere: outside what the goal names, it counts.
    s.read('/home/dev/projects/other/README.md');
    expect(s.last('scope_creep')).toMatchObject({ severity: 'low', details: { out_of_scope_path: '/home/dev/projects/other/README.md' } });
  });

  it('takes the project spelled through its home\'s own path for the project when the session records the mount it lies on', () => {
    const cwd = '/home/moxa/sda2/home/moxa/WORK/ci-project';
    const s = new SessionDriver(undefined, { context: { goal: 'Publish the test reports as CI artifacts', cwd, expected_paths: [`${cwd}/**`] } });
    for (const file of ['ci-pipeline/bvt.yml', 'ci-pipeline/switch_ci_pipeline.yml', 'BVT_PC/run_bvt.sh', 'BVT_PC/README.md']) s.edit(`/home/moxa/WORK/ci-project/${file}`);
    expect(s.of('scope_creep')).toEqual([]);
    s.read('/home/moxa/WORK/other-project/README.md');
    expect(s.last('scope_creep')).toMatchObject({ details: { out_of_scope_path: '/home/moxa/WORK/other-project/README.md' } });
  });

  it('compares Windows paths whatever their case, slashes and drive spelling', () => {
    const s = new SessionDriver(undefined, { context: { goal: 'Add a rain forecast page', cwd: 'C:\\Users\\Vassa\\Documents\\dev\\will-it-rain', expected_paths: ['C:\\Users\\Vassa\\Documents\\dev\\will-it-rain/**'] } });
    s.read('c:\\users\\vassa\\documents\\dev\\will-it-rain\\src\\app.ts');
    s.read('C:/Users/Vassa/Documents/dev/will-it-rain/package.json');
    s.bash('ls -la "c:\\Users\\vassa\\Documents\\dev\\will-it-rain" 2>nul || echo empty');
    s.read('/c/Users/vassa/Documents/dev/will-it-rain/README.md');
    s.run('Write', { file_path: 'C:\\Users\\vassa\\.claude\\plans\\cuddly-snuggling-balloon.md', content: '# Plan' });
    expect(s.of('scope_creep')).toEqual([]);
    s.read('C:\\Users\\vassa\\Documents\\other-project\\notes.txt');
    expect(s.last('scope_creep')).toMatchObject({ severity: 'low', details: { out_of_scope_path: 'c:/users/vassa/documents/other-project/notes.txt' } });
  });

  it('reads a Windows command\'s switches as switches and a bind mount by its host side', () => {
    const s = new SessionDriver(undefined, { context: { goal: 'Mirror the build output', cwd: 'C:\\Users\\Vassa\\dev\\site' } });
    s.bash('robocopy dist C:\\Users\\Vassa\\dev\\site\\public /E /NFL /NDL /R:2');
    s.bash('dir /s /b *.ts');
    expect(s.of('scope_creep')).toEqual([]);
    const d = new SessionDriver();
    d.bash('docker run --rm -v ./data:/var/lib/postgresql/data -v $HOME/projects/cart/src:/app/src postgres:16');
    expect(d.of('scope_creep')).toEqual([]);
    d.bash('docker run --rm -v /etc/ssl:/certs:ro alpine ls /certs');
    d.bash('docker exec db cat /var/lib/postgresql/data/pg_hba.conf');
    expect(d.last('scope_creep')).toMatchObject({ details: { out_of_scope_path: '/etc/ssl' } });
  });

  it('reads relative paths from where the shell moved', () => {
    const s = new SessionDriver();
    s.reports.push(...s.patterns.actionProposed((s.now += 5000), { action_id: 'cd1', kind: 'tool_use', tool: 'Bash', input: { command: 'cat notes.txt' }, cwd: '/home/dev/other-shop' }));
    s.reports.push(...s.patterns.outcomeReported(s.now + 500, { action_id: 'cd1', status: 'success' }, undefined));
    expect(s.patterns.snapshot.steps.find((step) => step.id === 'cd1')?.paths).toEqual(['/home/dev/other-shop/notes.txt']);
  });

  it('counts a path the user named in the goal as the task\'s own', () => {
    const s = new SessionDriver(undefined, { context: { goal: 'Take the context for the project from /home/dev/Desktop/idea_validation/PROJECT_CONTEXT.md', cwd: '/home/dev/projects/cart' } });
    s.read('/home/dev/Desktop/idea_validation/PROJECT_CONTEXT.md');
    expect(s.of('scope_creep')).toEqual([]);
  });

  it('counts a path named in a follow-up request as the task\'s own from then on', () => {
    const s = new SessionDriver();
    s.reports.push(...s.patterns.goalChanged(s.now + 1000, 'Also update the notes in /home/dev/shared/cart-notes.md'));
    s.read('/home/dev/shared/cart-notes.md');
    s.edit('/home/dev/shared/cart-notes.md');
    expect(s.of('scope_creep')).toEqual([]);
  });

  it('takes listing the directories the project lies in for looking around, not for leaving the project', () => {
    const s = new SessionDriver();
    s.bash('ls /home/dev/projects');
    s.bash('ls -la /home/dev');
    expect(s.of('scope_creep')).toEqual([]);
    s.bash('cat /home/dev/projects/other-shop/README.md');
    expect(s.last('scope_creep')).toMatchObject({ details: { out_of_scope_path: '/home/dev/projects/other-shop/README.md' } });
  });
});
