import type { ChildProcess } from 'node:child_process';
import { createWriteStream, existsSync, type WriteStream } from 'node:fs';
import { connect as netConnect } from 'node:net';
import { delimiter, join } from 'node:path';
import { waitUntil } from './free-port.js';
import { spawnTied } from './tied-spawn.js';

/** The nats-server binary, or an error that says how to install it. */
export function natsServerBinary(): string {
  const onPath = (process.env.PATH ?? '')
    .split(delimiter)
    .map((dir) => join(dir, 'nats-server'))
    .find(existsSync);
  const found = process.env.NATS_SERVER_BIN ?? onPath ?? ['/usr/sbin/nats-server', '/usr/bin/nats-server'].find(existsSync);
  if (!found) {
    throw new Error('nats-server is not installed: run `apt-get install -y nats-server` (Debian, as root) or set NATS_SERVER_BIN');
  }
  return found;
}

export function portAccepts(port: number, host = '127.0.0.1'): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = netConnect(port, host);
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

export interface NatsServerProcessOptions {
  configPath: string;
  port: number;
  /** Also append the server's output to this file. */
  logFile?: string;
  /** Run in a process group of its own (see ServiceProcessOptions.ownProcessGroup). */
  ownProcessGroup?: boolean;
  /** The server's environment (where it reads `$NAME` configuration values) [this process's]. */
  env?: NodeJS.ProcessEnv;
}

/**
 * A nats-server process started from a configuration file. `kill` ends it abruptly (the store stays),
 * `start` runs it again, `stop` ends it gracefully. It ends with the process that started it (spawnTied).
 */
export class NatsServerProcess {
  private child?: ChildProcess;
  private output = '';
  private logStream?: WriteStream;

  constructor(private readonly options: NatsServerProcessOptions) {}

  get port(): number {
    return this.options.port;
  }

  get log(): string {
    return this.output;
  }

  get pid(): number | undefined {
    return this.child?.pid;
  }

  async start(): Promise<void> {
    this.output = '';
    this.logStream ??= this.options.logFile ? createWriteStream(this.options.logFile, { flags: 'a' }) : undefined;
    const child = spawnTied(natsServerBinary(), ['-c', this.options.configPath], {
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: this.options.ownProcessGroup ?? false,
      env: this.options.env ?? process.env,
    });
    this.child = child;
    const append = (chunk: Buffer) => {
      this.output = (this.output + chunk.toString()).slice(-50_000);
      this.logStream?.write(chunk);
    };
    child.stdout!.on('data', append);
    child.stderr!.on('data', append);
    const exited = new Promise<never>((_, reject) =>
      child.once('exit', (code) => reject(new Error(`nats-server exited with ${code}:\n${this.output.slice(-3000)}`))),
    );
    exited.catch(() => undefined);
    const ended = () => child.exitCode !== null || child.signalCode !== null;
    try {
      await Promise.race([
        // Ends its polling once the server has ended: `exited` says why.
        waitUntil(async () => ended() || (this.output.includes('Server is ready') && (await portAccepts(this.options.port))), 15_000, `nats-server on port ${this.options.port}`),
        exited,
      ]);
    } catch (error) {
      if (ended()) {
        this.logStream?.end();
        this.logStream = undefined;
      }
      throw error;
    }
  }

  kill(): Promise<void> {
    return this.signal('SIGKILL');
  }

  /** SIGKILL without waiting: usable in a process 'exit' handler, where nothing can be awaited. */
  killNow(): void {
    const child = this.child;
    if (child && child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  }

  async stop(): Promise<void> {
    await this.signal('SIGTERM');
    this.logStream?.end();
    this.logStream = undefined;
  }

  private async signal(signal: NodeJS.Signals): Promise<void> {
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill(signal);
    await exited;
  }
}
