import { ServiceProcess } from '@warden/local-runtime';
import { BusConnection } from '@warden/messaging';
import { TestNatsCluster } from '@warden/testing';
import { FAST_LEASES } from '../scenarios/path-fixture.js';
import { AgentLoad, results, settingsFiles, settled, SUPERVISION, type SessionResult } from './fault-load.js';

const SESSIONS = 200;
const PARTITIONS = 4;
/** The buckets the session keepers write: their leader is the node killed. */
const KEPT_BUCKETS = ['KV_warden_breaker_ledger', 'KV_warden_pattern_sessions', 'KV_warden_interventions'];

/**
 * A three-node cluster with every stream and bucket replicated three times. The node that leads the
 * session buckets is killed while 200 sessions run: the buckets (and whatever else it led) elect a new
 * leader, which takes seconds, and every write in between fails. Those failures are transient: nothing
 * is dead-lettered and every session ends exactly as in a run without the fault.
 */
describe('killing the nats-server that leads the session buckets', () => {
  it('loses nothing: the same breaker events, patterns, interventions and decisions, in order, as without the fault', async () => {
    const cluster = await TestNatsCluster.start({ partitions: PARTITIONS });
    const settings = settingsFiles();
    const services: ServiceProcess[] = [];
    let bus: BusConnection | undefined;
    let load: AgentLoad | undefined;
    try {
      await cluster.provision(SUPERVISION);
      for (const app of SUPERVISION) services.push(await ServiceProcess.start({ app, nats: cluster.service, partitions: PARTITIONS, env: { ...FAST_LEASES, ...settings.env } }));
      bus = await BusConnection.open(cluster.service);
      load = await AgentLoad.start(bus, 'fault-load');

      await load.run('calm', SESSIONS);
      await settled(bus, SUPERVISION);
      const calm = await results(bus, load, 'calm', SESSIONS);
      expectSomethingToCompare(calm.sessions);

      const leader = await cluster.leaderOf(KEPT_BUCKETS[0]!);
      for (const bucket of KEPT_BUCKETS.slice(1)) await moveLeader(cluster, bucket, leader);
      const decidedBefore = load.decidedCount;
      const total = calm.sessions.reduce((n, s) => n + s.decisions.length, 0);
      const run = load.run('fault', SESSIONS);
      // A third of the way in, while every service is writing.
      const third = new Promise<void>((resolve) => {
        const check = setInterval(() => load!.decidedCount - decidedBefore >= total / 3 && (clearInterval(check), resolve()), 20);
      });
      await Promise.race([third, run]);
      expect(load.decidedCount - decidedBefore).toBeLessThan(total);
      await cluster.kill(leader);
      await run;
      await settled(bus, SUPERVISION);
      const faulty = await results(bus, load, 'fault', SESSIONS);

      expect(faulty.deadLetters).toBe(0);
      const differing = faulty.sessions.map((s, i) => ({ index: i, fault: s, calm: calm.sessions[i] })).filter((d) => JSON.stringify(d.fault) !== JSON.stringify(d.calm));
      if (differing.length) console.log(`${differing.length} sessions differ`, JSON.stringify(differing.slice(0, 3), null, 1));
      expect(faulty.sessions).toEqual(calm.sessions);
    } finally {
      load?.stop();
      await bus?.close();
      await Promise.all(services.map((s) => s.stop()));
      await cluster.stop();
      settings.cleanup();
    }
  }, 600_000);
});

/** Steps a bucket's leader down until `target` leads it, a few times at most (elections pick at random). */
async function moveLeader(cluster: TestNatsCluster, stream: string, target: string): Promise<void> {
  for (let attempt = 0; attempt < 8 && (await cluster.leaderOf(stream)) !== target; attempt++) {
    await cluster.stepDown(stream).catch(() => undefined);
    await new Promise((resolve) => setTimeout(resolve, 300));
  }
}

/** The calm run must have produced each kind of result, or comparing with it proves nothing. */
function expectSomethingToCompare(sessions: SessionResult[]): void {
  expect(sessions.every((s) => s.decisions.length > 0)).toBe(true);
  expect(sessions.some((s) => s.patterns.length > 0)).toBe(true);
  expect(sessions.some((s) => s.breakers.some((b) => b.startsWith('breaker.tripped')))).toBe(true);
  expect(sessions.some((s) => s.interventions.length > 0)).toBe(true);
}
