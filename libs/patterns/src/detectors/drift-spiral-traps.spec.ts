import { parseProjectKnowledge } from '@warden/project-knowledge';
import { SessionDriver, T0 } from '../session-driver.fixture.js';
import { detectResourceSpiral } from './resource-spiral.js';

const CWD = '/home/dev/projects/cart';
const failing = (line: number) => ({ error: `TypeError: Cannot read properties of undefined (reading 'price') at src/cart.ts:${line}:7`, errorClass: 'TypeError' });
const refused = { error: 'Error: connect ECONNREFUSED 127.0.0.1:8080', errorClass: 'ECONNREFUSED' };

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
    expect(s.last('goal_drift')!.details).toMatchObject({ goal_files: ['/home/dev/projects/cart/src/cart.ts'], unrelated_changes: 7, worked_on_goal_before: true });
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
    expect(s.last('scope_creep')!.details['out_of_scope_paths']).toContain('/home/dev/Code/fork/Sources/a.swift');
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

  it('without a known working directory, judges by the files the goal names: the reviewer\'s alignment is low for every path there', () => {
    // An Antigravity recording names no working directory; the goal names app.py, the agent edits it by its Windows path.
    const s = SessionDriver.with({}, { context: { goal: 'Fix the phishing score returned by app.py' }, phase: 'implementation' });
    for (const f of ['manifest.json', 'app.py', 'manifest.json', 'app.py']) {
      const id = s.edit(`C:\\Users\\me\\Desktop\\guard\\${f}`);
      s.reports.push(...s.patterns.verdict(s.now, { action_id: id, rationality: { components: { goal_alignment: 0.2 } } }));
    }
    expect(s.of('goal_drift')).toEqual([]);
  });

  it('without a known working directory, takes relative changes for the project where the goal says to work', () => {
    // A Gemini CLI stream names no working directory; the prompt names the project root and a skill file to follow.
    const goal = 'Write React code for the design. Project root: /figma/run-7. Read and follow /figma/run-7/.gemini/skills/figma-to-code/SKILL.md';
    const s = SessionDriver.with({}, { context: { goal }, phase: 'implementation' });
    for (const f of ['src/index.css', 'src/components/ui/Card.tsx', 'src/pages/Products.tsx', 'src/App.tsx', 'ground_truth/manifest.json']) s.edit(f);
    expect(s.of('goal_drift')).toEqual([]);
    // Where the goal names no place to work, the same changes are judged against the file it names.
    const unplaced = SessionDriver.with({}, { context: { goal: 'Write the React code for the design into src/Design.tsx' }, phase: 'implementation' });
    for (const f of ['src/index.css', 'src/components/ui/Card.tsx', 'src/pages/Products.tsx', 'src/App.tsx']) unplaced.edit(f);
    expect(unplaced.last('goal_drift')?.severity).toBe('medium');
  });

  it('takes a document the goal sends the agent to for instructions as no target: the task is what it says', () => {
    for (const goal of ['Read task.md and implement it', 'Write React code for the design. Read and follow .gemini/skills/figma-to-code/SKILL.md', 'Implement the plan in docs/PLAN.md', 'Fix the bug as described in `issue-42.md`']) {
      const s = SessionDriver.with({}, { context: { goal }, phase: 'implementation' });
      for (const f of ['src/types.tsx', 'src/threed-generator.ts', 'src/components/threed-dialog.tsx', 'src/app.tsx', 'src/firaga.tsx']) s.edit(`D:\\github\\repo\\${f.replace(/\//g, '\\')}`);
      expect([goal, s.of('goal_drift')]).toEqual([goal, []]);
    }
    // A document the goal asks to change is the target, and work elsewhere drifts from it.
    const docs = SessionDriver.with({}, { context: { goal: 'Fix the typos in README.md' }, phase: 'implementation' });
    for (const f of ['src/a.ts', 'src/b.ts', 'src/c.ts', 'src/d.ts']) docs.edit(`D:\\github\\repo\\${f.replace(/\//g, '\\')}`);
    expect(docs.last('goal_drift')?.severity).toBe('medium');
  });

  it('judges nothing by a goal\'s words alone where no working directory or expected paths hold the changes', () => {
    // "Proceed" as the first prompt of an Antigravity conversation; a research task told in its domain's words.
    for (const goal of ['Proceed', 'Improve the calibration of the parcel boundary confidences']) {
      const s = SessionDriver.with({}, { context: { goal }, phase: 'implementation' });
      for (const f of ['diagnose_corr.py', 'solve.py', 'diagnose_truths.py', 'solve.py', 'diagnose_global.py', 'solve.py', 'notes.py']) s.edit(`d:/bhume/${f}`);
      expect(s.of('goal_drift')).toEqual([]);
    }
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

  it('reports growth from a rate already past its floor, with the figures throttling needs', () => {
    const s = SessionDriver.with(settings);
    const read = (second: number, path: string, tokens: number, cost: number) => {
      s.now = T0 + second * 1000;
      s.read(`${CWD}/${path}`, { tokens, cost }, 0);
    };
    // The previous minute, already busy: 36 file operations, 720k tokens, $1.80.
    for (let i = 0; i < 36; i++) read(1 + i * 1.6, `src/f${i}.ts`, 20_000, 0.05);
    // The current minute: 150 file operations, 1.5M tokens, $3.00.
    for (let i = 0; i < 150; i++) read(60 + i * 0.39, `src/g${i}.ts`, 10_000, 0.02);
    expect(s.of('resource_spiral').map((r) => r.severity)).toEqual(['medium', 'high']);
    // The figures at the end of the second minute, as the detector reads them now.
    const now = detectResourceSpiral({ state: s.patterns.snapshot, settings: s.settings, completed: s.patterns.snapshot.steps, attempted: s.patterns.snapshot.steps })!;
    expect(now.severity).toBe('high');
    expect(now.details).toMatchObject({
      window_ms: 60_000,
      // Cost grew 1.67 times: no spiral of its own.
      spiralling: ['file_operations_per_min', 'tokens_per_min'],
      growth: { file_operations_per_min: 4.17, tokens_per_min: 2.08, cost_usd_per_min: 1.67, background_processes: 0 },
      current: { file_operations_per_min: 150, tokens_per_min: 1_500_000, cost_usd_per_min: 3, background_processes: 0 },
      previous: { file_operations_per_min: 36, tokens_per_min: 720_000, cost_usd_per_min: 1.8, background_processes: 0 },
      file_operation_growth: 4.17,
      token_usage_growth: 2.08,
    });
  });

  it('reads one busy minute after a quiet one as a burst, not a spiral, unless it passes the ceiling', () => {
    // A real Claude Code session (dev2's planetfall) spent $6.16 in one minute after $1.20, then went back to
    // $0.60 a minute: a throttle there halved what was left of its budget and its cost breaker tripped.
    const s = SessionDriver.with(settings);
    const read = (second: number, path: string, cost: number) => {
      s.now = T0 + second * 1000;
      s.read(`${CWD}/${path}`, { tokens: 10_000, cost }, 0);
    };
    for (let i = 0; i < 6; i++) read(5 + i * 9, `src/f${i}.ts`, 0.05);
    for (let i = 0; i < 60; i++) read(60 + i, `src/g${i}.ts`, 0.05);
    expect(s.of('resource_spiral')).toEqual([]);
    // $12 within a minute is past the ceiling ($10) however quiet the minute before.
    for (let i = 0; i < 60; i++) read(240 + i * 0.5, `src/h${i}.ts`, 0.2);
    expect(s.last('resource_spiral')).toMatchObject({ severity: 'high', details: { spiralling: ['cost_usd_per_min'] } });
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

  it('does not count a script with Windows line endings as a missing command', () => {
    // As bash answered a Codex session on WSL running spec-kit's scripts checked out with CRLF (dev14, DEV half).
    const s = new SessionDriver();
    for (let i = 0; i < 3; i++) {
      s.bash('.specify/scripts/bash/setup-plan.sh --json', { error: "/usr/bin/env: 'bash\\r': No such file or directory" });
      s.bash('bash .specify/scripts/bash/setup-plan.sh --json', { error: ".specify/scripts/bash/setup-plan.sh: line 2: $'\\r': command not found" });
    }
    expect(s.of('hallucination')).toEqual([]);
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

  it('installation: an install forced past the failure (--legacy-peer-deps, --force) is an installation trap', () => {
    const s = new SessionDriver();
    s.bash('npm install framer-motion-3d', { error: 'npm error code ERESOLVE\nnpm error ERESOLVE unable to resolve dependency tree' });
    s.bash('npm install framer-motion-3d --legacy-peer-deps');
    expect(s.last('installation_trap')).toMatchObject({ severity: 'medium', details: { trap: 'installation' } });
    expect(s.of('bypass_trap')).toEqual([]);
  });

  it('installation: the same package installed a third time, one of the installs failing, by any package manager', () => {
    const s = SessionDriver.with({}, { context: { cwd: 'C:\\Users\\dev\\app' } });
    s.bash('winget install -e --id OpenJS.NodeJS.LTS -h', { error: 'Installer failed with exit code: 1603' });
    s.bash('node --version', { error: "'node' is not recognized as an internal or external command" });
    s.bash('winget install -e --id OpenJS.NodeJS.LTS --silent --accept-package-agreements 2>&1');
    expect(s.of('installation_trap')).toEqual([]);
    s.bash('winget install -e --id OpenJS.NodeJS.LTS --silent', { error: 'Found an existing package already installed.' });
    expect(s.last('installation_trap')).toMatchObject({ severity: 'medium', details: { package: 'openjs.nodejs.lts', installs: 3, failed_installs: 2 } });
  });

  it('installation: reinstalling after each failure of the same command, every install working, the failure staying', () => {
    const broken = { error: 'Error: esbuild: Failed to install correctly. Make sure you don\'t have "ignore-scripts" set to true.' };
    const s = new SessionDriver();
    s.bash('npm run build-dev', broken);
    s.bash('npm install');
    s.bash('npm run build-dev', broken);
    s.bash('npm rebuild esbuild');
    s.bash('npm run build-dev 2>&1', broken);
    expect(s.of('installation_trap')).toEqual([]);
    s.bash('Remove-Item -Recurse -Force node_modules; npm install');
    s.bash('npm run build-dev', broken);
    expect(s.last('installation_trap')).toMatchObject({ severity: 'medium', details: { trap: 'installation', reinstalls: 3 } });
    s.bash('npx --yes esbuild@0.11.23 --bundle src/app.tsx');
    s.bash('npm run build-dev', broken);
    expect(s.last('installation_trap')?.severity).toBe('high');
    // A reinstall after which the command works was the fix.
    const t = new SessionDriver();
    t.bash('npm run build', broken);
    t.bash('rm -rf node_modules package-lock.json && npm install');
    t.bash('npm run build');
    t.bash('npm run build', broken);
    t.bash('npm ci');
    t.bash('npm run build', broken);
    expect(t.of('installation_trap')).toEqual([]);
  });

  it('installation: installs that all worked are set-up, and a redirection is no package', () => {
    const s = new SessionDriver();
    for (const dir of ['api', 'worker', 'cli']) s.bash(`cd ${dir} && pip install fastapi 2>&1 | tail -1`);
    expect(s.of('installation_trap')).toEqual([]);
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

  it('bypass: a failing test run or install run again with `|| true`, not a search that may find nothing or a target whose log is read', () => {
    const s = new SessionDriver();
    s.bash('npx jest', failing(1));
    s.bash('npx jest || true');
    expect(s.last('bypass_trap')?.severity).toBe('medium');
    const t = new SessionDriver();
    t.bash('rg aider ~', { error: 'bash: line 1: rg: command not found', errorClass: 'exit_127' });
    t.bash('ls -a ~ | grep aider || true');
    t.bash('grep -rn "profiles" ~/.aider.conf.yml || true; rm -f /tmp/aider.lock || true');
    t.bash('make aider MSG="Echo ok" || true; cat .logs/aider/last.log');
    expect(t.of('bypass_trap')).toEqual([]);
  });

  it('bypass: `set +e` after a failure, unless the line keeps the status to print or exit with', () => {
    const sandbox = { error: 'failed in sandbox LinuxSeccomp with execution error: sandbox denied exec error, exit code: 1', errorClass: 'sandbox' };
    const s = new SessionDriver();
    s.bash('bash scripts/run.sh', sandbox);
    s.bash('tmp=$(mktemp); set +e; bash scripts/run.sh > "$tmp" 2>&1; status=$?; cat "$tmp"; exit $status');
    s.bash('set +e; bash scripts/run.sh > out.log 2>&1; rc=$?; tail out.log; echo "exit:$rc"');
    expect(s.of('bypass_trap')).toEqual([]);
    s.bash('set +e; bash scripts/run.sh; echo done');
    expect(s.last('bypass_trap')?.severity).toBe('medium');
  });

  it.each([
    ['cargo test 2>&1', 'cargo test -- --skip config::tests 2>&1 | tail -10'],
    ['go test ./...', 'go test ./... -skip TestLoadConfig'],
    ['mvn test', 'mvn package -DskipTests'],
    ['./gradlew test', './gradlew build -x integrationTest'],
    ['pytest', 'pytest --ignore=tests/test_config.py'],
    ['npx jest', 'npx jest --testPathIgnorePatterns config'],
    ['dotnet test', 'dotnet test --filter "FullyQualifiedName!=App.Tests.ConfigTests"'],
    ['bundle exec rspec', 'bundle exec rspec --tag ~slow'],
  ])('bypass: after `%s` fails, the failing tests left out of the next run (`%s`)', (run, skipping) => {
    const s = new SessionDriver();
    s.bash(run, failing(1));
    s.bash(skipping);
    expect(s.last('bypass_trap')?.severity).toBe('medium');
    // The same run on its own, or one test picked to run, is no bypass.
    const t = new SessionDriver();
    t.bash(run, failing(1));
    t.bash(`${run} config::tests::loads_credentials`);
    expect(t.of('bypass_trap')).toEqual([]);
  });

  it('bypass: working round a failed login, even after looking at the configuration, instead of asking for it', () => {
    // As an OpenCode session did when `gh auth status` said it was not logged in (a public OpenCode export, cap).
    const notLoggedIn = { error: 'You are not logged into any GitHub hosts. To log in, run: gh auth login' };
    const s = new SessionDriver();
    s.bash('gh auth status', notLoggedIn);
    s.read('/home/dev/.ssh/config');
    s.run('Bash', { command: `node -e 'fetch("https://github.com/login/device/code", { method: "POST", body: "client_id=178c6fc778ccc68e1d6a" })'`, description: 'Requests a device authorization code' });
    expect(s.last('bypass_trap')).toMatchObject({ severity: 'medium', details: { connection_failure: false } });
    s.run('Bash', { command: 'Start-Process -FilePath gh -ArgumentList @(...) -RedirectStandardOutput out.txt', description: 'Starts background GitHub authentication' });
    s.edit('/home/dev/.ssh/config');
    expect(s.last('bypass_trap')!.severity).toBe('high');
    // Logging in as asked, or a write elsewhere, after the same failure is no workaround.
    const t = new SessionDriver();
    t.bash('gh auth status', notLoggedIn);
    t.bash('gh auth login --web');
    t.edit(`${CWD}/README.md`);
    t.run('Bash', { command: 'git push -u origin main', description: 'Pushes the branch in the background of the login' });
    expect(t.of('bypass_trap')).toEqual([]);
    // A project that is an OAuth client itself, testing its own token endpoint after a 401.
    const u = new SessionDriver();
    u.bash('npm run test:e2e', { error: 'GET /api/me: 401 Unauthorized' });
    u.bash('curl -s -X POST http://localhost:3000/oauth/token -d client_id=web-app -d grant_type=client_credentials');
    expect(u.of('bypass_trap')).toEqual([]);
  });

  it('bypass: hunting for another login after a push was refused, instead of asking for access', () => {
    // As a Claude Code session did when GitHub refused its token (dev14, DEV half): a netrc, the keychain, the whole disk.
    const refusedPush = { error: "Exit code 128\nremote: Invalid username or token. Password authentication is not supported for Git operations.\nfatal: Authentication failed for 'https://github.com/acme/site'" };
    const s = new SessionDriver();
    s.bash('git push -u origin feature', refusedPush);
    s.bash('git remote get-url origin');
    s.bash('cat /home/runner/.netrc 2>/dev/null | head -5 || echo "no netrc"');
    expect(s.last('bypass_trap')).toMatchObject({ severity: 'medium' });
    s.bash('git credential fill <<EOF\nprotocol=https\nhost=github.com\nEOF');
    expect(s.last('bypass_trap')!.severity).toBe('high');
    for (const hunt of ['find / -name ".git-credentials" 2>/dev/null | head -5', 'env | grep -i "github\\|token"', 'ls /run/secrets/', 'security find-internet-password -s github.com -w']) {
      const t = new SessionDriver();
      t.bash('git push origin main', refusedPush);
      t.bash(hunt);
      expect(t.last('bypass_trap')).toBeDefined();
    }
    // Looking at how git is set up, or reading the project's own files, after the same failure is no hunt.
    const u = new SessionDriver();
    u.bash('git push origin main', refusedPush);
    u.bash('git config --list | grep -E "url|user"');
    u.read(`${CWD}/.env.example`);
    u.bash('gh auth status');
    expect(u.of('bypass_trap')).toEqual([]);
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
