import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { NatsSettings } from '@warden/messaging';
import { freePort, waitUntil } from './free-port.js';

export const WORKSPACE_ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');

export interface ServiceProcessOptions {
  /** App folder under apps/, e.g. `reviewer`. */
  app: string;
  nats: NatsSettings;
  partitions: number;
  env?: Record<string, string>;
  readyTimeoutMs?: number;
}

/**
 * A built service running as its own process, the way it is deployed. `kill` ends it with SIGKILL (no
 * cleanup at all), `stop` with SIGTERM (graceful: drain, hand partitions over).
 */
export class ServiceProcess {
  private output = '';

  private constructor(
    readonly app: string,
    readonly port: number,
    private readonly child: ChildProcess,
  ) {
    const append = (chunk: Buffer) => {
      this.output = (this.output + chunk.toString()).slice(-200_000);
    };
    child.stdout!.on('data', append);
    child.stderr!.on('data', append);
  }

  static async start(options: ServiceProcessOptions): Promise<ServiceProcess> {
    const main = join(WORKSPACE_ROOT, 'apps', options.app, 'dist', 'main.js');
    if (!existsSync(main)) throw new Error(`${main} is missing: build it first (nx run ${options.app}:build)`);
    const port = await freePort();
    const child = spawn(process.execPath, [main], {
      cwd: WORKSPACE_ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: {
        ...process.env,
        NODE_ENV: 'test',
        NATS_URL: options.nats.servers,
        NATS_USER: options.nats.user ?? '',
        NATS_PASSWORD: options.nats.password ?? '',
        WARDEN_PARTITIONS: String(options.partitions),
        HTTP_HOST: '127.0.0.1',
        HTTP_PORT: String(port),
        LOG_LEVEL: 'debug',
        ...options.env,
      },
    });
    const service = new ServiceProcess(options.app, port, child);
    const exited = new Promise<never>((_, reject) =>
      child.once('exit', (code) => reject(new Error(`${options.app} exited with ${code}:\n${service.output.slice(-5000)}`))),
    );
    exited.catch(() => undefined);
    await Promise.race([
      waitUntil(async () => (await fetch(`${service.url}/health/ready`)).ok, options.readyTimeoutMs ?? 20_000, `${options.app} to be ready`, 100),
      exited,
    ]);
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

  kill(): Promise<void> {
    return this.signal('SIGKILL');
  }

  stop(): Promise<void> {
    return this.signal('SIGTERM');
  }

  private async signal(signal: NodeJS.Signals): Promise<void> {
    if (!this.running) return;
    const exited = new Promise((resolve) => this.child.once('exit', resolve));
    this.child.kill(signal);
    await exited;
  }
}
