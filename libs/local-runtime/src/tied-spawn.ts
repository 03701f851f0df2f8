import { spawn, type ChildProcess, type SpawnOptions } from 'node:child_process';
import { existsSync } from 'node:fs';

/** util-linux's setpriv, which sets the parent-death signal before it runs the command (Linux only). */
const SETPRIV = ['/usr/bin/setpriv', '/bin/setpriv'].find((path) => process.platform === 'linux' && existsSync(path));

/** Tells a Warden service that its stdin is held by the process that started it (see runMain). */
export const EXIT_WITH_PARENT_ENV = { WARDEN_EXIT_WITH_PARENT: 'stdin' } as const;

/**
 * Starts a child process that ends when this one ends, however it ends (a SIGKILL included, when no
 * exit handler runs). On Linux the kernel sends the child SIGTERM when this process dies (the
 * parent-death signal, set by `setpriv --pdeathsig`, which then runs the command in its place: the pid is
 * the command's). A Warden service started with EXIT_WITH_PARENT_ENV and a piped stdin also stops when
 * that pipe closes, on every platform.
 */
export function spawnTied(command: string, args: readonly string[], options: SpawnOptions): ChildProcess {
  if (!SETPRIV) return spawn(command, args, options);
  return spawn(SETPRIV, ['--pdeathsig', 'TERM', '--', command, ...args], options);
}
