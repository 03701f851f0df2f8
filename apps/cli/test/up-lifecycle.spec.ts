import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BACKGROUND_NICENESS, freePort, WORKSPACE_ROOT } from '@warden/local-runtime';
import { OPERATOR_ID_HEADER } from '@warden/contracts';
import { eventually } from '@warden/testing';
import { runWarden } from './hook-suite.fixture.js';

const WARDEN = join(WORKSPACE_ROOT, 'apps/cli/bin/warden.js');

/** A `warden up` run as a person runs it, with what it printed so far. */
class UpProcess {
  output = '';
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;

  constructor(
    readonly child: ChildProcess,
    readonly stateDir: string,
    readonly natsPort: number,
  ) {
    child.stdout!.on('data', (d: Buffer) => (this.output += d.toString()));
    child.stderr!.on('data', (d: Buffer) => (this.output += d.toString()));
    this.exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  }

  static async start(stateDir: string, natsPort: number): Promise<UpProcess> {
    const child = spawn(process.execPath, [WARDEN, 'up', '--state-dir', stateDir, '--nats-port', String(natsPort), '--log-level', 'warn'], {
      cwd: WORKSPACE_ROOT,
      env: { ...process.env, NO_COLOR: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    return new UpProcess(child, stateDir, natsPort);
  }

  printed(pattern: RegExp, timeoutMs = 180_000): Promise<string> {
    return eventually(`warden up to print ${pattern}`, () => {
      if (this.child.exitCode !== null) throw new Error(`warden up exited with ${this.child.exitCode}:\n${this.output}`);
      return this.output;
    }, (text) => pattern.test(text), { timeoutMs, intervalMs: 100 });
  }
}

/**
 * Every process on this machine that belongs to the suite on `natsPort` in `stateDir`: its nats-server
 * (configured from the state directory) and each Node service (told that NATS URL), found in /proc
 * whatever process group or parent they have now.
 */
function suiteProcesses(stateDir: string, natsPort: number): number[] {
  const found: number[] = [];
  for (const entry of readdirSync('/proc')) {
    const pid = Number(entry);
    if (!Number.isInteger(pid) || pid === process.pid) continue;
    try {
      const cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
      const environ = readFileSync(`/proc/${pid}/environ`, 'utf8');
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      if (/\) Z /.test(stat)) continue; // a zombie: ended, waiting for its parent to read its status
      if (cmdline.includes(stateDir) || environ.split('\0').includes(`NATS_URL=nats://127.0.0.1:${natsPort}`)) found.push(pid);
    } catch {
      // Gone meanwhile, or not ours to read.
    }
  }
  return found;
}

/** Every Node process `warden up` runs: the seven services, the gateway and the console. */
const SUITE_APPS = ['reviewer', 'pattern-detector', 'intervention-controller', 'breaker', 'gate', 'ladder', 'audit', 'gateway', 'console'];

/** What watches beside the decision path runs at a lower CPU priority (each app's package.json `cpuPriority`). */
const BACKGROUND_APPS = new Set(['pattern-detector', 'intervention-controller', 'breaker', 'ladder', 'audit']);

/** A process's nice value, field 19 of /proc/<pid>/stat (the fields after the command's closing parenthesis start at 3). */
const niceOf = (pid: number) => Number(readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ')[16]);
const priorities = (pidOf: (app: string) => number | undefined) => Object.fromEntries(SUITE_APPS.map((app) => [app, niceOf(pidOf(app)!)]));
const expectedPriorities = Object.fromEntries(SUITE_APPS.map((app) => [app, BACKGROUND_APPS.has(app) ? BACKGROUND_NICENESS : niceOf(process.pid)]));

const noneLeft = (up: UpProcess) =>
  eventually('no process of the suite to be left', () => suiteProcesses(up.stateDir, up.natsPort), (pids) => pids.length === 0, { timeoutMs: 30_000, intervalMs: 200 });

describe('warden up stops everything it started', () => {
  const dirs: string[] = [];
  const started: UpProcess[] = [];
  const newStateDir = () => {
    const dir = mkdtempSync(join(tmpdir(), 'warden-up-life-'));
    dirs.push(dir);
    return dir;
  };

  afterAll(async () => {
    for (const up of started) if (up.child.exitCode === null) up.child.kill('SIGKILL');
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  it('on SIGTERM during start-up: what had started is stopped, and it says so', async () => {
    const up = await UpProcess.start(newStateDir(), await freePort());
    started.push(up);
    // Some services are ready, the gateway and the console are not yet.
    await up.printed(/^  ✔ audit +http/m);
    expect(suiteProcesses(up.stateDir, up.natsPort).length).toBeGreaterThan(1);
    up.child.kill('SIGTERM');
    expect(await up.exited).toEqual({ code: 0, signal: null });
    expect(up.output).toContain('Stopped before it was ready.');
    expect(up.output).not.toContain('Warden is running');
    expect(suiteProcesses(up.stateDir, up.natsPort)).toEqual([]);
  }, 240_000);

  it('refuses a second warden up on the same state directory or NATS port, naming the one that runs; SIGKILL of the first leaves nothing running', async () => {
    const up = await UpProcess.start(newStateDir(), await freePort());
    started.push(up);
    await up.printed(/^Warden is running$/m);
    const pid = up.child.pid!;

    const sameDir = await runWarden(['up', '--state-dir', up.stateDir, '--nats-port', String(await freePort())]);
    expect(sameDir.code).toBe(2);
    expect(sameDir.stderr).toContain(`Warden is already running here: process ${pid} (state directory ${up.stateDir},`);
    expect(sameDir.stderr).toContain(`holds the state directory ${up.stateDir}`);

    const otherDir = newStateDir();
    const samePort = await runWarden(['up', '--state-dir', otherDir, '--nats-port', String(up.natsPort)]);
    expect(samePort.code).toBe(2);
    expect(samePort.stderr).toContain(`holds the NATS port ${up.natsPort}`);
    // Refused before anything started: no half-started second suite.
    expect(samePort.stdout).not.toContain('nats-server with JetStream');
    expect(readdirSync(otherDir)).toEqual([]);

    up.child.kill('SIGKILL');
    await up.exited;
    // No exit handler runs on SIGKILL: the children end because their parent did.
    await noneLeft(up);
  }, 300_000);

  it('starts every service that was killed again, says so in its output, its log and the console, and the next decision is answered', async () => {
    const up = await UpProcess.start(newStateDir(), await freePort());
    started.push(up);
    // The admin's token is printed a few lines after "Warden is running", maybe in a later chunk: wait for it.
    const ready = await up.printed(/^Warden is running$[\s\S]*API token of admin [^:]*: \S+\n/m);
    const urls = JSON.parse(readFileSync(join(up.stateDir, 'suite.json'), 'utf8')) as Record<string, string>;
    const secret = (JSON.parse(readFileSync(join(up.stateDir, 'credentials.json'), 'utf8')) as { agents: Record<string, string> }).agents['demo-agent'];
    const adminToken = /API token of admin [^:]*: (\S+)/.exec(ready)![1]!;
    const pidOf = (app: string) =>
      suiteProcesses(up.stateDir, up.natsPort).find((pid) => readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(`apps/${app}/dist/main.js`));
    const killed = new Map(SUITE_APPS.map((app) => [app, pidOf(app)!]));
    expect([...killed.values()].every((pid) => pid !== undefined)).toBe(true);
    // The decision path first on this machine: the services beside it yield the CPU.
    expect(priorities(pidOf)).toEqual(expectedPriorities);

    // Every service of the suite at once, as a machine under memory pressure might.
    for (const pid of killed.values()) process.kill(pid, 'SIGKILL');
    for (const [app, pid] of killed) {
      const printed = await up.printed(new RegExp(`^warning: ${app} started again \\(pid \\d+\\)`, 'm'));
      expect(printed).toMatch(new RegExp(`^warning: ${app} \\(pid ${pid}\\) exited with a signal; starting it again in 1 s`, 'm'));
      const restarted = Number(new RegExp(`^warning: ${app} started again \\(pid (\\d+)\\)`, 'm').exec(printed)![1]);
      expect(restarted).not.toBe(pid);
      expect(pidOf(app)).toBe(restarted);
      expect(readFileSync(join(up.stateDir, 'logs', 'supervisor.log'), 'utf8')).toContain(`${app} (pid ${pid}) exited`);
    }
    expect((await fetch(`${urls.reviewer_url}/health/ready`)).status).toBe(200);
    // Started again, at the same priorities.
    expect(priorities(pidOf)).toEqual(expectedPriorities);

    // The console's sessions page shows what happened, to an operator who was not watching the terminal.
    const page = await fetch(`${urls.console_url}/`, { headers: { authorization: `Bearer ${adminToken}`, [OPERATOR_ID_HEADER]: 'admin' } });
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('Service restarts in the last day');
    for (const app of SUITE_APPS) expect(html).toMatch(new RegExp(`<strong>${app}</strong>: died 1 time; latest .*${app} started again \\(pid \\d+\\)`));

    // A call the reviewer denies by its rule: answered with the rule's reason, not the gateway's deny at its deadline.
    const response = await fetch(`${urls.gateway_url}/hooks/claude-code`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer demo-agent.${secret}` },
      body: JSON.stringify({
        session_id: 'after-restart',
        transcript_path: '/tmp/none.jsonl',
        cwd: '/tmp',
        hook_event_name: 'PreToolUse',
        tool_name: 'Bash',
        tool_input: { command: 'rm -rf /' },
        tool_use_id: 'toolu_after_restart',
      }),
    });
    expect({ status: response.status }).toEqual({ status: 200 });
    const answer = (await response.json()) as { hookSpecificOutput?: { permissionDecision?: string; permissionDecisionReason?: string } };
    expect(answer.hookSpecificOutput?.permissionDecision).toBe('deny');
    expect(answer.hookSpecificOutput?.permissionDecisionReason).not.toMatch(/no decision within|could not be reached/i);

    up.child.kill('SIGTERM');
    expect(await up.exited).toEqual({ code: 0, signal: null });
    await noneLeft(up);
  }, 300_000);
});
