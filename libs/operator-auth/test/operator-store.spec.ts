import { Kvm } from '@nats-io/kv';
import { OPERATOR_BUCKET, OPERATOR_SESSION_BUCKET } from '@warden/contracts';
import { BusConnection } from '@warden/messaging';
import { TestNatsServer } from '@warden/testing';
import { OperatorStore, OperatorStoreError } from '../src/operator-store.js';
import { tokenDigest } from '../src/secrets.js';

/** The operator store on a real nats-server: what is kept, and only hashed. */
describe('operator store', () => {
  let nats: TestNatsServer;
  let bus: BusConnection;
  let store: OperatorStore;

  beforeAll(async () => {
    nats = await TestNatsServer.start();
    bus = await BusConnection.open(nats.service);
    store = new OperatorStore(bus.nc);
  }, 60_000);

  afterAll(async () => {
    await bus?.close();
    await nats?.stop();
  });

  /** Every value of both buckets, as stored. */
  async function everythingStored(): Promise<string> {
    const kvm = new Kvm(bus.nc);
    const values: string[] = [];
    for (const name of [OPERATOR_BUCKET, OPERATOR_SESSION_BUCKET]) {
      const kv = await kvm.open(name);
      for await (const key of await kv.keys()) values.push(`${key}=${(await kv.get(key))?.string() ?? ''}`);
    }
    return values.join('\n');
  }

  it('keeps passwords as scrypt hashes and tokens as SHA-256 digests, never raw', async () => {
    const { password } = await store.add('hash-check', 'approver', { createdBy: 'test' });
    const token = await store.issueToken('hash-check', { label: 'ci' });
    const login = await store.login('hash-check', password);
    expect(login.ok).toBe(true);
    const stored = await everythingStored();
    expect(stored).toContain('"password_hash":"scrypt$32768$8$1$');
    expect(stored).toContain(`token.${tokenDigest(token)}=`);
    expect(stored).toContain(`${tokenDigest((login as { token: string }).token)}=`);
    for (const secret of [password, token, (login as { token: string }).token, token.slice(4), password.slice(0, 12)]) expect(stored).not.toContain(secret);
  });

  it('authenticates API tokens and console logins with the role stored now', async () => {
    await store.add('alice', 'viewer', { password: 'alice has a long password', createdBy: 'test' });
    const token = await store.issueToken('alice');
    expect(await store.authenticate(token)).toEqual({ ok: true, operator: { id: 'alice', role: 'viewer' }, kind: 'api' });
    await store.setRole('alice', 'approver');
    expect(await store.authenticate(token)).toEqual({ ok: true, operator: { id: 'alice', role: 'approver' }, kind: 'api' });
    const login = await store.login('alice', 'alice has a long password');
    if (!login.ok) throw new Error('login refused');
    expect(await store.authenticate(login.token)).toEqual({ ok: true, operator: { id: 'alice', role: 'approver' }, kind: 'session' });
    await store.logout(login.token);
    expect(await store.authenticate(login.token)).toEqual({ ok: false, reason: 'session_expired' });
  });

  it('refuses wrong passwords, unknown operators and unknown tokens', async () => {
    await store.add('bob', 'viewer', { password: 'bob has a long password', createdBy: 'test' });
    expect(await store.login('bob', 'bob has a long passwore')).toEqual({ ok: false });
    expect(await store.login('nobody', 'bob has a long password')).toEqual({ ok: false });
    expect(await store.login('no such id!', 'x')).toEqual({ ok: false });
    expect(await store.authenticate(`wdn_${'A'.repeat(43)}`)).toEqual({ ok: false, reason: 'invalid_token' });
    expect(await store.authenticate(`wds_${'A'.repeat(43)}`)).toEqual({ ok: false, reason: 'session_expired' });
  });

  it('refuses bad ids, roles, passwords and duplicates', async () => {
    await expect(store.add('has space', 'viewer', { createdBy: 'test' })).rejects.toThrow(OperatorStoreError);
    await expect(store.add('carol', 'root' as 'viewer', { createdBy: 'test' })).rejects.toThrow(/role/);
    await expect(store.add('carol', 'viewer', { password: 'short', createdBy: 'test' })).rejects.toThrow(/at least 12/);
    await store.add('carol', 'viewer', { createdBy: 'test' });
    await expect(store.add('carol', 'admin', { createdBy: 'test' })).rejects.toThrow('operator carol already exists');
  });

  it('revokes tokens, ends logins on a new password, and forgets everything of a removed operator', async () => {
    const { password } = await store.add('dave', 'admin', { createdBy: 'test' });
    const [first, second] = [await store.issueToken('dave'), await store.issueToken('dave', { label: 'cli' })];
    expect((await store.list()).find((o) => o.id === 'dave')).toMatchObject({ role: 'admin', has_password: true, tokens: [expect.anything(), expect.anything()] });
    expect(await store.revokeTokens('dave')).toBe(2);
    expect((await store.authenticate(first)).ok).toBe(false);
    expect((await store.authenticate(second)).ok).toBe(false);

    const login = await store.login('dave', password);
    if (!login.ok) throw new Error('login refused');
    const newPassword = await store.setPassword('dave');
    expect(await store.authenticate(login.token)).toEqual({ ok: false, reason: 'session_expired' });
    expect((await store.login('dave', password)).ok).toBe(false);

    const again = await store.login('dave', newPassword);
    const token = await store.issueToken('dave');
    expect(await store.remove('dave')).toBe(true);
    expect(await store.get('dave')).toBeNull();
    await store.add('dave', 'admin', { createdBy: 'test' });
    expect((await store.authenticate(token)).ok).toBe(false);
    expect((await store.authenticate((again as { token: string }).token)).ok).toBe(false);
    expect(await store.remove('nobody')).toBe(false);
  });

  it('lets API tokens expire', async () => {
    let now = new Date('2026-11-21T10:00:00Z');
    const clocked = new OperatorStore(bus.nc, () => now);
    await clocked.add('erin', 'viewer', { createdBy: 'test' });
    const token = await clocked.issueToken('erin', { ttlMs: 60_000 });
    expect((await clocked.authenticate(token)).ok).toBe(true);
    now = new Date('2026-11-21T10:01:00Z');
    expect(await clocked.authenticate(token)).toEqual({ ok: false, reason: 'invalid_token' });
  });
});
