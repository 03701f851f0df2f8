import { existsSync, readdirSync } from 'node:fs';
import { delimiter, join } from 'node:path';

function onPath(name: string): string | undefined {
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    const candidate = join(dir, name);
    if (existsSync(candidate)) return candidate;
  }
  return undefined;
}

/** The nats-server binary, or an error that says how to install it. */
export function natsServerBinary(): string {
  const found = process.env.NATS_SERVER_BIN ?? onPath('nats-server') ?? ['/usr/sbin/nats-server', '/usr/bin/nats-server'].find(existsSync);
  if (!found) throw new Error('nats-server is not installed: run `apt-get install -y nats-server` (Debian) or set NATS_SERVER_BIN');
  return found;
}

/** The directory with initdb and pg_ctl of the newest PostgreSQL installed, or an error that says how to install it. */
export function postgresBinDir(): string {
  if (process.env.PG_BIN_DIR) return process.env.PG_BIN_DIR;
  const root = '/usr/lib/postgresql';
  const versions = existsSync(root)
    ? readdirSync(root)
        .filter((v) => existsSync(join(root, v, 'bin', 'initdb')))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  if (versions.length) return join(root, versions[0]!, 'bin');
  const initdb = onPath('initdb');
  if (initdb) return join(initdb, '..');
  throw new Error('PostgreSQL is not installed: run `apt-get install -y postgresql` (Debian) or set PG_BIN_DIR');
}
