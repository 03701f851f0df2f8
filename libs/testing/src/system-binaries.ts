import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

/** The directory with initdb and pg_ctl of the newest PostgreSQL installed, or an error that says how to install it. */
export function postgresBinDir(): string {
  if (process.env.PG_BIN_DIR) return process.env.PG_BIN_DIR;
  const root = '/usr/lib/postgresql';
  const versions = existsSync(root)
    ? readdirSync(root)
        .filter((v) => existsSync(join(root, v, 'bin', 'initdb')))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  if (!versions.length) throw new Error('PostgreSQL is not installed: run `apt-get install -y postgresql` (Debian) or set PG_BIN_DIR');
  return join(root, versions[0]!, 'bin');
}
