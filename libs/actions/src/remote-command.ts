/**
 * Commands that run on another machine: `ssh host 'cmd'`, `docker exec ctr cmd`, `docker compose exec svc cmd`,
 * `kubectl exec pod -- cmd`, `lxc exec ctr -- cmd`. What they run is a command on THAT host, container or pod:
 * its paths are that machine's, not this one's, and "outside the project" or "reboots your machine" are not
 * said of it. What destroys there is still judged (rm -rf / is rm -rf / wherever it runs).
 *
 * One reading for the reviewer (which reviews the remote command as a command of its own, on that host) and
 * the pattern detector (whose scope is this machine's files).
 */

/** Where a remote command runs, and what it runs there. */
export interface RemoteCommand {
  /** The host, container, service or pod, as written (`root@router`, `web`, `api-7d9f`). */
  host: string;
  /** What kind of place: another machine over ssh, a container, or a Kubernetes pod. */
  kind: 'ssh' | 'container' | 'pod';
  /**
   * The command's words. ssh hands its words to the remote shell joined by spaces (`ssh h "rm x"` and
   * `ssh h rm x` are the same), so for ssh there is one word: the shell text. A container or pod runs its
   * words as they are, without a shell.
   */
  argv: string[];
  /** True when `argv` is one shell text (ssh). */
  shell: boolean;
  /** How it was reached, for reasons: `ssh root@router`, `docker exec web`, `kubectl exec api`. */
  via: string;
}

/** ssh options that take a value. */
const SSH_VALUED = /^-[bcDEeFIiJLlmOopQRSWwB]$/;
/** docker/podman exec options that take a value. */
const EXEC_VALUED = /^-[euw]$|^--(?:env|env-file|user|workdir|detach-keys)$/;
/** docker compose options (before the subcommand) that take a value. */
const COMPOSE_GLOBAL_VALUED = /^-[fp]$|^--(?:file|project-name|project-directory|env-file|profile|ansi|parallel|progress)$/;
/** docker compose exec options that take a value. */
const COMPOSE_EXEC_VALUED = /^-[euw]$|^--(?:env|user|workdir|index)$/;
/** kubectl/oc exec options that take a value. */
const KUBE_VALUED = /^-[ncf]$|^--(?:namespace|container|context|cluster|kubeconfig|filename|pod-running-timeout|user|server|token|request-timeout)$/;
/** kubectl/oc options before the subcommand that take a value. */
const KUBE_GLOBAL_VALUED = /^-n$|^--(?:namespace|context|cluster|kubeconfig|user|server|token|request-timeout)$/;

const baseName = (word: string) => word.slice(word.lastIndexOf('/') + 1);

/** Skips options from `i` (those in `valued` take the next word too); returns the first operand's index. */
function skipOptions(argv: readonly string[], i: number, valued: RegExp): number {
  while (i < argv.length && argv[i]!.startsWith('-') && argv[i] !== '--') i += valued.test(argv[i]!) ? 2 : 1;
  return i;
}

function ssh(argv: readonly string[]): RemoteCommand | undefined {
  const at = skipOptions(argv, 1, SSH_VALUED);
  const host = argv[at];
  const rest = argv.slice(at + 1);
  if (!host || !rest.length) return undefined;
  return { host, kind: 'ssh', argv: [rest.join(' ')], shell: true, via: `ssh ${host}` };
}

/** `docker exec [options] ctr cmd…` (also `docker container exec`, podman, nerdctl). */
function containerExec(argv: readonly string[], program: string, from: number): RemoteCommand | undefined {
  const at = skipOptions(argv, from, EXEC_VALUED);
  const host = argv[at];
  const rest = argv.slice(at + 1);
  if (!host || !rest.length) return undefined;
  return { host, kind: 'container', argv: rest, shell: false, via: `${program} exec ${host}` };
}

/** `docker compose [global options] exec [options] service cmd…` and `docker-compose exec …`. */
function composeExec(argv: readonly string[], from: number, program: string): RemoteCommand | undefined {
  let i = skipOptions(argv, from, COMPOSE_GLOBAL_VALUED);
  if (argv[i] !== 'exec') return undefined;
  i = skipOptions(argv, i + 1, COMPOSE_EXEC_VALUED);
  const host = argv[i];
  const rest = argv.slice(i + 1);
  if (!host || !rest.length) return undefined;
  return { host, kind: 'container', argv: rest, shell: false, via: `${program} exec ${host}` };
}

/** `kubectl exec [options] pod [-c ctr] -- cmd…` (the old form without `--` too), and OpenShift's `oc`. */
function kubeExec(argv: readonly string[], program: string): RemoteCommand | undefined {
  let i = skipOptions(argv, 1, KUBE_GLOBAL_VALUED);
  if (argv[i] !== 'exec') return undefined;
  i++;
  let host: string | undefined;
  while (i < argv.length && argv[i] !== '--') {
    const word = argv[i]!;
    if (word.startsWith('-')) i += KUBE_VALUED.test(word) ? 2 : 1;
    else if (host === undefined) {
      host = word;
      i++;
    } else break;
  }
  if (argv[i] === '--') i++;
  const rest = argv.slice(i);
  if (!host || !rest.length) return undefined;
  return { host, kind: 'pod', argv: rest, shell: false, via: `${program} exec ${host}` };
}

/** `lxc exec ctr [--] cmd…` (and incus). */
function lxcExec(argv: readonly string[], program: string): RemoteCommand | undefined {
  if (argv[1] !== 'exec') return undefined;
  let i = skipOptions(argv, 2, /^--(?:env|user|group|cwd|mode)$/);
  const host = argv[i];
  i++;
  i = skipOptions(argv, i, /^--(?:env|user|group|cwd|mode)$/);
  if (argv[i] === '--') i++;
  const rest = argv.slice(i);
  if (!host || !rest.length) return undefined;
  return { host, kind: 'container', argv: rest, shell: false, via: `${program} exec ${host}` };
}

const CONTAINER_TOOLS = new Set(['docker', 'podman', 'nerdctl']);

/**
 * The command a command line's words run on another machine, container or pod, or undefined when they run
 * nothing there (a login shell `ssh host`, `docker ps`). `argv[0]` is the program (wrappers such as sudo
 * already looked through).
 */
export function remoteCommand(argv: readonly string[]): RemoteCommand | undefined {
  const program = baseName(argv[0] ?? '');
  if (program === 'ssh') return ssh(argv);
  if (CONTAINER_TOOLS.has(program)) {
    const at = skipOptions(argv, 1, /^-[cHl]$|^--(?:context|host|config|log-level)$/);
    const sub = argv[at];
    if (sub === 'exec') return containerExec(argv, program, at + 1);
    if (sub === 'container' && argv[at + 1] === 'exec') return containerExec(argv, program, at + 2);
    if (sub === 'compose') return composeExec(argv, at + 1, `${program} compose`);
    return undefined;
  }
  if (program === 'docker-compose' || program === 'podman-compose') return composeExec(argv, 1, program);
  if (program === 'kubectl' || program === 'oc') return kubeExec(argv, program);
  if (program === 'lxc' || program === 'incus') return lxcExec(argv, program);
  return undefined;
}

/** A word as the shell would need it written to stay one word. */
export function shellQuote(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

/** The remote command as one shell text (a container's words quoted so that each stays one word). */
export function remoteShellText(remote: RemoteCommand): string {
  return remote.shell ? remote.argv[0]! : remote.argv.map(shellQuote).join(' ');
}
