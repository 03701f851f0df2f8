#!/usr/bin/env node
// The README's commands on a fresh clone: make sure what they need is installed, build, then run.
//   node tools/bootstrap.mjs demo [warden demo options]   (npm run demo)
//   node tools/bootstrap.mjs test                          (npm test)
//   node tools/bootstrap.mjs bench [benchmark options]    (npm run bench)
// Plain Node with no dependencies: it runs before `npm install`.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const [task, ...args] = process.argv.slice(2);
const env = { ...process.env, NX_DAEMON: 'false', NX_NO_CLOUD: 'true' };

/** Debian packages each task needs, by the binary that shows they are there. */
const SYSTEM_NEEDS = {
  demo: [['nats-server', 'nats-server']],
  bench: [['nats-server', 'nats-server']],
  test: [
    ['nats-server', 'nats-server'],
    ['/usr/lib/postgresql', 'postgresql'],
    ['docker-compose', 'docker-compose'],
    ['promtool', 'prometheus'],
    ['kubectl', 'kubernetes-client'],
    ['/usr/bin/chromium', 'chromium'],
  ],
};

function say(message) {
  process.stdout.write(`\u001b[1m==>\u001b[0m ${message}\n`);
}

function fail(message) {
  process.stderr.write(`error: ${message}\n`);
  process.exit(1);
}

function present(binary) {
  if (binary.startsWith('/')) return existsSync(binary);
  if (spawnSync('sh', ['-c', `command -v ${binary}`], { stdio: 'ignore' }).status === 0) return true;
  return ['/usr/sbin', '/usr/bin', '/sbin'].some((dir) => existsSync(join(dir, binary)));
}

function runSync(command, commandArgs, options = {}) {
  const result = spawnSync(command, commandArgs, { stdio: 'inherit', cwd: root, env, ...options });
  if (result.status !== 0) fail(`\`${command} ${commandArgs.join(' ')}\` failed (exit ${result.status})`);
}

function checkNode() {
  const [major] = process.versions.node.split('.').map(Number);
  if (major < 20) fail(`Node.js 20 or newer is needed (this is ${process.versions.node})`);
}

function installSystemPackages(needs) {
  const missing = needs.filter(([binary]) => !present(binary)).map(([, pkg]) => pkg);
  if (!missing.length) return;
  const isRoot = process.getuid?.() === 0;
  if (!isRoot || !present('apt-get')) {
    fail(
      `missing system packages: ${missing.join(', ')}.\n` +
        `Install them (Debian/Ubuntu): sudo apt-get update && sudo apt-get install -y ${missing.join(' ')}`,
    );
  }
  say(`Installing ${missing.join(', ')} from Debian's packages`);
  runSync('apt-get', ['update', '-qq']);
  runSync('apt-get', ['install', '-y', '-qq', ...missing], { env: { ...env, DEBIAN_FRONTEND: 'noninteractive' } });
}

function installNpmDependencies() {
  const marker = join(root, 'node_modules', '.package-lock.json');
  const lock = join(root, 'package-lock.json');
  const stale = !existsSync(marker) || (existsSync(lock) && statSync(lock).mtimeMs > statSync(marker).mtimeMs);
  if (!stale) return;
  say('Installing npm dependencies');
  runSync('npm', ['install', '--no-audit', '--no-fund']);
}

function build(projects) {
  say('Building');
  runSync('npx', ['nx', 'run-many', '-t', 'build', ...(projects ? ['-p', ...projects] : []), '--output-style=static']);
}

/**
 * Runs the test targets, echoing everything, and ends with the failed tests by name (a CI log is often
 * read from its end) and one `N passed, N failed` line over all projects.
 */
function test() {
  say('Running lint, type checks and tests for every project');
  const child = spawn('npx', ['nx', 'run-many', '-t', 'lint', 'typecheck', 'test', '--parallel=2', '--output-style=stream'], {
    cwd: root,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let passed = 0;
  let failed = 0;
  let pending = '';
  const failures = new Set();
  const scan = (chunk, sink) => {
    sink.write(chunk);
    pending += chunk.toString();
    const lines = pending.split('\n');
    pending = lines.pop();
    for (const raw of lines) {
      const line = raw.replace(/\u001b\[[0-9;]*m/g, '');
      // Jest's failed suites and tests: `project: FAIL test/x.spec.ts`, `project:   ● describe › test`.
      const failure = /^(?:([\w-]+):\s+)?(?:FAIL\s+(\S+)(?:\s+\(.*\))?|●\s+(?!Console\b)(.+))$/.exec(line.trimEnd());
      if (failure) failures.add(`${failure[1] ? `${failure[1]}: ` : ''}${failure[2] ? `suite ${failure[2]}` : failure[3]}`);
      // Jest's summary, possibly prefixed by the project name and coloured.
      const m = /Tests:\s+(?:(\d+) failed, )?(?:\d+ skipped, )?(?:\d+ todo, )?(\d+) passed, \d+ total/.exec(line);
      if (m) {
        failed += Number(m[1] ?? 0);
        passed += Number(m[2]);
      }
      const onlyFailed = /Tests:\s+(\d+) failed, \d+ total/.exec(line);
      if (onlyFailed) failed += Number(onlyFailed[1]);
    }
  };
  child.stdout.on('data', (chunk) => scan(chunk, process.stdout));
  child.stderr.on('data', (chunk) => scan(chunk, process.stderr));
  child.on('exit', (code) => {
    if (failures.size) process.stdout.write(`\nFailed:\n${[...failures].map((f) => `  ${f}`).join('\n')}\n`);
    process.stdout.write(`\n${passed} passed, ${failed} failed\n`);
    process.exit(code === 0 && failed === 0 ? 0 : 1);
  });
}

function hand(command, commandArgs) {
  const child = spawn(command, commandArgs, { cwd: root, env, stdio: 'inherit' });
  // Ctrl-C reaches the child through the terminal; wait for it to stop the suite.
  process.on('SIGINT', () => undefined);
  process.on('SIGTERM', () => child.kill('SIGTERM'));
  child.on('exit', (code) => process.exit(code ?? 1));
}

if (!SYSTEM_NEEDS[task]) fail('usage: node tools/bootstrap.mjs demo|test|bench [options]');
checkNode();
installSystemPackages(SYSTEM_NEEDS[task]);
installNpmDependencies();
switch (task) {
  case 'demo':
    build();
    hand(process.execPath, [join(root, 'apps/cli/bin/warden.js'), 'demo', ...args]);
    break;
  case 'bench':
    build(['reviewer', 'gate', 'bench']);
    hand(process.execPath, [join(root, 'test/bench/dist/main.js'), ...args]);
    break;
  case 'test':
    test();
    break;
}
