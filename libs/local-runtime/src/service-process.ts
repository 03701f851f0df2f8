import type { ChildProcess } from 'node:child_process';
import { createWriteStream, existsSync, type WriteStream } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { NatsSettings } from '@warden/messaging';
import { applyCpuPriority, cpuPriorityOf } from './cpu-priority.js';
import { freePort, waitUntil } from './free-port.js';
import { nodeOptionsOf } from './node-options.js';
import { EXIT_WITH_PARENT_ENV, spawnTied } from './tied-spawn.js';

/** The repository root (this file is libs/local-runtime/{src,dist}/service-process.*). */
export const WORKSPACE_ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');

export interface ServiceProcessOptions {
  /** App folder under apps/, e.g. `reviewer`. */
  app: string;
  /** The script to run instead of the app's `dist/main.js`: a test's own entry point of the built app. */
  script?: string;
  nats: NatsSettings;
  partitions: number;
  /** HTTP port; a free one when omitted. */
  port?: number;
  env?: Record<string, string>;
  /** Also append the process output to this file. */
  logFile?: string;
  readyTimeoutMs?: number;
  /**
   * Run in a process group of its own, so that a Ctrl-C in the terminal reaches only the supervisor,
   * which then stops its children in order.
   */
  ownProcessGroup?: boolean;
  /** Options for the Node runtime itself, before the script (e.g. `--cpu-prof` for a profile), after the app's own (`nodeOptionsOf`). */
  nodeArgs?: string[];
  /** Stops the start: the process is ended and `start` rejects with an AbortError. */
  signal?: AbortSignal;
  /**
   * Once ready, run at the app's CPU priority (`cpuPriorityOf`): a background service yields the CPU to
   * the decision path. What a whole suite on one machine does (`warden up`, the benchmark); it starts at
   * the normal priority, so a busy machine does not slow its start.
   */
  cpuPriority?: boolean;
}

/**
 * A built service running as its own process, the way it is deployed. Resolves from `start` once its
 * readiness endpoint answers 200. `kill` ends it with SIGKILL (no cleanup at all), `stop` with SIGTERM
 * (graceful: drain, hand partitions over). It ends with the process that started it, however that one
 * ends (spawnTied, and its stdin held here).
 */
export class ServiceProcess {
  private output = '';
  private readonly exited: Promise<number | null>;

  private constructor(
    readonly app: string,
    readonly port: number,
    private readonly child: ChildProcess,
    logStream: WriteStream | undefined,
  ) {
    const append = (chunk: Buffer) => {
      this.output = (this.output + chunk.toString()).slice(-200_000);
      logStream?.write(chunk);
    };
    child.stdout!.on('data', append);
    child.stderr!.on('data', append);
    this.exited = new Promise((resolve) => child.once('exit', (code) => resolve(code)));
    // Output can still arrive after 'exit'; 'close' comes once the pipes are drained too.
    child.once('close', () => logStream?.end());
  }

  static async start(options: ServiceProcessOptions): Promise<ServiceProcess> {
    const main = options.script ?? join(WORKSPACE_ROOT, 'apps', options.app, 'dist', 'main.js');
    if (!existsSync(main)) throw new Error(`${main} is missing: build it first (npx nx run ${options.app}:build)`);
    const port = options.port ?? (await freePort());
    options.signal?.throwIfAborted();
    const child = spawnTied(process.execPath, [...nodeOptionsOf(WORKSPACE_ROOT, options.app), ...(options.nodeArgs ?? []), main], {
      cwd: WORKSPACE_ROOT,
      stdio: ['pipe', 'pipe', 'pipe'],
      detached: options.ownProcessGroup ?? false,
      env: {
        ...process.env,
        ...EXIT_WITH_PARENT_ENV,
        NATS_URL: options.nats.servers,
        NATS_USER: options.nats.user ?? '',
        NATS_PASSWORD: options.nats.password ?? '',
        WARDEN_PARTITIONS: String(options.partitions),
        HTTP_HOST: '127.0.0.1',
        HTTP_PORT: String(port),
        ...options.env,
      },
    });
    const logStream = options.logFile ? createWriteStream(options.logFile, { flags: 'a' }) : undefined;
    const service = new ServiceProcess(options.app, port, child, logStream);
    const died = service.exited.then((code) => {
      throw new Error(`${options.app} exited with ${code} before it was ready:\n${service.output.slice(-5000)}`);
    });
    died.catch(() => undefined);
    let callOff = () => undefined as void;
    const aborted = new Promise<never>((_, reject) => {
      callOff = () => void service.stop().finally(() => reject(options.signal!.reason));
      options.signal?.addEventListener('abort', callOff, { once: true });
    });
    aborted.catch(() => undefined);
    try {
      await Promise.race([
        waitUntil(async () => (await fetch(`${service.url}/health/ready`)).ok, options.readyTimeoutMs ?? 30_000, `${options.app} to be ready`, 100),
        died,
        aborted,
      ]);
    } catch (error) {
      // Not ready in time, or the start was called off: nothing of it stays behind.
      await service.stop();
      throw error;
    } finally {
      // One signal serves a whole suite's starts: each start takes its listener off again.
      options.signal?.removeEventListener('abort', callOff);
    }
    if (options.cpuPriority && child.pid !== undefined) applyCpuPriority(child.pid, cpuPriorityOf(WORKSPACE_ROOT, options.app));
    return service;
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  /** Everything the process wrote (JSON log lines). */
  get logs(): string {
    return this.output;
  }

  get running(): boolean {
    return this.child.exitCode === null && this.child.signalCode === null;
  }

  /** Resolves with the exit code when the process ends. */
  whenExited(): Promise<number | null> {
    return this.exited;
  }

  kill(): Promise<void> {
    return this.signal('SIGKILL');
  }

  /** SIGKILL without waiting: usable in a process 'exit' handler, where nothing can be awaited. */
  killNow(): void {
    if (this.running) this.child.kill('SIGKILL');
  }

  stop(): Promise<void> {
    return this.signal('SIGTERM');
  }

  private async signal(signal: NodeJS.Signals): Promise<void> {
    if (!this.running) return;
    this.child.kill(signal);
    await this.exited;
  }
}
