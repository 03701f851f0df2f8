import { execFile } from 'node:child_process';
import { chownSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { freePort } from '@warden/local-runtime';
import { postgresBinDir } from './system-binaries.js';

const run = promisify(execFile);
const isRoot = process.getuid?.() === 0;

/** initdb and the server refuse to run as root; as root they run as the postgres user. */
async function asPostgres(binary: string, args: string[]): Promise<void> {
  if (isRoot) await run('runuser', ['-u', 'postgres', '--', binary, ...args]);
  else await run(binary, args);
}

/**
 * A real PostgreSQL cluster in a temporary directory on a random loopback port. Commits are durable
 * across a crash of the server (`stop` is an immediate, crash-like shutdown); only fsync is off, which
 * matters for power loss, not for tests. `stop` + `start` keep the data; `destroy` removes it.
 */
export class TestPostgres {
  private constructor(
    readonly dir: string,
    readonly port: number,
    private readonly bin: string,
  ) {}

  static async start(): Promise<TestPostgres> {
    const bin = postgresBinDir();
    const dir = mkdtempSync(join(tmpdir(), 'warden-pg-'));
    if (isRoot) {
      const { stdout } = await run('id', ['-u', 'postgres']);
      const { stdout: gid } = await run('id', ['-g', 'postgres']);
      chownSync(dir, Number(stdout.trim()), Number(gid.trim()));
    }
    const server = new TestPostgres(dir, await freePort(), bin);
    await asPostgres(join(bin, 'initdb'), ['-D', server.dataDir, '-U', 'postgres', '-A', 'trust', '--no-sync', '-E', 'UTF8']);
    await server.start();
    return server;
  }

  get dataDir(): string {
    return join(this.dir, 'data');
  }

  /** URL of a database on this cluster (default `postgres`). */
  url(database = 'postgres'): string {
    return `postgres://postgres@127.0.0.1:${this.port}/${database}`;
  }

  async start(): Promise<void> {
    const options = `-p ${this.port} -k ${this.dir} -c listen_addresses=127.0.0.1 -c fsync=off -c full_page_writes=off`;
    await asPostgres(join(this.bin, 'pg_ctl'), ['-D', this.dataDir, '-o', options, '-l', join(this.dir, 'server.log'), '-w', '-t', '30', 'start']);
  }

  /** Stops the server at once (connections are cut), keeping the data. */
  async stop(): Promise<void> {
    await asPostgres(join(this.bin, 'pg_ctl'), ['-D', this.dataDir, '-m', 'immediate', '-w', 'stop']).catch(() => undefined);
  }

  /** A fresh, empty database; returns its URL. */
  async createDatabase(name: string): Promise<string> {
    const client = new pg.Client({ connectionString: this.url() });
    await client.connect();
    try {
      await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      await client.query(`CREATE DATABASE "${name}"`);
    } finally {
      await client.end();
    }
    return this.url(name);
  }

  async destroy(): Promise<void> {
    await this.stop();
    rmSync(this.dir, { recursive: true, force: true });
  }
}
