import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, NatsServerProcess } from '@warden/local-runtime';
import {
  agentInboxPrefix,
  BusConnection,
  buildTopology,
  provision,
  renderNatsServerConfig,
  type NatsSettings,
  type ProvisionReport,
  type TopologyOptions,
} from '@warden/messaging';

export interface TestNatsOptions {
  partitions?: number;
  /** Agent users to create; each may publish only its own subjects. Default agent-1, agent-2. */
  agents?: string[];
  /** Provision streams, consumers and KV buckets right after start. Default true. */
  provision?: boolean;
  topology?: Partial<TopologyOptions>;
}

/**
 * A real nats-server with JetStream on a random loopback port and a temporary store, configured like
 * production (partition mappings, service/operator/agent users). `stop` removes everything;
 * `kill` + `start` simulate a crash and restart on the same store.
 */
export class TestNatsServer {
  readonly service: NatsSettings;
  readonly operator: NatsSettings;
  private readonly agentPasswords = new Map<string, string>();
  private readonly process: NatsServerProcess;

  private constructor(
    readonly port: number,
    readonly dir: string,
    readonly partitions: number,
    private readonly topologyOptions: Partial<TopologyOptions>,
    agents: string[],
  ) {
    const secret = () => randomBytes(12).toString('hex');
    this.service = { servers: this.url, user: 'warden', password: secret(), name: 'warden-test' };
    this.operator = { servers: this.url, user: 'operator', password: secret(), name: 'warden-test-operator' };
    for (const agent of agents) this.agentPasswords.set(agent, secret());
    this.process = new NatsServerProcess({ configPath: this.configPath, port });
    writeFileSync(
      this.configPath,
      renderNatsServerConfig({
        partitions,
        host: '127.0.0.1',
        port,
        storeDir: join(dir, 'jetstream'),
        service: { user: this.service.user!, password: this.service.password! },
        operators: [{ user: this.operator.user!, password: this.operator.password! }],
        agents: [...this.agentPasswords].map(([user, password]) => ({ user, password })),
      }),
    );
  }

  static async start(options: TestNatsOptions = {}): Promise<TestNatsServer> {
    const dir = mkdtempSync(join(tmpdir(), 'warden-nats-'));
    const server = new TestNatsServer(
      await freePort(),
      dir,
      options.partitions ?? 8,
      options.topology ?? {},
      options.agents ?? ['agent-1', 'agent-2'],
    );
    await server.start();
    if (options.provision ?? true) await server.provision();
    return server;
  }

  get url(): string {
    return `nats://127.0.0.1:${this.port}`;
  }

  get configPath(): string {
    return join(this.dir, 'nats.conf');
  }

  /** Connection settings of an agent user (its own inbox prefix included). */
  agent(agentId: string): NatsSettings {
    const password = this.agentPasswords.get(agentId);
    if (!password) throw new Error(`no agent user ${agentId} on this test server`);
    return { servers: this.url, user: agentId, password, name: `agent-${agentId}`, inboxPrefix: agentInboxPrefix(agentId) };
  }

  get serverLog(): string {
    return this.process.log;
  }

  start(): Promise<void> {
    return this.process.start();
  }

  /** Creates the suite's streams, consumers and KV buckets (as `warden provision` does). */
  async provision(): Promise<ProvisionReport> {
    const bus = await BusConnection.open(this.service);
    try {
      return await provision(bus.nc, bus.jsm, buildTopology({ partitions: this.partitions, ...this.topologyOptions }));
    } finally {
      await bus.close();
    }
  }

  /** Ends the server abruptly (SIGKILL); the store stays for `start`. */
  kill(): Promise<void> {
    return this.process.kill();
  }

  async stop(): Promise<void> {
    await this.process.stop();
    rmSync(this.dir, { recursive: true, force: true });
  }
}
