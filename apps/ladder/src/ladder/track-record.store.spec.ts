import { Kvm, type KV } from '@nats-io/kv';
import { AUTOMATION_LEVEL_BUCKET, LADDER_RECORD_BUCKET, parseAutomationLevel } from '@warden/contracts';
import { BusConnection } from '@warden/messaging';
import { MetricsRegistry } from '@warden/observability';
import { TestNatsServer } from '@warden/testing';
import { AutomationLadder, CorruptTrackRecordError } from '@warden/ladder';
import { AutomationLevelPublisher } from './automation-level.publisher.js';
import { LadderMetrics } from './ladder-metrics.js';
import { TrackRecordStore } from './track-record.store.js';

/** Two replicas of the ladder's storage over one real nats-server. */
describe('TrackRecordStore and AutomationLevelPublisher over JetStream KV', () => {
  let nats: TestNatsServer;
  const buses: BusConnection[] = [];
  let stores: TrackRecordStore[];
  const registries = [new MetricsRegistry('ladder'), new MetricsRegistry('ladder')];
  let records: KV;
  let levels: KV;
  const ladder = new AutomationLadder({ initialLevel: 0 });
  let sequence = 0;
  const agent = () => `store-agent-${++sequence}`;
  const run = (agentId: string, store: TrackRecordStore, messageId: string) =>
    store.apply(agentId, (record) => ladder.recordRun(record, { status: 'success' }, { messageId, at: new Date() }), () => ladder.newRecord(agentId, new Date()));

  beforeAll(async () => {
    nats = await TestNatsServer.start({ partitions: 2, monitor: true });
    for (let i = 0; i < 2; i++) buses.push(await BusConnection.open(nats.service));
    stores = buses.map((bus, i) => new TrackRecordStore(bus, new LadderMetrics(registries[i]!)));
    records = await new Kvm(buses[0]!.nc).open(LADDER_RECORD_BUCKET);
    levels = await new Kvm(buses[0]!.nc).open(AUTOMATION_LEVEL_BUCKET);
  }, 60_000);

  afterAll(async () => {
    for (const bus of buses) await bus.close();
    await nats?.stop();
  });

  it('creates a record on the first message and reads it back with its revision', async () => {
    const agentId = agent();
    expect(await stores[0]!.read(agentId)).toBeUndefined();
    const { step, created } = await run(agentId, stores[0]!, 'run-1');
    expect(created).toBe(true);
    const stored = await stores[1]!.read(agentId);
    expect(stored?.record).toEqual(step.record);
    expect(stored?.record.metrics.totalRuns).toBe(1);
    expect(stored?.revision).toBeGreaterThan(0);
  });

  it('loses no run when two replicas update one agent at the same time', async () => {
    const agentId = agent();
    const ids = Array.from({ length: 40 }, (_, i) => `run-${i}`);
    await Promise.all(ids.map((id, i) => run(agentId, stores[i % 2]!, id)));
    const stored = await stores[0]!.read(agentId);
    expect(stored?.record.metrics.totalRuns).toBe(40);
    expect([...(stored?.record.recentMessageIds ?? [])].sort()).toEqual([...ids].sort());
    // 40 writes of one key at once cannot all have found the revision they read.
    const conflicts = await Promise.all(registries.map(async (r) => Number(/^warden_ladder_record_conflicts_total\{[^}]*\} (\d+)$/m.exec(await r.render())?.[1] ?? 0)));
    expect(conflicts[0]! + conflicts[1]!).toBeGreaterThan(0);
    // 40 successful runs from level 0: promoted to 1 at the 10th, exactly once.
    expect(stored?.record.level).toBe(1);
    expect(stored?.record.recentChanges.map((c) => [c.from, c.to])).toEqual([[0, 1]]);
  });

  it('decides a decision that changes nothing on the copy it last stored, without reading the store', async () => {
    const agentId = agent();
    const decide = (store: TrackRecordStore, messageId: string, decision: 'allow' | 'deny', sessionId = 'session-a') =>
      store.apply(agentId, (record) => ladder.observeDecision(record, { sessionId, decision, decidedBy: 'reviewer' }, { messageId, at: new Date() }), () => ladder.newRecord(agentId, new Date()));
    // What replica 0's connection has sent nats-server so far (a KV read is a request).
    const sent = async () => {
      const { connections = [] } = (await (await fetch(`${nats.monitorUrl}/connz?limit=1024`)).json()) as { connections?: { cid: number; in_msgs: number }[] };
      return connections.find((c) => c.cid === buses[0]!.nc.info!.client_id)!.in_msgs;
    };
    expect((await decide(stores[0]!, 'd-1', 'allow')).step.outcome).toBe('applied');
    const before = await sent();
    const unchanged = await decide(stores[0]!, 'd-2', 'allow');
    expect(unchanged.step.outcome).toBe('unchanged');
    expect(await sent()).toBe(before);
    // Another replica's write of another session leaves the copy behind: a step that changes the record is decided fresh.
    expect((await decide(stores[1]!, 'd-3', 'allow', 'session-b')).step.outcome).toBe('applied');
    const denied = await decide(stores[0]!, 'd-4', 'deny');
    expect(denied.step.outcome).toBe('applied');
    expect(await sent()).toBeGreaterThan(before);
    const stored = (await stores[1]!.read(agentId))!.record.sessions!;
    expect(stored.map((s) => [s.sessionId, s.decided, s.denied])).toEqual([
      ['session-a', 2, 1],
      ['session-b', 1, 0],
    ]);
  });

  it('writes nothing for a duplicate or a rejected command', async () => {
    const agentId = agent();
    await run(agentId, stores[0]!, 'run-1');
    const before = await stores[0]!.read(agentId);
    const again = await run(agentId, stores[1]!, 'run-1');
    expect(again).toMatchObject({ step: { outcome: 'duplicate' }, created: false });
    const rejected = await stores[0]!.apply(
      agentId,
      (record) => ladder.applyCommand(record, { command: 'pin', operatorId: 'op' }, { messageId: 'cmd-1', at: new Date() }),
      () => ladder.newRecord(agentId, new Date()),
    );
    expect(rejected.step.outcome).toBe('rejected');
    expect((await stores[0]!.read(agentId))?.revision).toBe(before?.revision);
  });

  it('refuses to build on a value that is not a track record', async () => {
    const agentId = agent();
    await records.put(agentId, '{"agentId": "someone", "level": 9}');
    await expect(run(agentId, stores[0]!, 'run-1')).rejects.toThrow(CorruptTrackRecordError);
    await expect(run(agentId, stores[0]!, 'run-1')).rejects.toThrow(`the track record of ${agentId} is not a valid record`);
  });

  it('publishes the level of the record, and repairs a stale level written out of order', async () => {
    const agentId = agent();
    const publisher = new AutomationLevelPublisher(buses[1]!, stores[1]!);
    await stores[0]!.apply(
      agentId,
      (record) => ladder.applyCommand(record, { command: 'set_level', level: 3, operatorId: 'op' }, { messageId: 'cmd-1', at: new Date() }),
      () => ladder.newRecord(agentId, new Date()),
    );
    await publisher.sync(agentId);
    const published = parseAutomationLevel((await levels.get(agentId))!.value);
    expect(published).toMatchObject({ agent_id: agentId, level: 3 });
    // Another replica's older write lands last; the next sync puts the record's level back.
    await levels.put(agentId, JSON.stringify({ agent_id: agentId, level: 1, updated_at: new Date(0).toISOString() }));
    await publisher.sync(agentId);
    expect(parseAutomationLevel((await levels.get(agentId))!.value)?.level).toBe(3);
  });

  it('publishes nothing for an agent without a record', async () => {
    const agentId = agent();
    await new AutomationLevelPublisher(buses[0]!, stores[0]!).sync(agentId);
    expect(await levels.get(agentId)).toBeNull();
  });
});
