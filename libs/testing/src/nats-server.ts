import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, WardenNatsServer } from '@warden/local-runtime';
import type { NatsSettings, ProvisionReport, TopologyOptions } from '@warden/messaging';
import { eventually } from './eventually.js';

export interface TestNatsOptions {
  partitions?: number;
  /** Agent users to create; each may publish only its own subjects. Default agent-1, agent-2. */
  agents?: string[];
  /** Provision streams, consumers and KV buckets right after start. Default true. */
  provision?: boolean;
  topology?: Partial<TopologyOptions>;
  /** Serve nats-server's HTTP monitoring (`/connz`, ...) on a free loopback port: `monitorUrl`. Default off. */
  monitor?: boolean;
}

/**
 * A real nats-server with JetStream on a random loopback port and a temporary store, configured like
 * production (partition mappings, service/operator/agent users with random passwords). `stop` removes
 * everything; `kill` + `start` simulate a crash and restart on the same store.
 */
export class TestNatsServer {
  private constructor(
    private readonly server: WardenNatsServer,
    readonly dir: string,
    private readonly topology: Partial<TopologyOptions>,
  ) {}

  static async start(options: TestNatsOptions = {}): Promise<TestNatsServer> {
    const dir = mkdtempSync(join(tmpdir(), 'warden-nats-'));
    const secret = () => randomBytes(12).toString('hex');
    const monitorPort = options.monitor ? await freePort() : undefined;
    const server = await WardenNatsServer.start({
      dir,
      port: await freePort(),
      ...(monitorPort !== undefined ? { monitorPort } : {}),
      partitions: options.partitions ?? 8,
      service: { user: 'warden', password: secret() },
      operators: [{ user: 'operator', password: secret() }],
      agents: (options.agents ?? ['agent-1', 'agent-2']).map((user) => ({ user, password: secret() })),
    });
    const test = new TestNatsServer(server, dir, options.topology ?? {});
    if (monitorPort !== undefined) test.monitorUrl = `http://127.0.0.1:${monitorPort}`;
    if (options.provision ?? true) await test.provision();
    return test;
  }

  /** nats-server's HTTP monitoring, when started with `monitor: true`. */
  monitorUrl?: string;

  get url(): string {
    return this.server.url;
  }

  get port(): number {
    return this.server.port;
  }

  get partitions(): number {
    return this.server.partitions;
  }

  get configPath(): string {
    return this.server.configPath;
  }

  get service(): NatsSettings {
    return { ...this.server.service, name: 'warden-test' };
  }

  get operator(): NatsSettings {
    return this.server.operator();
  }

  /** Connection settings of an agent user (its own inbox prefix included). */
  agent(agentId: string): NatsSettings {
    return this.server.agent(agentId);
  }

  get serverLog(): string {
    return this.server.log;
  }

  /**
   * Resolves with the server log once it matches `pattern`. The server writes its log on its own
   * schedule (a refused client may hear of it before the line reaches the pipe): wait, never race it.
   */
  waitForLog(pattern: RegExp, timeoutMs = 5_000): Promise<string> {
    return eventually(`${pattern} in the nats-server log`, () => this.server.log, (log) => pattern.test(log), { timeoutMs });
  }

  start(): Promise<void> {
    return this.server.start();
  }

  provision(): Promise<ProvisionReport> {
    return this.server.provision(this.topology);
  }

  /** Ends the server abruptly (SIGKILL); the store stays for `start`. */
  kill(): Promise<void> {
    return this.server.kill();
  }

  async stop(): Promise<void> {
    await this.server.stop();
    rmSync(this.dir, { recursive: true, force: true });
  }
}
