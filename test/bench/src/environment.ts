import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, ServiceProcess, WardenNatsServer } from '@warden/local-runtime';
import type { NatsSettings, ProvisionReport } from '@warden/messaging';

export interface EnvironmentOptions {
  partitions: number;
  /** Agent users bench-agent-0 .. bench-agent-(agents-1). */
  agents: number;
  logDir?: string;
  /** Profile each service's CPU into this directory. */
  profileDir?: string;
}

/** By connection name: messages the server received from its connections (`received`) and sent to them (`sent`). */
export type ConnectionTraffic = Record<string, { received: number; sent: number }>;

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
  readonly services: ServiceProcess[] = [];
  private nats?: WardenNatsServer;
  private natsProfPort?: number;
  private natsMonitorPort?: number;
  private stopping?: Promise<void>;
  provisionReport?: ProvisionReport;

  constructor(private readonly options: EnvironmentOptions) {
    if (options.logDir) mkdirSync(options.logDir, { recursive: true });
    if (options.profileDir) mkdirSync(options.profileDir, { recursive: true });
  }

  get url(): string {
    return this.nats?.url ?? '';
  }

  get port(): number {
    return this.nats?.port ?? 0;
  }

  get service(): NatsSettings {
    return { ...this.nats!.service, name: 'warden-bench' };
  }

  get logDir(): string {
    return this.options.logDir ?? join(this.dir, 'logs');
  }

  agent(index: number): { agentId: string; password: string } {
    return { agentId: agentId(index), password: this.nats!.agent(agentId(index)).password! };
  }

  agentSettings(index: number): NatsSettings {
    return this.nats!.agent(agentId(index));
  }

  /** Process ids to watch for CPU use. */
  pids(): Record<string, number | undefined> {
    const pids: Record<string, number | undefined> = { 'nats-server': this.nats?.pid };
    for (const s of this.services) pids[s.app] = s.running ? s.pid : undefined;
    pids.bench = process.pid;
    return pids;
  }

  async startNats(): Promise<void> {
    mkdirSync(this.logDir, { recursive: true });
    if (this.options.profileDir) this.natsProfPort = await freePort();
    this.natsMonitorPort = await freePort();
    this.nats = await WardenNatsServer.start({
      dir: join(this.dir, 'nats'),
      port: await freePort(),
      monitorPort: this.natsMonitorPort,
      ...(this.natsProfPort ? { profPort: this.natsProfPort } : {}),
      partitions: this.options.partitions,
      service: { user: 'warden', password: secret() },
      operators: [{ user: 'operator', password: secret() }],
      agents: Array.from({ length: this.options.agents }, (_, i) => ({ user: agentId(i), password: secret() })),
      logFile: join(this.logDir, 'nats-server.log'),
    });
  }

  /**
   * With a profile directory: nats-server's CPU profile over the next `seconds`, written to
   * `<dir>/nats-server-<label>.pprof` (read it with `go tool pprof -top <file>`). Resolves with the file,
   * or undefined without a profile directory or when the server does not answer.
   */
  async profileNats(label: string, seconds: number): Promise<string | undefined> {
    if (!this.options.profileDir || !this.natsProfPort) return undefined;
    try {
      const response = await fetch(`http://127.0.0.1:${this.natsProfPort}/debug/pprof/profile?seconds=${Math.max(1, Math.round(seconds))}`);
      if (!response.ok) return undefined;
      const file = join(this.options.profileDir, `nats-server-${label}.pprof`);
      writeFileSync(file, new Uint8Array(await response.arrayBuffer()));
      return file;
    } catch {
      return undefined;
    }
  }

  /**
   * Messages nats-server received from and sent to each client connection so far, summed by connection
   * name (`warden-<service>`, the bench's own clients under their names): everything a client costs the
   * server, acknowledgements, KV reads, pulls and heartbeats included. Read from the monitoring endpoint.
   */
  async connectionTraffic(): Promise<ConnectionTraffic> {
    const response = await fetch(`http://127.0.0.1:${this.natsMonitorPort}/connz?limit=100000`);
    if (!response.ok) throw new Error(`nats-server's connz answered ${response.status}`);
    const { connections = [] } = (await response.json()) as { connections?: { name?: string; in_msgs: number; out_msgs: number }[] };
    const traffic: ConnectionTraffic = {};
    for (const c of connections) {
      const name = c.name || 'unnamed';
      const sum = (traffic[name] ??= { received: 0, sent: 0 });
      sum.received += c.in_msgs;
      sum.sent += c.out_msgs;
    }
    return traffic;
  }

  async provision(): Promise<ProvisionReport> {
    this.provisionReport = await this.nats!.provision();
    return this.provisionReport;
  }

  /** Starts a built service (apps/<app>/dist) as its own process against the server. */
  async startService(app: string, env: Record<string, string> = {}): Promise<ServiceProcess> {
    const service = await ServiceProcess.start({
      app,
      nats: this.service,
      partitions: this.options.partitions,
      logFile: join(this.logDir, `${app}.log`),
      readyTimeoutMs: 60_000,
      env,
      // As `warden up` runs them: the services beside the decision path at a lower CPU priority.
      cpuPriority: true,
      ...(this.options.profileDir
        ? { nodeArgs: ['--cpu-prof', `--cpu-prof-dir=${this.options.profileDir}`, `--cpu-prof-name=${app}.cpuprofile`] }
        : {}),
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
    rmSync(this.dir, { recursive: true, force: true });
  }

  /**
   * Ends every started process that is still running at once, without a graceful shutdown (second
   * Ctrl-C, or the benchmark process exiting). Synchronous, so that it also works in an exit handler.
   */
  killNow(): void {
    for (const s of this.services) s.killNow();
    this.nats?.killNow();
    rmSync(this.dir, { recursive: true, force: true });
  }
}
