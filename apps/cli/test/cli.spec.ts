import { execFile, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { natsServerBinary, WORKSPACE_ROOT } from '@warden/local-runtime';
import { BusConnection, renderNatsHelmValues } from '@warden/messaging';
import { TestNatsServer } from '@warden/testing';

const run = promisify(execFile);
const WARDEN = join(WORKSPACE_ROOT, 'apps/cli/bin/warden.js');

async function warden(args: string[], env: NodeJS.ProcessEnv = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  // Plain output, as in a pipe; test runners set FORCE_COLOR, which Node refuses to combine with NO_COLOR.
  const { FORCE_COLOR: _forced, ...inherited } = process.env;
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [WARDEN, ...args], { env: { ...inherited, NO_COLOR: '1', ...env }, cwd: WORKSPACE_ROOT });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('exit', (code) => resolve({ code: code ?? -1, stdout, stderr }));
  });
}

describe('warden', () => {
  it('lists its commands', async () => {
    const { code, stdout } = await warden(['--help']);
    expect(code).toBe(0);
    for (const command of ['demo', 'up', 'provision', 'nats-config']) expect(stdout).toMatch(new RegExp(`^  ${command} +\\S`, 'm'));
  });

  it('explains how to use it when called without a command, or with an unknown one', async () => {
    expect(await warden([])).toMatchObject({ code: 1, stdout: expect.stringContaining('Usage: warden <command>') });
    expect(await warden(['teleport'])).toMatchObject({ code: 1, stderr: expect.stringContaining('unknown command "teleport"') });
  });

  it('says its version', async () => {
    const { version } = JSON.parse(readFileSync(join(WORKSPACE_ROOT, 'apps/cli/package.json'), 'utf8')) as { version: string };
    for (const flag of ['--version', '-V']) expect(await warden([flag])).toMatchObject({ code: 0, stdout: `warden ${version}\n` });
  });

  it('gives each command a help with its options and environment', async () => {
    const { code, stdout } = await warden(['provision', '--help']);
    expect(code).toBe(0);
    expect(stdout).toContain('--partitions N');
    expect(stdout).toContain('NATS_URL');
  });

  it('names a wrong option and where to look', async () => {
    const { code, stderr } = await warden(['provision', '--partitons', '8']);
    expect(code).toBe(2);
    expect(stderr).toContain("Unknown option '--partitons'");
    expect(stderr).toContain('warden provision --help');
    expect(await warden(['provision', '--partitions', 'eight'])).toMatchObject({ code: 2, stderr: expect.stringContaining('--partitions must be an integer') });
  });
});

describe('warden nats-config', () => {
  it('prints a configuration nats-server accepts, with the agents it names', async () => {
    const { code, stdout } = await warden(['nats-config', '--partitions', '4', '--agent', 'claude-code', '--store-dir', '/tmp/warden-js']);
    expect(code).toBe(0);
    expect(stdout).toContain('"warden.action.*.*": "warden.action.{{partition(4,2)}}.{{wildcard(1)}}.{{wildcard(2)}}"');
    expect(stdout).toContain('"warden.action.*.claude-code.*"');
    const dir = mkdtempSync(join(tmpdir(), 'warden-conf-'));
    try {
      writeFileSync(join(dir, 'nats.conf'), stdout);
      const env = { ...process.env, WARDEN_SERVICE_PASSWORD: 'a', WARDEN_OPERATOR_PASSWORD: 'b', WARDEN_AGENT_CLAUDE_CODE_PASSWORD: 'c' };
      const checked = await run(natsServerBinary(), ['-c', join(dir, 'nats.conf'), '-t'], { env });
      expect(`${checked.stdout}${checked.stderr}`).toContain('configuration file');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('keeps monitoring on loopback even when clients listen on every address, or leaves it out', async () => {
    const everywhere = await warden(['nats-config', '--host', '0.0.0.0', '--agent', 'claude-code']);
    expect(everywhere.code).toBe(0);
    expect(everywhere.stdout).toContain('listen: "0.0.0.0:4222"');
    expect(everywhere.stdout).toMatch(/^http: "127\.0\.0\.1:8222"$/m);
    const off = await warden(['nats-config', '--monitor-port', 'off', '--agent', 'claude-code']);
    expect(off.code).toBe(0);
    expect(off.stdout).not.toMatch(/^http:/m);
  });

  it('documents its formats, the Helm values among them, and how they map to the chart', async () => {
    const { code, stdout } = await warden(['nats-config', '--help']);
    expect(code).toBe(0);
    for (const text of ['--format FORMAT', 'helm-values', 'config.merge', 'container.env', '<< $NAME >>', '--cluster-replicas N', '--password-secret NAME', 'helm install nats nats/nats --version']) {
      expect(stdout).toContain(text);
    }
  });

  it('prints the NATS Helm chart values, saved as they are printed', async () => {
    const args = ['nats-config', '--format', 'helm-values', '--partitions', '4', '--agent', 'bot:pw-1', '--agent', 'claude-code', '--cluster-replicas', '5', '--password-secret', 'nats-pw'];
    const { code, stdout, stderr } = await warden(args);
    expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
    expect(stdout).toBe(
      renderNatsHelmValues({
        partitions: 4,
        port: 4222,
        monitorPort: 8222,
        storeDir: '/data/jetstream',
        service: { user: 'warden', password: '$WARDEN_SERVICE_PASSWORD' },
        operators: [{ user: 'operator', password: '$WARDEN_OPERATOR_PASSWORD' }],
        agents: [
          { user: 'bot', password: 'pw-1' },
          { user: 'claude-code', password: '$WARDEN_AGENT_CLAUDE_CODE_PASSWORD' },
        ],
        clusterReplicas: 5,
        passwordSecret: 'nats-pw',
      }),
    );
    expect(stdout).toContain(`# Rendered by \`warden ${args.join(' ')}\`:`);
  });

  it('refuses an unknown format, and options of the other format', async () => {
    expect(await warden(['nats-config', '--format', 'toml'])).toMatchObject({ code: 2, stderr: expect.stringContaining('--format must be one of conf, helm-values') });
    expect(await warden(['nats-config', '--format', 'helm-values', '--host', '0.0.0.0'])).toMatchObject({ code: 2, stderr: expect.stringContaining('--host applies to --format conf only') });
    expect(await warden(['nats-config', '--cluster-replicas', '3'])).toMatchObject({ code: 2, stderr: expect.stringContaining('--cluster-replicas applies to --format helm-values only') });
    expect(await warden(['nats-config', '--format', 'helm-values', '--password-secret', 'Not_A_Name'])).toMatchObject({ code: 2, stderr: expect.stringContaining('is not a Kubernetes Secret name') });
  });
});

describe('warden provision', () => {
  let nats: TestNatsServer;

  beforeAll(async () => {
    nats = await TestNatsServer.start({ partitions: 4, provision: false });
  });

  afterAll(async () => {
    await nats.stop();
  });

  const env = () => ({ NATS_URL: nats.url, NATS_USER: nats.service.user, NATS_PASSWORD: nats.service.password });

  it('refuses a partition count the server does not map, and says why', async () => {
    const { code, stderr } = await warden(['provision', '--partitions', '8'], env());
    expect(code).toBe(1);
    expect(stderr).toContain('WARDEN_PARTITIONS=8');
  });

  it('creates the topology, then finds nothing to change', async () => {
    const first = await warden(['provision', '--partitions', '4'], env());
    expect(first.code).toBe(0);
    expect(first.stdout).toMatch(/Provisioned nats:\/\/127\.0\.0\.1:\d+: \d+ created/);
    const second = await warden(['provision', '--partitions', '4'], env());
    expect(second).toMatchObject({ code: 0, stdout: expect.stringMatching(/: \d+ unchanged\n$/) });
  });

  it("creates the checkpoint store of each agent it is given, which the agent cannot create itself", async () => {
    const run = await warden(['provision', '--partitions', '4', '--agent', 'agent-1', '--agent', 'agent-2'], env());
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('created   object-store warden_checkpoints_agent-1\n');
    expect(run.stdout).toContain('created   object-store warden_checkpoints_agent-2\n');
    const bus = await BusConnection.open(nats.service);
    try {
      expect((await bus.jsm.streams.info('OBJ_warden_checkpoints_agent-1')).config.subjects).toEqual(['$O.warden_checkpoints_agent-1.C.>', '$O.warden_checkpoints_agent-1.M.>']);
    } finally {
      await bus.close();
    }
    expect(await warden(['provision', '--partitions', '4', '--agent', 'a.b'], env())).toMatchObject({ code: 2, stderr: expect.stringContaining('agent id "a.b" must be') });
  });
});
