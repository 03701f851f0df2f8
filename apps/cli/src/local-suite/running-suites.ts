import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';

/** What a running `warden up` says about itself, in its state directory and in this machine's list. */
export interface RunningSuite {
  pid: number;
  state_dir: string;
  nats_port: number;
  started_at: string;
}

/** Where the suites running on this machine are listed: one file per `warden up` process, removed when it stops. */
export function runningSuitesDir(): string {
  return join(process.env.XDG_RUNTIME_DIR || tmpdir(), `warden-suites-${userInfo().uid}`);
}

/** Whether `pid` is a live process that still runs Warden (a pid reused by another program does not count). */
function isWarden(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('warden');
  } catch {
    // No /proc (macOS): the pid is alive, which is as much as can be told.
    return true;
  }
}

/**
 * The list of suites running on this machine, so that a second `warden up` can say which one holds its
 * state directory or its NATS port instead of half-starting beside it. Entries of processes that died
 * without removing theirs (a SIGKILL) are dropped when read.
 */
export class RunningSuites {
  constructor(private readonly dir = runningSuitesDir()) {}

  list(): RunningSuite[] {
    let names: string[];
    try {
      names = readdirSync(this.dir).filter((name) => name.endsWith('.json'));
    } catch {
      return [];
    }
    const live: RunningSuite[] = [];
    for (const name of names) {
      const path = join(this.dir, name);
      let entry: RunningSuite;
      try {
        entry = JSON.parse(readFileSync(path, 'utf8')) as RunningSuite;
      } catch {
        rmSync(path, { force: true });
        continue;
      }
      if (entry.pid !== process.pid && isWarden(entry.pid)) live.push(entry);
      else if (entry.pid !== process.pid) rmSync(path, { force: true });
    }
    return live;
  }

  /** The running suite that this one would collide with (same state directory, or the NATS port it wants), if any. */
  conflict(stateDir: string, natsPort: number): RunningSuite | undefined {
    return this.list().find((suite) => suite.state_dir === stateDir || suite.nats_port === natsPort);
  }

  add(suite: RunningSuite): void {
    mkdirSync(this.dir, { recursive: true, mode: 0o700 });
    writeFileSync(join(this.dir, `${suite.pid}.json`), JSON.stringify(suite));
  }

  remove(pid: number): void {
    rmSync(join(this.dir, `${pid}.json`), { force: true });
  }
}
