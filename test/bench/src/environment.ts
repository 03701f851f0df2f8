import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, NatsServerProcess, ServiceProcess } from '@warden/local-runtime';
import {
  agentInboxPrefix,
  BusConnection,
  buildTopology,
  provision,
  renderNatsServerConfig,
  type NatsSettings,
  type ProvisionReport,
} from '@warden/messaging';
import { commandLine, findPid } from './cpu.js';

export interface EnvironmentOptions {
  partitions: number;
  /** Agent users bench-agent-0 .. bench-agent-(agents-1). */
  agents: number;
  logDir?: string;
}

const secret = () => randomBytes(18).toString('base64url');

export const agentId = (index: number) => `bench-agent-${index}`;

/** Resolves with `work`, or after `ms` with undefined, so that a hung shutdown cannot hang the run. */
async function within<T>(ms: number, work: Promise<T>): Promise<T | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), ms);
  });
  try {
    return await Promise.race([work, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * nats-server with Warden's production configuration on free loopback ports and a temporary store,
 * provisioned with the production topology, and the services started against it. `stop` ends
 * everything it started and removes the temporary directory; it is safe to call more than once and
 * after a partial start.
 */
export class BenchEnvironment {
  readonly dir = mkdtempSync(join(tmpdir(), 'warden-bench-'));
  readonly service: NatsSettings;
  readonly services: ServiceProcess[] = [];
  private readonly agentPasswords: string[];
  private nats?: NatsServerProcess;
  private natsPid?: number;
  private natsStopped = false;
  private stopping?: Promise<void>;
  port = 0;
  provisionReport?: ProvisionReport;

  constructor(private readonly options: EnvironmentOptions) {
    this.service = { servers: '', user: 'warden', password: secret(), name: 'warden-bench' };
    this.agentPasswords = Array.from({ length: options.agents }, () => secret());
    if (options.logDir) mkdirSync(options.logDir, { recursive: true });
  }

  get url(): string {
    return `nats://127.0.0.1:${this.port}`;
  }

  get logDir(): string {
    return this.options.logDir ?? join(this.dir, 'logs');
  }

  get configPath(): string {
    return join(this.dir, 'nats.conf');
  }

  agent(index: number): { agentId: string; password: string } {
    return { agentId: agentId(index), password: this.agentPasswords[index]! };
  }

  agentSettings(index: number): NatsSettings {
    return { servers: this.url, user: agentId(index), password: this.agentPasswords[index], inboxPrefix: agentInboxPrefix(agentId(index)) };
  }

  /** Process ids to watch for CPU use. */
  pids(): Record<string, number | undefined> {
    const pids: Record<string, number | undefined> = { 'nats-server': this.natsPid };
    for (const s of this.services) pids[s.app] = s.running ? s.pid : undefined;
    pids.bench = process.pid;
    return pids;
  }

  async startNats(): Promise<void> {
    mkdirSync(this.logDir, { recursive: true });
    this.port = await freePort();
    this.service.servers = this.url;
    writeFileSync(
      this.configPath,
      renderNatsServerConfig({
        partitions: this.options.partitions,
        host: '127.0.0.1',
        port: this.port,
        storeDir: join(this.dir, 'jetstream'),
        service: { user: this.service.user!, password: this.service.password! },
        operators: [{ user: 'operator', password: secret() }],
        agents: this.agentPasswords.map((password, i) => ({ user: agentId(i), password })),
      }),
      { mode: 0o600 },
    );
    this.nats = new NatsServerProcess({ configPath: this.configPath, port: this.port, logFile: join(this.logDir, 'nats-server.log') });
    await this.nats.start();
    // The temporary directory's name is unique, so the command line containing it is this server's.
    this.natsPid = findPid(this.configPath);
  }

  async provision(): Promise<ProvisionReport> {
    const bus = await BusConnection.open(this.service);
    try {
      this.provisionReport = await provision(bus.nc, bus.jsm, buildTopology({ partitions: this.options.partitions }));
      if (!this.provisionReport.ok) throw new Error(`provisioning reported conflicts: ${JSON.stringify(this.provisionReport.changes)}`);
      return this.provisionReport;
    } finally {
      await bus.close();
    }
  }

  /** Starts a built service (apps/<app>/dist) as its own process against the server. */
  async startService(app: string): Promise<ServiceProcess> {
    const service = await ServiceProcess.start({
      app,
      nats: this.service,
      partitions: this.options.partitions,
      logFile: join(this.logDir, `${app}.log`),
      readyTimeoutMs: 60_000,
    });
    this.services.push(service);
    return service;
  }

  stop(): Promise<void> {
    this.stopping ??= this.stopAll();
    return this.stopping;
  }

  private async stopAll(): Promise<void> {
    // Graceful first (drain, hand partitions over), SIGKILL for whatever does not end in time.
    await Promise.all(
      this.services.map(async (s) => {
        if ((await within(15_000, s.stop().then(() => true))) === undefined) await within(5_000, s.kill());
      }),
    );
    if (this.nats && (await within(15_000, this.nats.stop().then(() => true))) === undefined) await within(5_000, this.nats.kill());
    // Its pid may be reused from now on: never signal it again.
    this.natsStopped = true;
    rmSync(this.dir, { recursive: true, force: true });
  }

  /**
   * Ends every started process that is still running at once, without a graceful shutdown (second
   * Ctrl-C, or the benchmark process exiting). Synchronous, so that it also works in an exit handler.
   */
  killNow(): void {
    const kill = (pid: number) => {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // Already gone.
      }
    };
    for (const s of this.services) if (s.running && s.pid) kill(s.pid);
    // Only while that pid still runs this run's configuration.
    if (this.natsPid && !this.natsStopped && commandLine(this.natsPid)?.includes(this.configPath)) kill(this.natsPid);
    rmSync(this.dir, { recursive: true, force: true });
  }
}
