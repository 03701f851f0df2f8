import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { WORKSPACE_ROOT } from '@warden/local-runtime';
import { BusConnection } from '@warden/messaging';
import { OperatorStore } from '@warden/operator-auth';
import { TestNatsServer } from '@warden/testing';

const WARDEN = join(WORKSPACE_ROOT, 'apps/cli/bin/warden.js');

/** `warden operator` against a real nats-server: what it creates works, what it revokes stops working. */
describe('warden operator', () => {
  let nats: TestNatsServer;
  let bus: BusConnection;
  let store: OperatorStore;

  beforeAll(async () => {
    nats = await TestNatsServer.start({ partitions: 2 });
    bus = await BusConnection.open(nats.service);
    store = new OperatorStore(bus.nc);
  }, 60_000);

  afterAll(async () => {
    await bus?.close();
    await nats?.stop();
  });

  function warden(args: string[], options: { stdin?: string; user?: { user?: string; password?: string } } = {}): Promise<{ code: number; stdout: string; stderr: string }> {
    const user = options.user ?? nats.service;
    return new Promise((resolve) => {
      const child = spawn(process.execPath, [WARDEN, 'operator', ...args], {
        env: { ...process.env, NO_COLOR: '1', NATS_URL: nats.url, NATS_USER: user.user ?? '', NATS_PASSWORD: user.password ?? '' },
      });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
      child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
      child.stdin.end(options.stdin ?? '');
      child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr }));
    });
  }

  it('adds an operator whose printed password logs in and whose printed token authenticates', async () => {
    const added = await warden(['add', 'olga', '--role', 'approver']);
    expect(added.code).toBe(0);
    const password = /console password\s+(\S+)/.exec(added.stdout)![1]!;
    const token = /API token\s+(wdn_\S+)/.exec(added.stdout)![1]!;
    expect(await store.authenticate(token)).toEqual({ ok: true, operator: { id: 'olga', role: 'approver' }, kind: 'api' });
    expect((await store.login('olga', password)).ok).toBe(true);
    expect(await warden(['add', 'olga', '--role', 'viewer'])).toMatchObject({ code: 1, stderr: expect.stringContaining('operator olga already exists') });
  });

  it('issues and revokes tokens, changes roles and passwords, lists and removes', async () => {
    await warden(['add', 'pete', '--role', 'viewer']);
    const token = (await warden(['token', 'pete', '--label', 'laptop', '--expires-days', '30'])).stdout.trim();
    expect(token).toMatch(/^wdn_[A-Za-z0-9_-]{43}$/);
    expect((await store.authenticate(token)).ok).toBe(true);
    expect((await warden(['role', 'pete', 'admin'])).code).toBe(0);
    expect(await store.get('pete')).toEqual({ id: 'pete', role: 'admin' });
    const listed = JSON.parse((await warden(['list', '--json'])).stdout) as { id: string; tokens: { label: string }[] }[];
    expect(listed.find((o) => o.id === 'pete')!.tokens.map((t) => t.label).sort()).toEqual(['cli', 'laptop']);
    expect((await warden(['revoke', 'pete'])).stdout).toContain('revoked 2 API token(s) of pete');
    expect((await store.authenticate(token)).ok).toBe(false);
    expect((await warden(['passwd', 'pete', '--password-stdin'], { stdin: 'a brand new long password\n' })).code).toBe(0);
    expect((await store.login('pete', 'a brand new long password')).ok).toBe(true);
    expect((await warden(['remove', 'pete'])).code).toBe(0);
    expect(await store.get('pete')).toBeNull();
    expect(await warden(['remove', 'pete'])).toMatchObject({ code: 1, stderr: expect.stringContaining('no operator pete') });
  });

  it('refuses bad usage, short passwords, and users who may not read the store', async () => {
    expect(await warden(['add', 'quinn'])).toMatchObject({ code: 2, stderr: expect.stringContaining('--role must be one of viewer, approver, admin') });
    expect(await warden(['add', 'quinn', '--role', 'root'])).toMatchObject({ code: 2 });
    expect(await warden(['frobnicate', 'x'])).toMatchObject({ code: 2, stderr: expect.stringContaining('unknown operator command') });
    expect(await warden(['add', 'quinn', '--role', 'viewer', '--password-stdin'], { stdin: 'short' })).toMatchObject({ code: 1, stderr: expect.stringContaining('at least 12 characters') });
    expect(await warden(['add', 'bad id', '--role', 'viewer'])).toMatchObject({ code: 1, stderr: expect.stringContaining('must be 1-64 letters') });
    const asOperator = await warden(['list'], { user: nats.operator });
    expect(asOperator.code).not.toBe(0);
    expect(asOperator.stderr).toMatch(/operator store is unavailable|Permissions Violation|permission/i);
  });
});
