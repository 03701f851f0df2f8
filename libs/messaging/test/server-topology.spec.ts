import { jetstream } from '@nats-io/jetstream';
import { Objm } from '@nats-io/obj';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { Kvm } from '@nats-io/kv';
import {
  checkpointBucket,
  CONTROL_MAILBOX_BUCKET,
  controlMailboxKey,
  controlMailboxSubject,
  partitionOf,
  publishSubject,
  SEAL_KEY_BUCKET,
  SEAL_PRIVATE_KEY,
  SEAL_PUBLIC_KEY,
  SEAL_PUBLIC_KEY_SUBJECT,
} from '@warden/contracts';
import { publicHalfOf } from '@warden/secrets';
import { eventually, TestNatsServer } from '@warden/testing';
import { BusConnection, buildTopology, probePartitionMapping, provision } from '../src/index.js';

let server: TestNatsServer;
let bus: BusConnection;

beforeAll(async () => {
  server = await TestNatsServer.start({ partitions: 8, agents: ['agent-1', 'agent-2'], provision: false });
  bus = await BusConnection.open(server.service);
});

afterAll(async () => {
  await bus.close();
  await server.stop();
});

describe('provisioning', () => {
  it('creates every stream, consumer and bucket, and changes nothing the second time', async () => {
    const topology = buildTopology({ partitions: 8 });
    const first = await provision(bus.nc, bus.jsm, topology);
    // And the key pair agents seal secrets with.
    expect(first.changes.filter((c) => c.action === 'created')).toHaveLength(
      topology.streams.length + topology.consumers.length + topology.keyValues.length + 1,
    );
    expect(first.changes.find((c) => c.name === `${SEAL_KEY_BUCKET}/keys`)).toMatchObject({ action: 'created' });
    const second = await provision(bus.nc, bus.jsm, topology);
    expect(second.changes.every((c) => c.action === 'unchanged')).toBe(true);
  });

  it('reports consumers the topology no longer declares, and prunes them on request', async () => {
    const fewer = buildTopology({ partitions: 4 });
    const report = await provision(bus.nc, bus.jsm, fewer, { dryRun: true });
    const stale = report.changes.filter((c) => c.action === 'stale');
    expect(stale.map((c) => c.name)).toContain('WARDEN_ACTION/reviewer-action-p7');
    expect(stale.map((c) => c.name)).not.toContain('WARDEN_ACTION/reviewer-action-p3');
    const again = await provision(bus.nc, bus.jsm, buildTopology({ partitions: 8 }));
    expect(again.changes.every((c) => c.action === 'unchanged')).toBe(true);
  });

  it('updates a consumer setting in place', async () => {
    const report = await provision(bus.nc, bus.jsm, buildTopology({ partitions: 8, maxAckPending: 500 }));
    expect(report.changes.find((c) => c.name === 'WARDEN_ACTION/reviewer-action-p0')).toMatchObject({
      action: 'updated',
      detail: 'max_ack_pending',
    });
    await provision(bus.nc, bus.jsm, buildTopology({ partitions: 8 }));
  });

  it('repairs a consumer refiltered or pointed elsewhere, from the position it had acknowledged', async () => {
    const stream = 'WARDEN_CONTROL';
    const name = 'audit-control-p1';
    const inPartition1 = Array.from({ length: 64 }, (_, i) => `s-${i}`).filter((session) => partitionOf(session, 8) === 1).slice(0, 3);
    for (const session of inPartition1) await bus.js.publish(publishSubject('control', 'agent-1', session), '{}');
    const before = await bus.jsm.consumers.info(stream, name);
    // As a tampered consumer would be: refiltered to one agent's subjects (the filter cannot change in place).
    await bus.jsm.consumers.delete(stream, name);
    await bus.jsm.consumers.add(stream, { ...before.config, filter_subject: 'warden.control.1.agent-9.*' });
    const report = await provision(bus.nc, bus.jsm, buildTopology({ partitions: 8 }));
    expect(report.changes.find((c) => c.name === `${stream}/${name}`)).toEqual({
      kind: 'consumer',
      name: `${stream}/${name}`,
      action: 'repaired',
      detail: `filter is warden.control.1.agent-9.*, expected ${before.config.filter_subject}; recreated from stream sequence 1`,
    });
    const after = await bus.jsm.consumers.info(stream, name);
    expect(after.config.filter_subject).toBe(before.config.filter_subject);
    expect(after.num_pending).toBe(3);
    expect((await provision(bus.nc, bus.jsm, buildTopology({ partitions: 8 }))).changes.find((c) => c.name === `${stream}/${name}`)?.action).toBe('unchanged');
  });
});

describe("the server's partition mapping", () => {
  it('puts every session in the partition partitionOf computes', async () => {
    const sessions = Array.from({ length: 300 }, (_, i) => `s${i}-${Math.random().toString(36).slice(2)}`);
    const sub = bus.nc.subscribe('warden.session.*.agent-1.*', { max: sessions.length });
    const seen = new Map<string, number>();
    const done = (async () => {
      for await (const msg of sub) {
        const [, , partition, , session] = msg.subject.split('.');
        seen.set(session!, Number(partition));
      }
    })();
    for (const s of sessions) bus.nc.publish(publishSubject('session', 'agent-1', s));
    await done;
    for (const s of sessions) expect(seen.get(s)).toBe(partitionOf(s, 8));
  });

  it('is detected by the probe, and a different partition count is refused', async () => {
    expect(await probePartitionMapping(bus.nc, 8)).toMatchObject({ ok: true });
    const wrong = await probePartitionMapping(bus.nc, 16);
    expect(wrong.ok).toBe(false);
    expect(wrong.detail).toContain('WARDEN_PARTITIONS=16');
  });
});

describe('agent permissions', () => {
  let agent: NatsConnection;
  const errors: string[] = [];

  beforeAll(async () => {
    const settings = server.agent('agent-1');
    agent = await connect({ servers: settings.servers, user: settings.user, pass: settings.password, inboxPrefix: settings.inboxPrefix });
    void (async () => {
      for await (const status of agent.status()) if (status.type === 'error') errors.push(String(status.error));
    })();
  });

  afterAll(async () => {
    await agent.close();
  });

  it("lets an agent publish its own actions durably", async () => {
    const ack = await jetstream(agent).publish(publishSubject('action', 'agent-1', 'sess-own'), '{}', { msgID: 'own-1' });
    expect(ack.stream).toBe('WARDEN_ACTION');
  });

  it("refuses an agent that publishes another agent's action", async () => {
    await expect(
      jetstream(agent).publish(publishSubject('action', 'agent-2', 'sess-x'), '{}', { timeout: 500 }),
    ).rejects.toThrow();
    await server.waitForLog(/Publish Violation - User "agent-1", Subject "warden\.action\.\d\.agent-2\.sess-x"/);
  });

  it("refuses an agent that reads another agent's decisions", async () => {
    agent.subscribe('warden.decision.*.agent-2.*');
    await agent.flush();
    const violation = /Permissions Violation for Subscription to "warden\.decision\.\*\.agent-2\.\*"/i;
    await eventually('the subscription violation at the agent', () => errors.join('\n'), (text) => violation.test(text));
  });

  it('refuses an agent that publishes verdicts or decisions itself', async () => {
    await expect(jetstream(agent).publish(publishSubject('decision', 'agent-1', 'sess-own'), '{}', { timeout: 500 })).rejects.toThrow();
  });

  /** Reads an agent's session record in the control mailbox with a direct get, as the SDK does (libs/sdk stored-controls). */
  async function readMailbox(ofAgent: string): Promise<string> {
    const reply = await agent.request(controlMailboxSubject(ofAgent, 'sess-mail'), undefined, { timeout: 1_000 });
    return reply.headers?.code === 404 ? 'not found' : reply.string();
  }

  it('lets an agent read its own sessions\' stored control messages, and no other agent\'s', async () => {
    await bus.js.publish(`$KV.${CONTROL_MAILBOX_BUCKET}.${controlMailboxKey('agent-1', 'sess-mail')}`, JSON.stringify({ controls: [] }));
    expect(JSON.parse(await readMailbox('agent-1'))).toEqual({ controls: [] });
    await expect(readMailbox('agent-2')).rejects.toThrow();
    await server.waitForLog(/Publish Violation - User "agent-1", Subject "\$JS\.API\.DIRECT\.GET\.KV_warden_controls\.\$KV\.warden_controls\.agent-2\.sess-mail"/);
  });

  it('lets an agent read the public half of the seal key, never the private one', async () => {
    const seal = await new Kvm(bus.nc).open(SEAL_KEY_BUCKET);
    const { privateKey } = (await seal.get(SEAL_PRIVATE_KEY))!.json<{ privateKey: string }>();
    const reply = await agent.request(SEAL_PUBLIC_KEY_SUBJECT, undefined, { timeout: 1_000 });
    expect(reply.string()).toBe(publicHalfOf(privateKey));
    const privateSubject = SEAL_PUBLIC_KEY_SUBJECT.replace(/public$/, SEAL_PRIVATE_KEY);
    await expect(agent.request(privateSubject, undefined, { timeout: 1_000 })).rejects.toThrow();
    await server.waitForLog(/Publish Violation - User "agent-1", Subject "\$JS\.API\.DIRECT\.GET\.KV_warden_seal\.\$KV\.warden_seal\.private"/);
  });

  it('keeps the seal key when provisioned again, and writes its public half again when it is lost', async () => {
    const seal = await new Kvm(bus.nc).open(SEAL_KEY_BUCKET);
    const before = (await seal.get(SEAL_PRIVATE_KEY))!.string();
    await seal.delete(SEAL_PUBLIC_KEY);
    const report = await provision(bus.nc, bus.jsm, buildTopology({ partitions: 8 }));
    expect(report.changes.find((c) => c.name === `${SEAL_KEY_BUCKET}/keys`)).toMatchObject({ action: 'repaired' });
    expect((await seal.get(SEAL_PRIVATE_KEY))!.string()).toBe(before);
    expect((await seal.get(SEAL_PUBLIC_KEY))!.string()).toBe(publicHalfOf((JSON.parse(before) as { privateKey: string }).privateKey));
  });

  it('never lets an agent create a stream, not even under the name of its own checkpoint store', async () => {
    // A stream the agent configured could capture subjects it may not read: the services' replies.
    const jsm = await jetstream(agent).jetstreamManager();
    await expect(jsm.streams.add({ name: `OBJ_${checkpointBucket('agent-1')}`, subjects: ['_INBOX.>'] })).rejects.toThrow();
    await server.waitForLog(/Publish Violation - User "agent-1", Subject "\$JS\.API\.STREAM\.CREATE\.OBJ_warden_checkpoints_agent-1"/);
    expect((await bus.jsm.streams.names().next()).includes(`OBJ_${checkpointBucket('agent-1')}`)).toBe(false);
  });

  it('lets an agent keep checkpoints in the store Warden provisioned for it, and keeps it out of another agent\'s', async () => {
    await expect(new Objm(agent).open(checkpointBucket('agent-1'))).rejects.toThrow(/object store not found/);
    const report = await provision(bus.nc, bus.jsm, buildTopology({ partitions: 8, agents: ['agent-1', 'agent-2'] }));
    expect(report.changes.filter((c) => c.kind === 'object-store')).toEqual([
      { kind: 'object-store', name: 'warden_checkpoints_agent-1', action: 'created' },
      { kind: 'object-store', name: 'warden_checkpoints_agent-2', action: 'created' },
    ]);
    const own = await new Objm(agent).open(checkpointBucket('agent-1'));
    await own.putBlob({ name: 'sess-own/ckpt-1' }, new TextEncoder().encode('snapshot'));
    // Replacing an object purges its old chunks: allowed on its own store.
    await own.putBlob({ name: 'sess-own/ckpt-1' }, new TextEncoder().encode('snapshot 2'));
    // Read back by direct gets (the object's description, then its chunk), as the SDK reads it: an agent creates no consumer.
    const stored = (await own.info('sess-own/ckpt-1'))!;
    const jsmOwn = await jetstream(agent).jetstreamManager();
    const chunk = await jsmOwn.direct.getMessage(`OBJ_${checkpointBucket('agent-1')}`, { seq: 1, next_by_subj: `$O.${checkpointBucket('agent-1')}.C.${stored.nuid}` });
    expect(new TextDecoder().decode(chunk!.data)).toBe('snapshot 2');
    await expect(own.getBlob('sess-own/ckpt-1')).rejects.toThrow();
    await expect(new Objm(agent).open(checkpointBucket('agent-2'))).rejects.toThrow();
    // Its own store cannot be reconfigured either (e.g. to capture more subjects).
    const jsm = await jetstream(agent).jetstreamManager();
    const info = await jsm.streams.info(`OBJ_${checkpointBucket('agent-1')}`);
    await expect(jsm.streams.update(info.config.name, { ...info.config, subjects: [...info.config.subjects, '_INBOX.>'] })).rejects.toThrow();
    await server.waitForLog(/Publish Violation - User "agent-1", Subject "\$JS\.API\.STREAM\.UPDATE\.OBJ_warden_checkpoints_agent-1"/);
  });
});
