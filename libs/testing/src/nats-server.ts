import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect as netConnect } from 'node:net';
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
import { freePort, waitUntil } from './free-port.js';
import { natsServerBinary } from './system-binaries.js';

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
  private process?: ChildProcess;
  private log = '';

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
    return this.log;
  }

  async start(): Promise<void> {
    this.log = '';
    const child = spawn(natsServerBinary(), ['-c', this.configPath], { stdio: ['ignore', 'pipe', 'pipe'] });
    this.process = child;
    const append = (chunk: Buffer) => {
      this.log = (this.log + chunk.toString()).slice(-20_000);
    };
    child.stdout!.on('data', append);
    child.stderr!.on('data', append);
    const exited = new Promise<never>((_, reject) =>
      child.once('exit', (code) => reject(new Error(`nats-server exited with ${code}:\n${this.log}`))),
    );
    exited.catch(() => undefined);
    await Promise.race([
      waitUntil(() => this.log.includes('Server is ready') && this.accepts(), 10_000, `nats-server on port ${this.port}`),
      exited,
    ]);
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
  async kill(): Promise<void> {
    await this.signal('SIGKILL');
  }

  async stop(): Promise<void> {
    await this.signal('SIGTERM');
    rmSync(this.dir, { recursive: true, force: true });
  }

  private async signal(signal: NodeJS.Signals): Promise<void> {
    const child = this.process;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill(signal);
    await exited;
  }

  private accepts(): Promise<boolean> {
    return new Promise((resolve) => {
      const socket = netConnect(this.port, '127.0.0.1');
      socket.once('connect', () => {
        socket.destroy();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
  }
}
