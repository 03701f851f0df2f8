import { ServiceProcess } from '@warden/local-runtime';
import { BusConnection } from '@warden/messaging';
import { consumersSettled, eventually, TestNatsCluster } from '@warden/testing';
import { FAST_LEASES } from '../scenarios/path-fixture.js';
import { AgentLoad, results, settingsFiles, SUPERVISION, type SessionResult } from './fault-load.js';

const SESSIONS = 200;
const PARTITIONS = 2;
/**
 * A message whose acknowledgement was lost with a server is redelivered after this long (30 s in
 * production): shorter here, so that the scenarios wait less for what the fault left unacknowledged.
 */
const ACK_WAIT_MS = 10_000;
/** The buckets the session keepers write: their leader is the node killed. */
const KEPT_BUCKETS = ['KV_warden_breaker_ledger', 'KV_warden_pattern_sessions', 'KV_warden_interventions'];
/** How long the bus stays away in the outage scenario. */
const OUTAGE_MS = 30_000;
/** The supervisors that keep session state: a second replica of each is started, then one of the two killed. */
const STATEFUL = ['breaker', 'pattern-detector', 'intervention-controller'] as const;

/**
 * A three-node NATS cluster on loopback with every stream and bucket replicated three times, and the
 * decision path with the three stateful supervisors as processes. 200 sessions run once without a fault;
 * then again while the bus fails in two ways, and while a replica of each stateful supervisor dies. Whatever
 * the bus does, a failure is transient, and a dead replica's sessions go on at the other: nothing is
 * dead-lettered and every session ends exactly as without the fault — the same decisions in the same
 * order, the same breaker events, patterns and interventions.
 */
describe('the bus failing while 200 sessions run', () => {
  let cluster: TestNatsCluster;
  let settings: ReturnType<typeof settingsFiles>;
  const services: ServiceProcess[] = [];
  let bus: BusConnection;
  let load: AgentLoad;
  let calm: SessionResult[];

  beforeAll(async () => {
    cluster = await TestNatsCluster.start({ partitions: PARTITIONS });
    settings = settingsFiles();
    await cluster.provision(SUPERVISION, { ackWaitMs: ACK_WAIT_MS });
    // Together: each waits for its own start, and the machine is shared.
    const started = await Promise.allSettled(SUPERVISION.map((app) => ServiceProcess.start({ app, nats: cluster.service, partitions: PARTITIONS, env: { ...FAST_LEASES, ...settings.env } })));
    for (const result of started) if (result.status === 'fulfilled') services.push(result.value);
    for (const result of started) if (result.status === 'rejected') throw result.reason;
    bus = await BusConnection.open(cluster.service);
    load = await AgentLoad.start(bus, 'fault-load');
    await load.run('calm', SESSIONS);
    await consumersSettled(bus.jsm, SUPERVISION);
    calm = (await results(bus, load, 'calm', SESSIONS)).sessions;
    expectSomethingToCompare(calm);
  }, 300_000);

  afterAll(async () => {
    load?.stop();
    await bus?.close();
    await Promise.all(services.map((s) => s.stop()));
    await cluster?.stop();
    settings?.cleanup();
  }, 60_000);

  it('kills the node that leads the session buckets: no dead letter, every session as without the fault', async () => {
    const leader = await cluster.leaderOf(KEPT_BUCKETS[0]!);
    for (const bucket of KEPT_BUCKETS.slice(1)) await moveLeader(cluster, bucket, leader);
    const { finished } = await load.runUntil('killed', SESSIONS, 1 / 3);
    await cluster.kill(leader);
    await finished;
    await consumersSettled(bus.jsm, SUPERVISION);
    await expectAsCalm('killed');
  }, 300_000);

  it('stops every nats-server for 30 s and starts them again: no dead letter, every session as without the fault', async () => {
    const { finished } = await load.runUntil('outage', SESSIONS, 1 / 3);
    await cluster.stopAll();
    // The outage itself: the services and the agents go on trying for this long.
    await new Promise((resolve) => setTimeout(resolve, OUTAGE_MS));
    await cluster.startAll();
    await finished;
    await consumersSettled(bus.jsm, SUPERVISION);
    await expectAsCalm('outage');
  }, 300_000);

  it('kills one of two replicas of each stateful supervisor: no dead letter, every session as without the fault', async () => {
    const twins = await Promise.all(STATEFUL.map((app) => ServiceProcess.start({ app, nats: cluster.service, partitions: PARTITIONS, env: { ...FAST_LEASES, ...settings.env } })));
    services.push(...twins);
    // Each twin owns a partition before the load, so that the kill interrupts sessions both replicas hold.
    for (const twin of twins) {
      await eventually(`${twin.app}'s second replica to own a partition`, async () => /^warden_partitions_owned(\{[^}]*\})? 1$/m.test(await (await fetch(`${twin.url}/metrics`)).text()), {
        timeoutMs: 30_000,
        intervalMs: 200,
      });
    }
    const { finished } = await load.runUntil('replica', SESSIONS, 1 / 3);
    const first = STATEFUL.map((app) => services.find((s) => s.app === app && s.running)!);
    await Promise.all(first.map((replica) => replica.kill()));
    await finished;
    await consumersSettled(bus.jsm, SUPERVISION);
    await expectAsCalm('replica');
  }, 300_000);

  async function expectAsCalm(prefix: string): Promise<void> {
    const faulty = await results(bus, load, prefix, SESSIONS);
    expect(faulty.deadLetters).toBe(0);
    const differing = faulty.sessions.flatMap((fault, index) => (JSON.stringify(fault) === JSON.stringify(calm[index]) ? [] : [{ index, fault, calm: calm[index] }]));
    expect(differing.slice(0, 3)).toEqual([]);
  }
});

/** Steps a bucket's leader down until `target` leads it (an election picks at random among the others). */
async function moveLeader(cluster: TestNatsCluster, stream: string, target: string): Promise<void> {
  await eventually(`${target} to lead ${stream}`, async () => {
    const leader = await cluster.leaderOf(stream).catch(() => '');
    if (leader === target) return true;
    // Only while a leader is there: a step-down during an election would start another one.
    if (leader) await cluster.stepDown(stream).catch(() => undefined);
    return false;
  }, { timeoutMs: 30_000, intervalMs: 500 });
}

/** The calm run must have produced each kind of result, or comparing with it proves nothing. */
function expectSomethingToCompare(sessions: SessionResult[]): void {
  expect(sessions.every((s) => s.decisions.length > 0)).toBe(true);
  expect(sessions.some((s) => s.patterns.length > 0)).toBe(true);
  expect(sessions.some((s) => s.breakers.some((b) => b.startsWith('breaker.tripped')))).toBe(true);
  expect(sessions.some((s) => s.interventions.length > 0)).toBe(true);
  expect(sessions.some((s) => s.decisions.some((d) => d.endsWith(':deny')))).toBe(true);
}
