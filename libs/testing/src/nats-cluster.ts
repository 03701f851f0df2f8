import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { jetstreamManager, type JetStreamManager } from '@nats-io/jetstream';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { freePort, WardenNatsServer, type WardenNatsServerOptions } from '@warden/local-runtime';
import type { ServiceName } from '@warden/contracts';
import type { NatsSettings, ProvisionReport, TopologyOptions } from '@warden/messaging';
import { eventually } from './eventually.js';

const NAMES = ['nats-1', 'nats-2', 'nats-3'];

export interface TestNatsClusterOptions {
  partitions?: number;
  agents?: string[];
}

/**
 * Three nats-servers with JetStream clustered on loopback, each with its own store, configured like
 * production; the suite's streams and KV buckets are provisioned with three replicas. `kill` and
 * `start` take one member down and bring it back on its store.
 */
export class TestNatsCluster {
  private constructor(
    readonly members: WardenNatsServer[],
    readonly names: string[],
    readonly dir: string,
  ) {}

  static async start(options: TestNatsClusterOptions = {}): Promise<TestNatsCluster> {
    const dir = mkdtempSync(join(tmpdir(), 'warden-nats-cluster-'));
    const secret = () => randomBytes(12).toString('hex');
    const users = {
      service: { user: 'warden', password: secret() },
      operators: [{ user: 'operator', password: secret() }],
      agents: (options.agents ?? ['agent-1']).map((user) => ({ user, password: secret() })),
    };
    // A port free when picked can be taken before the member binds it: start again on other ports.
    for (let attempt = 1; ; attempt++) {
      const members = await TestNatsCluster.members(join(dir, `attempt-${attempt}`), options.partitions ?? 8, users);
      try {
        // Each waits for its peers to elect a meta leader before it says it is ready: start them together.
        await Promise.all(members.map((m) => m.start()));
      } catch (error) {
        await Promise.all(members.map((m) => m.stop()));
        if (attempt === 3 || !/address already in use/.test((error as Error).message)) throw error;
        continue;
      }
      const cluster = new TestNatsCluster(members, NAMES, dir);
      await cluster.waitForMetaLeader();
      return cluster;
    }
  }

  private static async members(dir: string, partitions: number, users: Pick<WardenNatsServerOptions, 'service' | 'operators' | 'agents'>): Promise<WardenNatsServer[]> {
    const ports: { client: number; route: number }[] = [];
    for (let i = 0; i < NAMES.length; i++) ports.push({ client: await freePort(), route: await freePort() });
    return ports.map((port, i) =>
      WardenNatsServer.create({
        ...users,
        dir: join(dir, NAMES[i]!),
        port: port.client,
        partitions,
        serverName: NAMES[i]!,
        cluster: { name: 'warden-test', port: port.route, routes: ports.filter((_, j) => j !== i).map((p) => `nats://127.0.0.1:${p.route}`) },
      }),
    );
  }

  /** Every member's client URL: clients fail over between them. */
  get url(): string {
    return this.members.map((m) => m.url).join(',');
  }

  get partitions(): number {
    return this.members[0]!.partitions;
  }

  get service(): NatsSettings {
    return { ...this.members[0]!.service, servers: this.url, name: 'warden-test' };
  }

  agent(agentId: string): NatsSettings {
    return { ...this.members[0]!.agent(agentId), servers: this.url };
  }

  /** Streams, consumers (of `services`, default all) and KV buckets with three replicas each. */
  provision(services?: readonly ServiceName[], overrides: Partial<TopologyOptions> = {}): Promise<ProvisionReport> {
    return this.members[0]!.provision({ ...overrides, replicas: 3 }, services);
  }

  /** The member leading a stream's (or a KV bucket's, `KV_<bucket>`) replicas now. */
  async leaderOf(stream: string): Promise<string> {
    return this.withManager(async (jsm) => (await jsm.streams.info(stream)).cluster?.leader ?? '');
  }

  /** Asks a stream's leader to step down, so that another member is elected. */
  async stepDown(stream: string): Promise<void> {
    await this.withConnection((nc) => nc.request(`$JS.API.STREAM.LEADER.STEPDOWN.${stream}`, undefined, { timeout: 5_000 }));
  }

  /** Ends a member abruptly (SIGKILL); its store stays for `start`. */
  kill(name: string): Promise<void> {
    return this.member(name).kill();
  }

  start(name: string): Promise<void> {
    return this.member(name).start();
  }

  /** Stops every member (SIGTERM), keeping their stores: the bus is away until `startAll`. */
  async stopAll(): Promise<void> {
    await Promise.all(this.members.map((m) => m.stop()));
  }

  /**
   * Starts every member on its store again (together: each waits for its peers) and waits for a meta leader.
   * Three members that all come back from their stores can take longer than 30 s to agree on one (seen on
   * CI machines), so this waits up to 2 minutes.
   */
  async startAll(): Promise<void> {
    await Promise.all(this.members.map((m) => m.start()));
    await this.waitForMetaLeader(120_000);
  }

  async stop(): Promise<void> {
    await Promise.all(this.members.map((m) => m.stop()));
    rmSync(this.dir, { recursive: true, force: true });
  }

  private member(name: string): WardenNatsServer {
    const index = this.names.indexOf(name);
    if (index < 0) throw new Error(`no member ${name} in this cluster`);
    return this.members[index]!;
  }

  private waitForMetaLeader(timeoutMs?: number): Promise<unknown> {
    return eventually(
      'a JetStream meta leader',
      () =>
        this.withManager(async (jsm) => {
          await jsm.getAccountInfo();
          return true;
        }).catch(() => false),
      timeoutMs === undefined ? {} : { timeoutMs },
    );
  }

  private withManager<T>(work: (jsm: JetStreamManager) => Promise<T>): Promise<T> {
    return this.withConnection(async (nc) => work(await jetstreamManager(nc, { checkAPI: false })));
  }

  private async withConnection<T>(work: (nc: NatsConnection) => Promise<T>): Promise<T> {
    const settings = this.service;
    const nc = await connect({ servers: settings.servers.split(','), user: settings.user, pass: settings.password, noAsyncTraces: true });
    try {
      return await work(nc);
    } finally {
      await nc.close();
    }
  }
}
