import { randomBytes } from 'node:crypto';
import { appendFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { SERVICES } from '@warden/contracts';
import { EmbeddedPostgres, freePort, ServiceProcess, WardenNatsServer, type ServiceProcessOptions } from '@warden/local-runtime';
import { BusConnection, type NatsSettings } from '@warden/messaging';
import { OperatorStore } from '@warden/operator-auth';
import { SERVICE_PORTS } from '@warden/service-bootstrap';
import { RunningSuites } from './running-suites.js';
import { onFreePorts, preferredPort } from './suite-ports.js';
import { SupervisedService } from './supervised-service.js';

export interface LocalSuiteOptions {
  /** Where the suite keeps its store, credentials and logs. */
  stateDir: string;
  partitions: number;
  /** Preferred ports; a free one is used when taken. */
  natsPort: number;
  postgresPort: number;
  /** Use this database instead of the embedded one. */
  databaseUrl?: string;
  /** Agent users to create besides demo-agent. */
  agents: string[];
  logLevel: string;
  onProgress(message: string): void;
  /** Calls the start off: what it started is stopped and `start` rejects with the signal's reason. */
  signal?: AbortSignal;
  /** Told what happens to the running suite (a process that died, and its restart). */
  onIncident?(message: string): void;
}

/** Another `warden up` holds this one's state directory or NATS port. */
export class SuiteAlreadyRunningError extends Error {}

export interface Credentials {
  service: { user: string; password: string };
  operator: { user: string; password: string };
  agents: Record<string, string>;
}

/** The agent gateway's default port (apps/gateway). */
export const GATEWAY_PORT = 3108;

export interface RunningService {
  /** One of the seven services, the gateway or the console. */
  name: string;
  url: string;
}

/** The console's default port, after the seven services' 3101-3107 and the gateway's 3108. */
export const CONSOLE_PORT = 3109;

/** The operator `warden up` creates so that someone can log in to the console. */
export const LOCAL_ADMIN = 'admin';

/** How to log in: the admin's password and an API token when this run created the admin (shown once). */
export interface AdminLogin {
  id: string;
  created: boolean;
  password?: string;
  token?: string;
}

const secret = () => randomBytes(18).toString('base64url');

/** Keeps credentials stable across runs of the same state directory, so that agents can reconnect. */
function loadCredentials(path: string, agents: string[]): Credentials {
  const credentials: Credentials = existsSync(path)
    ? (JSON.parse(readFileSync(path, 'utf8')) as Credentials)
    : { service: { user: 'warden', password: secret() }, operator: { user: 'operator', password: secret() }, agents: {} };
  for (const agent of agents) credentials.agents[agent] ??= secret();
  writeFileSync(path, JSON.stringify(credentials, null, 2), { mode: 0o600 });
  return credentials;
}

/**
 * The whole suite on this machine: nats-server with Warden's configuration, PostgreSQL for the audit
 * log (embedded PGlite unless a DATABASE_URL is given), the provisioned topology, and the seven
 * services as separate processes, each on its own HTTP port.
 */
export class LocalSuite {
  private nats?: WardenNatsServer;
  private postgres?: EmbeddedPostgres;
  private readonly supervised: SupervisedService[] = [];
  monitorUrl = '';
  databaseUrl = '';
  databaseLabel = '';
  credentials!: Credentials;
  admin!: AdminLogin;

  private readonly startedAt = new Date().toISOString();

  private constructor(private readonly options: LocalSuiteOptions) {}

  /** Lists this process among the suites running on this machine, with the NATS port it holds (or will). */
  private list(natsPort: number): void {
    new RunningSuites().add({ pid: process.pid, state_dir: this.stateDir, nats_port: natsPort, started_at: this.startedAt });
  }

  /**
   * Starts the suite, or refuses (SuiteAlreadyRunningError) when another `warden up` on this machine holds
   * the same state directory or NATS port. A start that fails or is called off (`options.signal`) stops
   * what it had started before it rejects.
   */
  static async start(options: LocalSuiteOptions): Promise<LocalSuite> {
    const stateDir = resolve(options.stateDir);
    const running = new RunningSuites();
    const other = running.conflict(stateDir, options.natsPort);
    if (other) {
      const holds = other.state_dir === stateDir ? `the state directory ${stateDir}` : `the NATS port ${other.nats_port}`;
      throw new SuiteAlreadyRunningError(
        `Warden is already running here: process ${other.pid} (state directory ${other.state_dir}, started ${other.started_at}) holds ${holds}. ` +
          `Stop it first (Ctrl-C in its terminal, or kill ${other.pid}), or give this one another --state-dir and --nats-port.`,
      );
    }
    const suite = new LocalSuite(options);
    suite.list(options.natsPort);
    // Whatever ends this process: its children are ended too (they also end with it on their own) and it is listed no more.
    process.once('exit', () => {
      suite.killNow();
      running.remove(process.pid);
    });
    try {
      await suite.startAll();
    } catch (error) {
      await suite.stop();
      throw error;
    }
    return suite;
  }

  get services(): RunningService[] {
    return this.processes.map((p) => ({ name: p.app, url: p.url }));
  }

  /** The suite's processes as they run now (a restarted one is its new process). */
  private get processes(): ServiceProcess[] {
    return this.supervised.map((s) => s.process);
  }

  get consoleUrl(): string {
    return this.processes.find((p) => p.app === 'console')?.url ?? '';
  }

  get natsUrl(): string {
    return this.nats?.url ?? '';
  }

  get serviceSettings(): NatsSettings {
    return this.nats!.service;
  }

  agentSettings(agentId: string): NatsSettings {
    return this.nats!.agent(agentId);
  }

  get logDir(): string {
    return join(this.stateDir, 'logs');
  }

  private get stateDir(): string {
    return resolve(this.options.stateDir);
  }

  private async startAll(): Promise<void> {
    const { options } = this;
    for (const dir of [this.stateDir, this.logDir]) mkdirSync(dir, { recursive: true });
    this.credentials = loadCredentials(join(this.stateDir, 'credentials.json'), ['demo-agent', ...options.agents]);

    const { signal } = options;
    signal?.throwIfAborted();
    const startNats = async (port: number, monitorPort: number) => {
      const nats = await WardenNatsServer.start({
        dir: join(this.stateDir, 'nats'),
        port,
        monitorPort,
        partitions: options.partitions,
        service: this.credentials!.service,
        operators: [this.credentials!.operator],
        agents: Object.entries(this.credentials!.agents).map(([user, password]) => ({ user, password })),
        logFile: join(this.logDir, 'nats-server.log'),
        ownProcessGroup: true,
      });
      this.monitorUrl = `http://127.0.0.1:${monitorPort}`;
      return nats;
    };
    this.nats = await onFreePorts(
      async () => startNats(await preferredPort(options.natsPort), await preferredPort(8222)),
      async () => startNats(await freePort(), await freePort()),
    );
    signal?.throwIfAborted();
    options.onProgress(`nats-server with JetStream on ${this.natsUrl} (${options.partitions} partitions)`);

    if (options.databaseUrl) {
      this.databaseUrl = options.databaseUrl;
      this.databaseLabel = 'PostgreSQL from DATABASE_URL';
    } else {
      const startPostgres = (port: number) => EmbeddedPostgres.start({ dataDir: join(this.stateDir, 'pglite'), port });
      this.postgres = await onFreePorts(
        async () => startPostgres(await preferredPort(options.postgresPort)),
        async () => startPostgres(await freePort()),
      );
      this.databaseUrl = this.postgres.url;
      this.databaseLabel = `embedded PostgreSQL (PGlite) on 127.0.0.1:${this.postgres.port}`;
    }
    signal?.throwIfAborted();
    options.onProgress(this.databaseLabel);

    const report = await this.nats.provision();
    const count = (kind: string) => report.changes.filter((c) => c.kind === kind && c.action !== 'stale').length;
    const created = report.changes.filter((c) => c.action === 'created').length;
    options.onProgress(
      `topology provisioned: ${count('stream')} streams, ${count('consumer')} consumers, ${count('kv')} KV bucket${count('kv') === 1 ? '' : 's'}` +
        (created ? ` (${created} created)` : ' (all up to date)'),
    );

    this.admin = await this.ensureAdmin();
    signal?.throwIfAborted();

    // Start the services one after the other: on a small machine, seven cold Node starts at once
    // take longer than in turn.
    for (const name of SERVICES) {
      const env: Record<string, string> = { LOG_LEVEL: options.logLevel };
      if (name === 'audit') {
        env.DATABASE_URL = this.databaseUrl;
        if (this.postgres) env.DATABASE_POOL_SIZE = '1';
      }
      const service = await this.startService(name, SERVICE_PORTS[name], env);
      options.onProgress(`${name.padEnd(24)} ${service.url}`);
    }
    // The agents' edge: every agent's hooks, each agent with its own token.
    const gateway = await this.startService('gateway', GATEWAY_PORT, { LOG_LEVEL: options.logLevel });
    options.onProgress(`${'gateway'.padEnd(24)} ${gateway.url}/hooks/<agent>`);
    const urlOf = (app: string) => this.processes.find((p) => p.app === app)!.url;
    const consoleApp = await this.startService('console', CONSOLE_PORT, {
      LOG_LEVEL: options.logLevel,
      CONSOLE_GATE_URL: urlOf('gate'),
      CONSOLE_REVIEWER_URL: urlOf('reviewer'),
      // The console shows what the supervisor did (a service that died and was started again).
      CONSOLE_SUPERVISOR_LOG: join(this.logDir, 'supervisor.log'),
    });
    options.onProgress(`${'console'.padEnd(24)} ${consoleApp.url}`);
    // Where this suite runs, for the commands run beside it (`warden operator` finds NATS here).
    const urls = Object.fromEntries(this.processes.map((p) => [`${p.app.replace(/-/g, '_')}_url`, p.url]));
    writeFileSync(join(this.stateDir, 'suite.json'), JSON.stringify({ pid: process.pid, nats_url: this.natsUrl, ...urls }, null, 2));
    this.list(this.nats.port);
  }

  /**
   * An admin for the console and the operator APIs. Created (with a generated password and an API token,
   * both shown once) when the state directory has none; later runs keep it.
   */
  private async ensureAdmin(): Promise<AdminLogin> {
    const bus = await BusConnection.open(this.serviceSettings);
    try {
      const store = new OperatorStore(bus.nc);
      if (await store.get(LOCAL_ADMIN)) return { id: LOCAL_ADMIN, created: false };
      const { password } = await store.add(LOCAL_ADMIN, 'admin', { createdBy: 'warden up' });
      const token = await store.issueToken(LOCAL_ADMIN, { label: 'warden up' });
      return { id: LOCAL_ADMIN, created: true, password, token };
    } finally {
      await bus.close();
    }
  }

  /**
   * Starts one of the suite's processes on its preferred port (a free one when that is taken), kept
   * running: a process that dies is started again and reported (onIncident, and the supervisor's log).
   */
  private async startService(app: string, preferred: number, env: Record<string, string>): Promise<ServiceProcess> {
    const { options } = this;
    const optionsOn = (port: number): ServiceProcessOptions => ({
      app,
      nats: this.serviceSettings,
      partitions: options.partitions,
      port,
      env,
      logFile: join(this.logDir, `${app}.log`),
      ownProcessGroup: true,
      // The decision path first: what watches beside it runs at a lower CPU priority on this machine.
      cpuPriority: true,
    });
    const startOn = async (port: number) => {
      const serviceOptions = optionsOn(port);
      const started = await ServiceProcess.start({ ...serviceOptions, ...(options.signal ? { signal: options.signal } : {}) });
      return { started, serviceOptions };
    };
    const { started: first, serviceOptions } = await onFreePorts(
      async () => startOn(await preferredPort(preferred)),
      async () => startOn(await freePort()),
    );
    this.supervised.push(new SupervisedService(first, serviceOptions, (message) => this.incident(message)));
    return first;
  }

  private incident(message: string): void {
    appendFileSync(join(this.logDir, 'supervisor.log'), `${JSON.stringify({ time: new Date().toISOString(), msg: message })}\n`);
    this.options.onIncident?.(message);
  }

  /** Ends every process at once (SIGKILL), without waiting. */
  killNow(): void {
    for (const service of this.supervised) service.killNow();
    this.nats?.killNow();
  }

  /** Stops the services, then the database and NATS; this process is listed as running no more. */
  async stop(): Promise<void> {
    await Promise.all(this.supervised.map((s) => s.stop()));
    await this.postgres?.stop();
    await this.nats?.stop();
    new RunningSuites().remove(process.pid);
  }
}
