import { parseProjectKnowledge } from '@warden/project-knowledge';
import { SessionDriver, T0 } from '../session-driver.fixture.js';
import { detectResourceSpiral } from './resource-spiral.js';

const CWD = '/home/dev/projects/cart';
const failing = (line: number) => ({ error: `TypeError: Cannot read properties of undefined (reading 'price') at src/cart.ts:${line}:7`, errorClass: 'TypeError' });
const refused = { error: 'Error: connect ECONNREFUSED 127.0.0.1:8080', errorClass: 'ECONNREFUSED' };

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

describe('polling_loop', () => {
  it('reports the tenth identical unchanged success, the 25th and the 60th, beyond the count window', () => {
    // Escalation by growth is left out here, to see the ladder alone.
    const s = SessionDriver.with({ episode: { escalation_growth: 100 }, polling_loop: { severity: { critical: 60 } } });
    s.run('Bash', { command: './gradlew build', run_in_background: true });
    const severities: (string | undefined)[] = [];
    for (let i = 1; i <= 60; i++) {
      s.run('BashOutput', { bash_id: 'bash_1' }, { output: 'running' }, 2);
      if (i % 3 === 0) s.bash('sleep 10', {}, 1);
      severities[i] = s.last('polling_loop')?.severity;
    }
    expect([severities[9], severities[10], severities[24], severities[25], severities[59], severities[60]]).toEqual([undefined, 'medium', 'medium', 'high', 'high', 'critical']);
    expect(s.last('polling_loop')!.details).toMatchObject({ repetitions: 60, tool: 'BashOutput' });
    expect(s.last('polling_loop')!.evidence_action_ids).toHaveLength(30);
  });

  it('is broken by a change or a failure', () => {
    const s = new SessionDriver();
    for (let i = 0; i < 9; i++) s.bash('gh run view 42 --json status');
    s.edit(`${CWD}/src/cart.ts`);
    for (let i = 0; i < 9; i++) s.bash('gh run view 42 --json status');
    s.bash('gh run view 42 --json status', { error: 'HTTP 502' });
    for (let i = 0; i < 9; i++) s.bash('gh run view 42 --json status');
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
    expect(s.last('scope_creep')).toMatchObject({ severity: 'low', details: { out_of_scope_path: '~/projects/other/README.md' } });
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
    expect(s.last('scope_creep')).toMatchObject({ severity: 'high', details: { secrets_read: ['~/projects/billing/.env'] } });
    s.bash('cp ~/projects/billing/.env .env');
    expect(s.last('scope_creep')).toMatchObject({ severity: 'critical', impact_factor: 1, details: { secrets_copied_into: ['~/projects/cart/.env'] } });
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
    expect(s.of('scope_creep')).toEqual([]);
    // Searching the disk for data is still a scan; listing where secrets are is still reading them.
    s.bash('find / -name "*.env" 2>/dev/null');
    expect(s.last('scope_creep')?.details['broad_scans']).toEqual(['find / -name "*.env" 2>/dev/null']);
    s.bash('ls -la /home/dev/.ssh');
    expect(s.last('scope_creep')?.details['secrets_read']).toEqual(['~/.ssh']);
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
    expect(s.last('scope_creep')).toMatchObject({ severity: 'low', details: { out_of_scope_path: '~/documents/other-project/notes.txt' } });
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
    expect(s.patterns.snapshot.steps.find((step) => step.id === 'cd1')?.paths).toEqual(['~/other-shop/notes.txt']);
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
    expect(s.last('scope_creep')).toMatchObject({ details: { out_of_scope_path: '~/projects/other-shop/README.md' } });
  });
});

describe('goal_drift', () => {
  it('reports the fourth change in a row that has nothing to do with the goal, the seventh as high', () => {
    const s = new SessionDriver();
    s.edit(`${CWD}/src/cart.ts`);
    const others = ['src/components/header.tsx', 'src/components/footer.tsx', 'src/styles/theme.css', 'README.md', 'src/components/banner.tsx', 'src/styles/layout.css', 'package.json'];
    const severities = others.map((f) => {
      s.edit(`${CWD}/${f}`);
      return s.last('goal_drift')?.severity;
    });
    expect(severities).toEqual([undefined, undefined, undefined, 'medium', 'medium', 'medium', 'high']);
    expect(s.last('goal_drift')!.details).toMatchObject({ goal_files: ['~/projects/cart/src/cart.ts'], unrelated_changes: 7, worked_on_goal_before: true });
  });

  it('counts the goal file, its tests and paths with goal words as related, within the project only', () => {
    const s = new SessionDriver();
    // The project directory is called cart too: only the path inside the project is read for goal words.
    for (const f of ['test/cart.test.ts', 'src/cart.ts', 'lib/cart-helpers.ts', 'src/totals/round.ts']) s.edit(`${CWD}/${f}`);
    for (const f of ['src/a.ts', 'src/b.ts', 'src/c.ts']) s.edit(`${CWD}/${f}`);
    expect(s.of('goal_drift')).toEqual([]);
    s.edit(`${CWD}/src/d.ts`);
    expect(s.last('goal_drift')!.severity).toBe('medium');
    // Back on the goal, then three more elsewhere: still under the threshold, nothing new.
    s.edit(`${CWD}/src/cart.ts`);
    for (const f of ['src/a.ts', 'src/b.ts', 'src/c.ts']) s.edit(`${CWD}/${f}`);
    expect(s.of('goal_drift')).toHaveLength(1);
  });

  it('does not count the agent\'s own plans and notes as changes to the project, nor work outside it (scope creep\'s)', () => {
    const s = new SessionDriver();
    s.edit(`${CWD}/src/cart.ts`);
    for (let i = 0; i < 6; i++) s.run('Write', { file_path: `/home/dev/.claude/plans/cart-plan-${i}.md`, content: '# Plan' });
    s.bash('rm /tmp/cart-scratch.json');
    for (const f of ['a.swift', 'b.swift', 'c.swift', 'd.swift']) s.edit(`/home/dev/Code/fork/Sources/${f}`);
    expect(s.of('goal_drift')).toEqual([]);
    expect(s.last('scope_creep')!.details['out_of_scope_paths']).toContain('~/Code/fork/Sources/a.swift');
  });

  it('takes work where a follow-up request said to build for the task\'s', () => {
    const s = new SessionDriver();
    s.edit(`${CWD}/src/cart.ts`);
    s.reports.push(...s.patterns.goalChanged(s.now + 1000, 'now build the checkout service in /home/dev/projects/checkout'));
    s.reports.push(...s.patterns.goalChanged(s.now + 2000, 'continue building'));
    for (const f of ['main.py', 'README.md', 'LOGIC.md', 'server.py', 'deploy.sh']) s.edit(`/home/dev/projects/checkout/${f}`);
    expect(s.of('goal_drift')).toEqual([]);
  });

  it('follows the reviewer: low goal alignment is unrelated whatever the path', () => {
    const s = new SessionDriver();
    for (let i = 0; i < 4; i++) {
      const id = s.edit(`${CWD}/src/cart.ts`);
      s.reports.push(...s.patterns.verdict(s.now, { action_id: id, rationality: { components: { goal_alignment: 0.1 } } }));
    }
    expect(s.reports.map((r) => `${r.pattern_type}/${r.severity}`)).toEqual(['goal_drift/medium']);
  });
});

describe('resource_spiral', () => {
  // Low floors, so that small figures show the mechanism (the defaults are measured on real sessions).
  const settings = { resource_spiral: { window_ms: 60_000, floors: { cost_usd_per_min: 0.5, background_processes: 3 }, ceilings: { background_processes: 8 } } };

  it('needs the floor: fast growth of a tiny rate is no spiral', () => {
    const s = SessionDriver.with(settings);
    for (let i = 0; i < 5; i++) s.read(`${CWD}/src/f${i}.ts`, {}, 12);
    for (let i = 0; i < 25; i++) s.read(`${CWD}/src/g${i}.ts`, {}, 2);
    expect(s.of('resource_spiral')).toEqual([]);
  });

  it('reports growth past the floor with the figures throttling needs', () => {
    const s = SessionDriver.with(settings);
    const read = (second: number, path: string, tokens: number) => {
      s.now = T0 + second * 1000;
      s.read(`${CWD}/${path}`, { tokens, cost: 0.05 }, 0);
    };
    // The previous minute: 6 file operations, 60k tokens, $0.30.
    for (const [i, second] of [10, 20, 30, 40, 50, 55].entries()) read(second, `src/f${i}.ts`, 10_000);
    // The current minute: 60 file operations, 1.2M tokens, $3.00.
    for (let i = 0; i < 60; i++) read(60 + i, `src/g${i}.ts`, 20_000);
    expect(s.of('resource_spiral').map((r) => r.severity)).toEqual(['medium', 'high']);
    // The figures at the end of the second minute, as the detector reads them now.
    const now = detectResourceSpiral({ snapshot: s.patterns.snapshot, settings: s.settings, completed: s.patterns.snapshot.steps, attempted: s.patterns.snapshot.steps })!;
    expect(now.severity).toBe('high');
    expect(now.details).toMatchObject({
      window_ms: 60_000,
      spiralling: ['file_operations_per_min', 'tokens_per_min', 'cost_usd_per_min'],
      // Growth over the previous rate, taken as at least the floor (30 operations, 250k tokens, $0.50).
      growth: { file_operations_per_min: 2, tokens_per_min: 4.8, cost_usd_per_min: 6, background_processes: 0 },
      current: { file_operations_per_min: 60, tokens_per_min: 1_200_000, cost_usd_per_min: 3, background_processes: 0 },
      previous: { file_operations_per_min: 6, tokens_per_min: 60_000, cost_usd_per_min: 0.3, background_processes: 0 },
      file_operation_growth: 2,
      token_usage_growth: 4.8,
    });
  });

  it('counts background processes: started minus stopped, against the floor', () => {
    const s = SessionDriver.with(settings);
    for (let i = 0; i < 5; i++) s.run('Bash', { command: `node worker.js --shard ${i}`, run_in_background: true }, {}, 1);
    expect(s.of('resource_spiral')).toEqual([]);
    s.run('Bash', { command: 'node worker.js --shard 5', run_in_background: true }, {}, 1);
    expect(s.last('resource_spiral')).toMatchObject({ severity: 'medium', details: { current: { background_processes: 6 }, growth: { background_processes: 2 } } });
    s.run('KillShell', { shell_id: 'bash_1' }, {}, 1);
    expect(s.patterns.snapshot.resources.background).toBe(5);
  });
});

describe('hallucination', () => {
  const missing = (p: string) => ({ error: `ENOENT: no such file or directory, open '${p}'`, errorClass: 'ENOENT' });

  it('reports four missing things within the last fifteen actions, a failed read counting half', () => {
    const s = new SessionDriver();
    s.read(`${CWD}/src/a.ts`, missing('a'));
    s.read(`${CWD}/src/b.ts`, missing('b'));
    s.bash('npm run test:unit', { error: 'npm ERR! Missing script: "test:unit"' });
    s.run('mcp__jira__create_issue', { summary: 'x' }, { error: 'Unknown tool: mcp__jira__create_issue' });
    // Two reads looking where nothing is and two calls of what does not exist: three.
    expect(s.of('hallucination')).toEqual([]);
    s.bash('python manage.py rotate_keys', { error: "python: can't open file 'manage.py': [Errno 2] No such file or directory" });
    expect(s.last('hallucination')).toMatchObject({ severity: 'medium', details: { kinds: { path: 3, command: 1, tool: 1, module: 0 } } });
  });

  it('forgets a miss sixteen actions back', () => {
    const s = new SessionDriver();
    s.read(`${CWD}/src/a.ts`, missing('a'));
    s.read(`${CWD}/src/b.ts`, missing('b'));
    for (let i = 0; i < 13; i++) s.read(`${CWD}/src/ok${i}.ts`);
    s.read(`${CWD}/src/c.ts`, missing('c')); // 'a' is now sixteen back
    expect(s.of('hallucination')).toEqual([]);
  });
});

describe('escalation traps', () => {
  it('installation: installing after a connection failure; a diagnostic in between clears it', () => {
    const s = new SessionDriver();
    s.bash('npm run e2e', refused);
    s.bash('npm install axios@latest');
    expect(s.last('installation_trap')).toMatchObject({ severity: 'medium', details: { connection_failure: true, trap: 'installation' } });
    const t = new SessionDriver();
    t.bash('npm run e2e', refused);
    t.bash('curl -sv http://localhost:8080/health');
    t.bash('npm install axios@latest');
    expect(t.of('installation_trap')).toEqual([]);
  });

  it('installation: an install the reviewer blocked still counts: the agent attempted it', () => {
    const s = new SessionDriver();
    s.bash('npm run e2e', refused);
    s.now += 5000;
    s.reports.push(...s.patterns.actionProposed(s.now, { action_id: 'blocked-install', kind: 'tool_use', tool: 'Bash', input: { command: 'sudo apt-get install -y chromium' } }));
    expect(s.of('installation_trap')).toEqual([]);
    s.reports.push(...s.patterns.verdict(s.now + 10, { action_id: 'blocked-install', verdict: 'block' }));
    expect(s.last('installation_trap')).toMatchObject({ severity: 'medium', evidence_action_ids: expect.arrayContaining(['blocked-install']) });
  });

  it('installation: a missing Python module is no connection failure (ModuleNotFoundError holds "enotfound")', () => {
    const s = new SessionDriver();
    s.bash('python reproduce.py', { error: "ModuleNotFoundError: No module named 'app'" });
    s.bash('sudo apt-get install -y python3-dev');
    expect(s.of('installation_trap')).toEqual([]);
    const t = new SessionDriver();
    t.bash('python fetch.py', { error: 'getaddrinfo ENOTFOUND api.internal' });
    t.bash('pip install requests');
    expect(t.last('installation_trap')).toMatchObject({ details: { connection_failure: true } });
  });

  it('bypass: what follows once the failing action succeeds is no reaction to the failure', () => {
    const s = new SessionDriver();
    s.bash('npm test', failing(1));
    s.edit(`${CWD}/src/date.ts`);
    s.bash('npm test');
    s.bash('git push --force origin main');
    expect(s.of('bypass_trap')).toEqual([]);
    const t = new SessionDriver();
    t.bash('npm test', failing(1));
    t.edit(`${CWD}/src/date.ts`);
    t.bash('git push --force origin main');
    expect(t.of('bypass_trap')).toHaveLength(1);
  });

  it('installation: counts up to reaction_actions after the failure and no further', () => {
    const s = new SessionDriver();
    s.bash('npm run e2e', refused);
    for (let i = 0; i < 7; i++) s.edit(`${CWD}/src/f${i}.ts`);
    s.bash('pip install requests'); // the eighth action after the failure
    expect(s.of('installation_trap')).toHaveLength(1);
    const t = new SessionDriver();
    t.bash('npm run e2e', refused);
    for (let i = 0; i < 8; i++) t.edit(`${CWD}/src/f${i}.ts`);
    t.bash('pip install requests'); // the ninth
    expect(t.of('installation_trap')).toEqual([]);
  });

  it('matches the known issues of the project knowledge file', () => {
    const knowledge = parseProjectKnowledge(
      '[[known_issues]]\nsymptom = "Failed to connect to Playwright server"\nsimple_fix = "Check PLAYWRIGHT_SERVER_URL"\nescalation_trap = "playwright install"\n',
      'toml',
      'knowledge.toml',
    );
    const s = new SessionDriver(undefined, undefined, [knowledge]);
    s.bash('npx playwright test', { error: 'Failed to connect to Playwright server at ws://localhost:3000' });
    s.bash('npx playwright install chromium');
    expect(s.last('installation_trap')).toMatchObject({
      severity: 'high',
      confidence: 0.95,
      details: { known_issue: { symptom: 'Failed to connect to Playwright server', simple_fix: 'Check PLAYWRIGHT_SERVER_URL' } },
    });
  });

  it('bypass: skipping a failing test or committing past the hook; rewriting configuration after a connection failure', () => {
    const s = new SessionDriver();
    s.bash('npx jest', failing(1));
    s.run('Edit', { file_path: `${CWD}/test/cart.test.ts`, old_string: "it('adds'", new_string: "it.skip('adds'" }, { files: [`${CWD}/test/cart.test.ts`] });
    expect(s.last('bypass_trap')!.severity).toBe('medium');
    s.bash('git commit -am wip --no-verify');
    expect(s.last('bypass_trap')!.severity).toBe('high');
    const t = new SessionDriver();
    t.bash('npm run e2e', refused);
    t.edit(`${CWD}/.env.test`);
    expect(t.last('bypass_trap')).toMatchObject({ severity: 'medium', details: { connection_failure: true } });
  });

  it('complexity: containers and mock servers after a failure; five steps are critical', () => {
    const s = new SessionDriver();
    s.bash('npm test', refused);
    s.bash('docker run -d -p 8080:8080 wiremock/wiremock');
    s.run('Write', { file_path: `${CWD}/test/mock-server.js`, content: 'http.createServer()' }, { files: [`${CWD}/test/mock-server.js`] });
    s.bash('docker compose up -d');
    expect(s.of('complexity_trap').map((r) => r.severity)).toEqual(['medium', 'high']);
    s.bash('python3 -m venv /tmp/mockenv');
    s.bash('docker build -t fake-api .');
    expect(s.of('complexity_trap').map((r) => r.severity)).toEqual(['medium', 'high', 'critical']);
  });

  it('complexity: tooling the session worked with before the failure is no workaround; curl -k of its own local service is no bypass', () => {
    const s = new SessionDriver();
    s.bash('docker-compose up -d --build');
    s.bash('docker-compose logs terminal', { error: '[FATAL tini] exec -c failed: No such file or directory' });
    s.bash('docker run --rm tsl0922/ttyd:latest ttyd --help');
    s.bash('docker-compose up -d terminal');
    s.bash('sleep 3 && curl -k https://localhost:8443 | head -5');
    expect(s.of('complexity_trap')).toEqual([]);
    expect(s.of('bypass_trap')).toEqual([]);
    const t = new SessionDriver();
    t.bash('curl https://api.example.com/v1/health', { error: 'curl: (60) SSL certificate problem: certificate has expired' });
    t.bash('sleep 1 && curl -k https://api.example.com/v1/health');
    expect(t.last('bypass_trap')).toMatchObject({ severity: 'medium' });
  });

  it('assumption: three guessed local endpoints after a connection failure, without reading the configuration', () => {
    const s = new SessionDriver();
    s.bash('curl http://localhost:3000/health', { error: 'Failed to connect to localhost port 3000: Connection refused' });
    s.bash('curl http://localhost:3001/health', { error: 'Failed to connect to localhost port 3001: Connection refused' });
    expect(s.of('assumption_trap')).toEqual([]);
    s.bash('curl http://localhost:8080/health');
    expect(s.last('assumption_trap')).toMatchObject({ severity: 'medium', details: { guessed_ports: ['3000', '3001', '8080'] } });
    const t = new SessionDriver();
    t.bash('curl http://localhost:3000/health', { error: 'Failed to connect to localhost port 3000: Connection refused' });
    t.bash('grep -r PORT .env');
    t.bash('curl http://localhost:3001/health');
    t.bash('curl http://localhost:8080/health');
    expect(t.of('assumption_trap')).toEqual([]);
  });
});

describe('stagnation', () => {
  const none = { findings_resolved: 0, new_findings: 0 };

  it('reports the third report without progress in a phase, the fifth as high; progress restarts the count', () => {
    const s = new SessionDriver(undefined, { context: { goal: 'review the rules', cwd: CWD }, phase: 'review' });
    const run = (progress: object) => s.bash('npx eslint src', { progress: progress as never });
    run(none);
    run(none);
    run({ findings_resolved: 1 });
    run(none);
    run(none);
    expect(s.of('stagnation')).toEqual([]);
    run(none);
    expect(s.last('stagnation')).toMatchObject({ severity: 'medium', details: { phase: 'review', iterations_without_progress: 3 } });
    run(none);
    run(none);
    expect(s.last('stagnation')!.severity).toBe('high');
  });

  it('judges progress by the phase of the report, per the seed, and restarts with a new phase', () => {
    const s = new SessionDriver();
    s.patterns.phaseChanged(s.now, 'testing');
    const run = (passed: number) => s.run('Bash', { command: 'npm test' }, { progress: { tests_passed: passed } });
    // Testing progresses when more tests pass than in the phase's last report.
    for (const passed of [3, 3, 3, 4, 4, 4]) run(passed);
    expect(s.of('stagnation')).toEqual([]);
    run(4);
    expect(s.last('stagnation')).toMatchObject({ severity: 'medium', details: { phase: 'testing', iterations_without_progress: 3 } });
    s.patterns.phaseChanged(s.now, 'review');
    s.patterns.phaseChanged(s.now, 'testing');
    run(4);
    run(4);
    expect(s.patterns.snapshot.stagnation.testing).toMatchObject({ count: 1 });
  });
});
