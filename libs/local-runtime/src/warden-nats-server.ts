import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import bcrypt from 'bcryptjs';
import type { ServiceName } from '@warden/contracts';
import {
  agentInboxPrefix,
  BusConnection,
  buildTopology,
  provision,
  renderNatsServerConfig,
  type NatsSettings,
  type NatsUser,
  type ProvisionReport,
  type TopologyOptions,
} from '@warden/messaging';
import { NatsServerProcess } from './nats-server-process.js';

/**
 * bcrypt cost of the agents' password hashes in nats.conf. nats-server checks the hash at every
 * connection (each run of the command hook connects), and the secrets are random (144 bits), not
 * guessable passwords: the hash keeps them out of the file, it need not slow guessing down.
 */
export const AGENT_HASH_COST = 6;

export interface WardenNatsServerOptions {
  /** Holds nats.conf and the JetStream store. */
  dir: string;
  port: number;
  monitorPort?: number;
  /** Serve Go's CPU and heap profiles (`/debug/pprof/…`) on this loopback port. */
  profPort?: number;
  partitions: number;
  service: NatsUser;
  operators?: NatsUser[];
  agents: NatsUser[];
  logFile?: string;
  ownProcessGroup?: boolean;
  /** A member of a cluster: its name and the routes to the others. */
  serverName?: string;
  cluster?: { name: string; port: number; routes: string[] };
}

/**
 * nats-server configured for Warden (JetStream, partition mappings, service/operator/agent users) on
 * loopback, with the connection settings of each user and provisioning of the suite's topology. The
 * test harness, the local suite and the benchmark all run their server through it.
 */
export class WardenNatsServer {
  private readonly process: NatsServerProcess;
  private readonly agentPasswords: Map<string, string>;

  private constructor(private readonly options: WardenNatsServerOptions) {
    mkdirSync(options.dir, { recursive: true });
    this.agentPasswords = new Map(options.agents.map((a) => [a.user, a.password]));
    writeFileSync(
      this.configPath,
      renderNatsServerConfig({
        partitions: options.partitions,
        host: '127.0.0.1',
        port: options.port,
        monitorPort: options.monitorPort,
        profPort: options.profPort,
        storeDir: join(options.dir, 'jetstream'),
        ...(options.serverName ? { serverName: options.serverName } : {}),
        ...(options.cluster ? { cluster: { ...options.cluster, host: '127.0.0.1' } } : {}),
        service: options.service,
        operators: options.operators ?? [],
        // An agent's password is its token for the gateway too: the file keeps only its bcrypt hash.
        agents: options.agents.map((agent) => ({ user: agent.user, password: bcrypt.hashSync(agent.password, AGENT_HASH_COST) })),
      }),
      { mode: 0o600 },
    );
    this.process = new NatsServerProcess({
      configPath: this.configPath,
      port: options.port,
      logFile: options.logFile,
      ownProcessGroup: options.ownProcessGroup,
    });
  }

  /** The server configured, not started yet (members of a cluster start together). */
  static create(options: WardenNatsServerOptions): WardenNatsServer {
    return new WardenNatsServer(options);
  }

  static async start(options: WardenNatsServerOptions): Promise<WardenNatsServer> {
    const server = new WardenNatsServer(options);
    await server.start();
    return server;
  }

  get url(): string {
    return `nats://127.0.0.1:${this.options.port}`;
  }

  get port(): number {
    return this.options.port;
  }

  get partitions(): number {
    return this.options.partitions;
  }

  get configPath(): string {
    return join(this.options.dir, 'nats.conf');
  }

  get pid(): number | undefined {
    return this.process.pid;
  }

  /** What the server printed (kept in memory, last 50 kB). */
  get log(): string {
    return this.process.log;
  }

  /** Connection settings of the service user. */
  get service(): NatsSettings {
    return { servers: this.url, user: this.options.service.user, password: this.options.service.password };
  }

  /** Connection settings of an operator user. */
  operator(user = this.options.operators?.[0]?.user): NatsSettings {
    const operator = this.options.operators?.find((o) => o.user === user);
    if (!operator) throw new Error(`no operator user ${user} on this server`);
    return { servers: this.url, user: operator.user, password: operator.password };
  }

  /** Connection settings of an agent user, with the reply inbox only it may read. */
  agent(agentId: string): NatsSettings {
    const password = this.agentPasswords.get(agentId);
    if (password === undefined) throw new Error(`no agent user ${agentId} on this server`);
    return { servers: this.url, user: agentId, password, name: `agent-${agentId}`, inboxPrefix: agentInboxPrefix(agentId) };
  }

  start(): Promise<void> {
    return this.process.start();
  }

  /**
   * Creates or updates the suite's streams, consumers, KV buckets and the checkpoint store of each of
   * its agents (as `warden provision --agent …` does); `services` limits the consumers to theirs.
   */
  async provision(overrides: Partial<TopologyOptions> = {}, services?: readonly ServiceName[]): Promise<ProvisionReport> {
    const bus = await BusConnection.open(this.service);
    try {
      const agents = this.options.agents.map((a) => a.user);
      const topology = buildTopology({ partitions: this.options.partitions, agents, ...overrides });
      // A test that runs some of the services needs only their consumers.
      if (services) topology.consumers = topology.consumers.filter((c) => services.includes(c.service));
      return await provision(bus.nc, bus.jsm, topology);
    } finally {
      await bus.close();
    }
  }

  /** Ends the server abruptly (SIGKILL); the store stays for `start`. */
  kill(): Promise<void> {
    return this.process.kill();
  }

  killNow(): void {
    this.process.killNow();
  }

  stop(): Promise<void> {
    return this.process.stop();
  }
}
