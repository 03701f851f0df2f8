import { remoteCommand, remoteShellText } from '@warden/actions';
import { runnerCommands } from './command-runners.js';
import { inlineCodeCommands } from './inline-code.js';

/**
 * Wrappers: programs that run the command written after them. Each entry lists the options that take a
 * value (so the value is not taken for the command) and how many operands come before the command.
 */
interface WrapperSpec {
  valued: RegExp;
  operands?: number;
  /** It raises privileges (sudo, doas, chroot). */
  privileged?: boolean;
}

const WRAPPER_TABLE: Record<string, WrapperSpec> = {
  sudo: { valued: /^-[ugCDhprtTUc]$|^--(?:user|group|close-from|chdir|host|prompt|role|type|other-user|command-timeout)$/, privileged: true },
  doas: { valued: /^-[uC]$/, privileged: true },
  nohup: { valued: /^$/ },
  time: { valued: /^-[fo]$/ },
  nice: { valued: /^-n$|^--adjustment$/ },
  ionice: { valued: /^-[cnpPu]$|^--(?:class|classdata|pid|pgid|uid)$/ },
  stdbuf: { valued: /^-[ioe]$/ },
  timeout: { valued: /^-[sk]$|^--(?:signal|kill-after)$/, operands: 1 },
  chroot: { valued: /^--(?:userspec|groups)$/, operands: 1, privileged: true },
  setsid: { valued: /^$/ },
  unbuffer: { valued: /^$/ },
  caffeinate: { valued: /^-[tw]$/ },
  flock: { valued: /^-[wEc]$|^--(?:timeout|conflict-exit-code)$/, operands: 1 },
  taskset: { valued: /^$/, operands: 1 },
  chrt: { valued: /^$/, operands: 1 },
  numactl: { valued: /^-[CNmMip]$/ },
  prlimit: { valued: /^--pid$/ },
  firejail: { valued: /^$/ },
  proxychains: { valued: /^-f$/ },
  proxychains4: { valued: /^-f$/ },
  torsocks: { valued: /^$/ },
  sshpass: { valued: /^-[pfdP]$/ },
  'xvfb-run': { valued: /^-[sfnpe]$/ },
  builtin: { valued: /^$/ },
  exec: { valued: /^-a$/ },
  busybox: { valued: /^$/ },
  strace: { valued: /^-[eopsuE]$/ },
  ltrace: { valued: /^-[eopsuE]$/ },
  dbus_launch: { valued: /^$/ },
  // macOS: `arch -arm64 cmd`, `arch -arch x86_64 cmd`.
  arch: { valued: /^-(?:arch|e)$/ },
  unshare: { valued: /^-[SGRw]$|^--(?:setuid|setgid|root|wd)$/ },
};
/** By program name, own entries only (asked of every command of a line: a Map answers faster than a record's own-key test). */
const WRAPPERS: ReadonlyMap<string, WrapperSpec> = new Map(Object.entries(WRAPPER_TABLE));

export const SHELLS: ReadonlySet<string> = new Set(['sh', 'bash', 'zsh', 'dash', 'ksh', 'ash', 'mksh', 'fish', 'busybox-sh']);
const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*=/;

export function basename(path: string): string {
  // Called for every segment by most rules: a loop over char codes avoids lastIndexOf's runtime call.
  for (let i = path.length - 1; i >= 0; i--) if (path.charCodeAt(i) === 47) return path.slice(i + 1);
  return path;
}

/**
 * GNU tools as Homebrew installs them on macOS, with a g in front (`gsed`, `grm`, `gtimeout`, `gtee`): the
 * same programs as without it. Only names whose g-less form is the GNU tool (gzip is not g+zip).
 */
const GNU_PREFIXED: ReadonlySet<string> = new Set(
  [
    'cp', 'mv', 'rm', 'ln', 'mkdir', 'rmdir', 'touch', 'chmod', 'chown', 'chgrp', 'dd', 'shred', 'truncate', 'install', 'tee', 'cat', 'head',
    'tail', 'ls', 'stat', 'du', 'df', 'sort', 'uniq', 'cut', 'tr', 'wc', 'env', 'timeout', 'nohup', 'nice', 'stdbuf', 'split', 'base64',
    'sha256sum', 'md5sum', 'readlink', 'realpath', 'date', 'mktemp', 'unlink', 'tac', 'nl', 'od', 'paste', 'join', 'comm', 'basename',
    'dirname', 'printf', 'echo', 'sync', 'chroot', 'find', 'xargs', 'sed', 'grep', 'egrep', 'fgrep', 'tar', 'awk', 'make', 'patch',
  ].map((name) => `g${name}`),
);

/** The program a word names: its base name, a Homebrew `g` of a GNU tool left out. */
function programName(word: string): string {
  const name = basename(word);
  return name.charCodeAt(0) === 103 && GNU_PREFIXED.has(name) ? name.slice(1) : name;
}

/** One command after its wrappers, and code it runs that Warden can read (shell -c, eval, xargs, find -exec …). */
export interface UnwrappedCommand {
  argv: string[];
  /** The program that runs: the base name of `argv[0]`, '' for none. */
  name: string;
  dynamic: boolean[];
  privileged: boolean;
  /** Wrappers looked through, outermost first. */
  wrappers: string[];
  /** A directory `env -C` moved to. */
  cwd?: string;
  /** Text it reads as code, and how it gets it. */
  code: { text: string; via: string; remoteHost?: string }[];
  /** Commands it runs built from its own words (`find -exec rm {} ;`, `xargs rm`), already split into words. */
  commands: { argv: string[]; dynamic: boolean[]; via: string }[];
  /** It runs code Warden cannot read here (`bash script.sh` is fine: a file; `… | bash` from an unknown source is not). */
  opaque?: string;
  /** It only describes a command (`command -v rm`), without running it. */
  query?: boolean;
}

/**
 * What most commands have none of (wrappers, code, derived commands): one frozen list each instead of three
 * empty ones per command, replaced by a list of its own at the first entry.
 */
const NO_WRAPPERS = Object.freeze([]) as unknown as string[];
const NO_CODE = Object.freeze([]) as unknown as UnwrappedCommand['code'];
const NO_COMMANDS = Object.freeze([]) as unknown as UnwrappedCommand['commands'];

function wrappersOf(result: UnwrappedCommand): string[] {
  return result.wrappers === NO_WRAPPERS ? (result.wrappers = []) : result.wrappers;
}

function codeOf(result: UnwrappedCommand): UnwrappedCommand['code'] {
  return result.code === NO_CODE ? (result.code = []) : result.code;
}

function commandsOf(result: UnwrappedCommand): UnwrappedCommand['commands'] {
  return result.commands === NO_COMMANDS ? (result.commands = []) : result.commands;
}

/** Looks through `sudo`, `env`, `nohup`, `timeout` … to the command that runs. The result may share the arrays given. */
export function unwrap(words: string[], dynamicWords: boolean[], input: string | undefined, pipedFrom: boolean): UnwrappedCommand {
  let argv = words;
  let dynamic = dynamicWords;
  const result: UnwrappedCommand = { argv, name: '', dynamic, privileged: false, wrappers: NO_WRAPPERS, code: NO_CODE, commands: NO_COMMANDS };
  function shift(n: number): void {
    argv = argv.slice(n);
    dynamic = dynamic.slice(n);
  }
  // The last word looked at as a program, and its base name: most commands have no wrapper, and that word is the program.
  let looked: string | undefined;
  let lookedName = '';
  for (let guard = 0; guard < 16 && argv.length; guard++) {
    const first = argv[0]!;
    if (first.includes('=') && ASSIGNMENT.test(first)) {
      shift(1);
      continue;
    }
    const head = programName(first);
    looked = first;
    lookedName = head;
    if (head === 'env') {
      wrappersOf(result).push('env');
      shift(1);
      while (argv.length) {
        const a = argv[0]!;
        if (a === '--') {
          shift(1);
          break;
        }
        if (/^-[uCPS]$|^--(?:unset|chdir|split-string)$/.test(a)) {
          if (a === '-C' || a === '--chdir') result.cwd = argv[1];
          if (a === '-S' || a === '--split-string') {
            const split = (argv[1] ?? '').split(/\s+/).filter(Boolean);
            argv = [...split, ...argv.slice(2)];
            dynamic = [...split.map(() => false), ...dynamic.slice(2)];
            continue;
          }
          shift(2);
        } else if (/^-S./.test(a) || /^--split-string=/.test(a)) {
          const split = a.replace(/^-S|^--split-string=/, '').split(/\s+/).filter(Boolean);
          argv = [...split, ...argv.slice(1)];
          dynamic = [...split.map(() => false), ...dynamic.slice(1)];
        } else if (a.startsWith('-') || ASSIGNMENT.test(a)) {
          if (/^-C./.test(a)) result.cwd = a.slice(2);
          if (a.startsWith('--chdir=')) result.cwd = a.slice('--chdir='.length);
          shift(1);
        } else break;
      }
      continue;
    }
    if (head === 'command') {
      shift(1);
      const options: string[] = [];
      while (argv[0]?.startsWith('-') && argv[0] !== '--') {
        options.push(argv[0]);
        shift(1);
      }
      if (argv[0] === '--') shift(1);
      // `command -v rm` says where rm is; it runs nothing.
      if (options.some((o) => /[vV]/.test(o))) return { ...result, argv: ['command', ...options, ...argv], name: 'command', dynamic: [false, ...options.map(() => false), ...dynamic], query: true };
      wrappersOf(result).push('command');
      continue;
    }
    if (head === 'su') {
      const c = argv.findIndex((a) => a === '-c' || a === '--command');
      result.privileged = true;
      if (c > 0 && argv[c + 1] !== undefined) codeOf(result).push({ text: argv[c + 1]!, via: 'su -c' });
      return { ...result, argv: ['su', ...argv.slice(1)], name: 'su', dynamic };
    }
    const spec = WRAPPERS.get(head);
    if (!spec) break;
    wrappersOf(result).push(head);
    if (spec.privileged) result.privileged = true;
    shift(1);
    while (argv.length && argv[0]!.startsWith('-') && argv[0] !== '-') {
      const a = argv[0]!;
      if (a === '--') {
        shift(1);
        break;
      }
      shift(spec.valued.test(a) ? 2 : 1);
    }
    if (spec.operands) shift(spec.operands);
    if (head === 'flock' && argv[0] === undefined) break;
  }
  result.argv = argv;
  result.name = argv[0] === looked ? lookedName : programName(argv[0] ?? '');
  result.dynamic = dynamic;
  readsCode(result, input, pipedFrom);
  unknownWrapper(result);
  return result;
}

/** Programs whose arguments are data (text, patterns, file names), never a command they run. */
const DATA_ARGUMENTS = new Set([
  'echo', 'printf', 'cat', 'head', 'tail', 'less', 'more', 'wc', 'grep', 'egrep', 'fgrep', 'rg', 'ag', 'ack', 'sed', 'awk', 'sort', 'uniq', 'cut', 'tr',
  'jq', 'yq', 'diff', 'ls', 'stat', 'file', 'test', '[', 'true', 'false', 'man', 'help', 'type', 'which', 'whereis', 'hash', 'tldr', 'info', 'apropos',
  'whatis', 'git', 'npm', 'npx', 'pnpm', 'yarn', 'node', 'python', 'python3', 'touch', 'mkdir', 'cp', 'mv', 'ln', 'tee', 'rm', 'rmdir', 'chmod', 'chown',
  'basename', 'dirname', 'realpath', 'readlink', 'bat', 'tac', 'rev', 'nl', 'column', 'fold', 'od', 'xxd', 'base64', 'md5sum', 'sha256sum', 'export',
  'alias', 'unalias', 'set', 'unset', 'read', 'local', 'declare', 'cd', 'pushd', 'source', '.', 'history', 'say', 'logger', 'notify-send', 'tar', 'zip',
  'unzip', 'gzip', 'curl', 'wget', 'ssh', 'scp', 'rsync', 'find', 'xargs', 'parallel', 'docker', 'kubectl', 'make', 'go', 'cargo', 'code', 'open', 'vim',
]);
/** Commands that destroy when run: after an unknown program, they may be what it runs (`caffeinate rm -rf /`, `mytool git reset --hard`). */
const DESTRUCTIVE_PROGRAMS = new Set(['rm', 'git', 'find', 'dd', 'mkfs', 'shred', 'chmod', 'chown', 'sudo', 'truncate', 'wipefs']);

/**
 * A program Warden does not know, followed by a command that destroys or a shell: it may be a wrapper that
 * runs it, so the rest is reviewed as a command too (a known program's arguments are its data).
 */
function unknownWrapper(result: UnwrappedCommand): void {
  const { argv, name: head } = result;
  if (argv.length < 3) return;
  const next = basename(argv[1]!);
  if (!(DESTRUCTIVE_PROGRAMS.has(next) || SHELLS.has(next)) || DATA_ARGUMENTS.has(head) || SHELLS.has(head) || result.code.length || result.commands.length) return;
  if (inlineCodeCommands(argv, undefined, head) || /^(?:python|node|perl|ruby|php)/.test(head)) return;
  commandsOf(result).push({ argv: argv.slice(1), dynamic: result.dynamic.slice(1), via: `${head} (a program that may run its arguments)` });
}

/** `<(…)` as one word, its command inside. */
const PROCESS_SUBSTITUTION = /^<\(([^]*)\)$/;

/** A script made by printing text (`echo`, `printf`) or by a pipeline (`echo … | base64 -d`): worth reading as piped in. */
const MADE_SCRIPT = /^\s*(?:echo|printf)\b|\|/;

/**
 * `bash <(echo …)`, `source <(echo … | base64 -d)`: the script is what the substitution prints, read as that
 * command piped into the shell, so that what is known of a piped script holds here too. A program's own
 * output (`source <(kubectl completion bash)`, the usual way to load completions) is left as the program's.
 */
function scriptOfSubstitution(result: UnwrappedCommand, index: number, shell: string): void {
  const script = result.dynamic[index] ? PROCESS_SUBSTITUTION.exec(result.argv[index] ?? '')?.[1] : undefined;
  if (script && MADE_SCRIPT.test(script)) codeOf(result).push({ text: `${script} | ${shell}`, via: `${result.name} <(…)` });
}

/** Shells, eval, ssh, watch, xargs, parallel, find -exec and interpreters: the code or commands they run. */
function readsCode(result: UnwrappedCommand, input: string | undefined, pipedFrom: boolean): void {
  const { argv, name: head } = result;
  if (SHELLS.has(head)) {
    let i = 1;
    let command = false;
    let noexec = false;
    while (i < argv.length && argv[i]!.startsWith('-') && argv[i] !== '-') {
      const a = argv[i]!;
      if (a === '--') {
        i++;
        break;
      }
      if (/^-[a-zA-Z]*c[a-zA-Z]*$/.test(a)) command = true;
      if (/^-[a-zA-Z]*n[a-zA-Z]*$/.test(a) || (a === '-o' && argv[i + 1] === 'noexec')) noexec = true;
      i += a === '-o' || a === '+o' || a === '-O' ? 2 : 1;
    }
    // `bash -n` (noexec) reads the script for syntax errors and runs none of it.
    if (noexec) return;
    if (command) {
      if (argv[i] !== undefined) codeOf(result).push({ text: argv[i]!, via: `${head} -c` });
      else if (input !== undefined) codeOf(result).push({ text: input, via: `${head} -c` });
      else if (pipedFrom) result.opaque = `${head} -c runs code from its input`;
    } else if (argv[i] === undefined || argv[i] === '-' || argv[i] === '/dev/stdin') {
      if (input !== undefined) codeOf(result).push({ text: input, via: head });
      else if (pipedFrom) result.opaque = `${head} runs the script piped into it`;
    } else scriptOfSubstitution(result, i, head);
    return;
  }
  commandsInOptions(result);
  switch (head) {
    case 'source':
    case '.':
      return scriptOfSubstitution(result, 1, 'bash');
    case 'eval':
      if (argv.length > 1) codeOf(result).push({ text: argv.slice(1).join(' '), via: 'eval' });
      return;
    case 'trap':
      // `trap 'cmd' EXIT`: the command runs when the shell gets the signal or exits.
      if (argv[1] !== undefined && !argv[1].startsWith('-') && argv.length > 2) codeOf(result).push({ text: argv[1], via: 'trap' });
      return;
    case 'script':
      return scriptCommand(result);
    case 'tmux':
      return tmuxCommand(result);
    case 'watch':
      if (argv.length > 1) codeOf(result).push({ text: argv.slice(1).filter((a) => !a.startsWith('-')).join(' '), via: 'watch' });
      return;
    case 'ssh':
    case 'docker':
    case 'podman':
    case 'nerdctl':
    case 'docker-compose':
    case 'podman-compose':
    case 'kubectl':
    case 'oc':
    case 'lxc':
    case 'incus':
      if (remoteCode(result)) return;
      return inlineCode(result, input);
    case 'xargs':
      return xargs(result, input);
    case 'parallel':
      return parallel(result, input);
    case 'find':
      return findActions(result);
    default:
      if (!runs(result)) inlineCode(result, input);
  }
}

/** What a runner (`npx`, `bundle exec`, `uv run`, `hyperfine` …) runs; false when the program is none. */
function runs(result: UnwrappedCommand): boolean {
  const run = runnerCommands(result.name, result.argv, result.dynamic);
  if (!run) return false;
  if (run.code.length) codeOf(result).push(...run.code);
  if (run.commands.length) commandsOf(result).push(...run.commands);
  return true;
}

/** ssh alone as a transport (`ssh -p 2222`, `ssh -i key -o X=y`, `ssh -W %h:%p bastion`): nothing else on the line. */
const SSH_TRANSPORT = /^\s*(?:\S*\/)?(?:ssh|autossh|sshpass|plink)(?:\s+-[^\s;&|`$()]*(?:\s+[^-\s;&|`$()][^\s;&|`$()]*)?)*\s*(?:%h(?::%p)?\s*)?[^\s;&|`$()]*\s*$/;

/**
 * Options whose value is a command the program runs: ssh's and scp's `-o ProxyCommand=…` (LocalCommand,
 * KnownHostsCommand), rsync's `-e`/`--rsh`, tar's `-I`/`--use-compress-program`, `--to-command`,
 * `--info-script`, `--new-volume-script`, `--checkpoint-action=exec=…`, git's `-c alias.x=!cmd` and
 * `-c core.sshCommand=…`, socat's `EXEC:cmd` and `SYSTEM:cmd` addresses. The command is reviewed as any other; ssh as the transport is not read as a shell.
 */
function commandsInOptions(result: UnwrappedCommand): void {
  const { argv, name: head } = result;
  const runs = (text: string | undefined, option: string) => {
    // The usual value: ssh as the transport (`rsync -e 'ssh -p 2222'`, `ProxyCommand ssh -W %h:%p bastion`), not a shell opened.
    if (text === undefined || !text.trim() || SSH_TRANSPORT.test(text)) return;
    codeOf(result).push({ text, via: `${head} ${option}` });
  };
  if (head === 'ssh' || head === 'scp' || head === 'sftp') {
    for (let i = 1; i < argv.length; i++) {
      const a = argv[i]!;
      // -o Key=value, -oKey=value, and clusters ending in o (`-qvoProxyCommand=…`).
      const m = /^-[a-zA-Z]*?o(.*)$/.exec(a);
      if (!m) continue;
      const setting = m[1] || argv[++i] || '';
      const command = /^(ProxyCommand|LocalCommand|KnownHostsCommand)\s*[= ]\s*(.+)$/i.exec(setting);
      if (command) runs(command[2], command[1]!);
    }
  } else if (head === 'socat') {
    // An address `EXEC:cmd` or `SYSTEM:cmd` runs cmd for the peer; address options follow a comma (`,pty,stderr`).
    for (const a of argv.slice(1)) {
      const address = /^(exec|system):(.+)$/is.exec(a);
      // socat reads `\ ` as a space of the command (`EXEC:'rm\ -rf\ /'`), not as the shell's escape.
      if (address) runs(address[2]!.replace(/(?:,[a-z][\w-]*(?:=[^,]*)?)+$/i, '').replace(/\\ /g, ' '), `${address[1]!.toUpperCase()}:`);
    }
  } else if (head === 'rsync') {
    for (let i = 1; i < argv.length; i++) {
      const a = argv[i]!;
      if (a === '-e' || a === '--rsh') runs(argv[++i], a);
      else if (a.startsWith('--rsh=')) runs(a.slice(6), '--rsh');
      else if (/^-[a-zA-Z]*e$/.test(a) && !a.startsWith('--')) runs(argv[++i], '-e');
    }
  } else if (head === 'tar' || head === 'bsdtar') {
    for (let i = 1; i < argv.length; i++) {
      const a = argv[i]!;
      if (/^-[a-zA-Z]*I$/.test(a) || a === '--use-compress-program' || a === '--to-command' || a === '--info-script' || a === '--new-volume-script') runs(argv[++i], a);
      const attached = /^--(use-compress-program|to-command|info-script|new-volume-script)=(.+)$/.exec(a) ?? /^-(I)(.+)$/.exec(a);
      if (attached) runs(attached[2], attached[1]!);
      const exec = /^--checkpoint-action=exec=(.+)$/.exec(a);
      if (exec) runs(exec[1], '--checkpoint-action');
    }
  } else if (head === 'git') {
    for (let i = 1; i < argv.length && argv[i]!.startsWith('-'); i++) {
      const a = argv[i]!;
      if (a === '-C' || a === '--git-dir' || a === '--work-tree' || a === '--namespace') {
        i++;
        continue;
      }
      const setting = a === '-c' ? argv[++i] : a.startsWith('-c') ? a.slice(2) : undefined;
      if (setting === undefined) continue;
      const alias = /^alias\.[^=]+=\s*!(.+)$/s.exec(setting);
      if (alias) runs(alias[1], '-c alias');
      const ssh = /^core\.sshCommand=(.+)$/is.exec(setting);
      if (ssh) runs(ssh[1], '-c core.sshCommand');
    }
  }
}

/** `script -q /dev/null cmd…` (BSD, macOS: a file, then the command) and `script -c 'cmd' file` (util-linux). */
function scriptCommand(result: UnwrappedCommand): void {
  const { argv } = result;
  let i = 1;
  while (i < argv.length && argv[i]!.startsWith('-') && argv[i] !== '--') {
    const a = argv[i]!;
    if (a === '-c' || a === '--command') {
      if (argv[i + 1] !== undefined) codeOf(result).push({ text: argv[i + 1]!, via: 'script -c' });
      return;
    }
    if (a.startsWith('--command=')) {
      codeOf(result).push({ text: a.slice('--command='.length), via: 'script -c' });
      return;
    }
    i += /^-[tTFIOBE]$|^--(?:timing|log-\w+|logging-format|echo)$/.test(a) ? 2 : 1;
  }
  if (argv[i] === '--') i++;
  // The first operand is the typescript file; what follows is the command (BSD and macOS).
  const command = argv.slice(i + 1);
  if (command.length) commandsOf(result).push({ argv: command, dynamic: result.dynamic.slice(i + 1), via: 'script' });
}

/** `tmux new-session -d 'cmd'` (new, new-window, split-window, respawn-pane …): the shell command runs in the new pane; `pipe-pane 'cmd'` runs it on the pane's output. */
function tmuxCommand(result: UnwrappedCommand): void {
  const { argv } = result;
  const verb = argv.findIndex((a, i) => i > 0 && /^(?:new-session|new|new-window|neww|split-window|splitw|respawn-pane|respawnp|respawn-window|respawnw|run-shell|run|pipe-pane|pipep)$/.test(a));
  if (verb < 0) return;
  let i = verb + 1;
  while (i < argv.length && argv[i]!.startsWith('-')) i += /^-[cFnstxyelpT]$/.test(argv[i]!) ? 2 : 1;
  const command = argv.slice(i);
  if (command.length) codeOf(result).push({ text: command.join(' '), via: `tmux ${argv[verb]}` });
}

function inlineCode(result: UnwrappedCommand, input: string | undefined): void {
  const inline = inlineCodeCommands(result.argv, input, result.name);
  if (inline) {
    codeOf(result).push(...inline.code);
    commandsOf(result).push(...inline.commands);
  }
}

/**
 * `ssh host 'cmd'`, `docker exec ctr cmd`, `kubectl exec pod -- cmd`: the command is reviewed as a command
 * of its own, on that host (its segments carry the host: remote-host.ts says what that changes).
 */
function remoteCode(result: UnwrappedCommand): boolean {
  const remote = remoteCommand(result.argv);
  if (!remote) return false;
  codeOf(result).push({ text: remoteShellText(remote), via: remote.via, remoteHost: remote.host });
  return true;
}

const XARGS_VALUED = /^-[aEdeIiLlnPsJR]$|^--(?:arg-file|delimiter|eof|max-lines|max-args|max-procs|max-chars|process-slot-var)$/;

/** `… | xargs [options] cmd args`: cmd runs with the piped words appended (or put where -I's placeholder is). */
function xargs(result: UnwrappedCommand, input: string | undefined): void {
  const { argv } = result;
  let i = 1;
  let placeholder: string | undefined;
  let fromFile = false;
  while (i < argv.length && argv[i]!.startsWith('-')) {
    const a = argv[i]!;
    if (a === '--') {
      i++;
      break;
    }
    if (a === '-I' || a === '-J') placeholder = argv[i + 1];
    else if (/^-[IJ]./.test(a)) placeholder = a.slice(2);
    else if (a === '-i' || a === '--replace') placeholder = '{}';
    else if (/^-i./.test(a)) placeholder = a.slice(2);
    else if (a.startsWith('--replace=')) placeholder = a.slice('--replace='.length) || '{}';
    if (a === '-a' || a.startsWith('--arg-file')) fromFile = true;
    i += XARGS_VALUED.test(a) && !/^-i$/.test(a) ? 2 : 1;
  }
  const template = argv.slice(i);
  if (!template.length) return;
  // With a placeholder xargs takes whole lines; otherwise blank-separated words.
  const items = input !== undefined && !fromFile ? input.split(placeholder ? /\n/ : /\s+/).filter(Boolean) : undefined;
  // A placeholder the command does not use: the input is then appended, which is the cautious reading.
  runWith(result, template, items, placeholder && template.some((w) => w.includes(placeholder)) ? placeholder : undefined, 'xargs');
}

/** `parallel cmd ::: a b`: cmd runs once per argument; without a command, each argument is a command line. */
function parallel(result: UnwrappedCommand, input: string | undefined): void {
  const { argv } = result;
  const separator = argv.findIndex((a) => a === ':::' || a === '::::' || a === ':::+');
  const before = separator < 0 ? argv.slice(1) : argv.slice(1, separator);
  let i = 0;
  while (i < before.length && before[i]!.startsWith('-')) {
    const a = before[i]!;
    if (a === '--') {
      i++;
      break;
    }
    i += /^-[jSaIdEnNLlsx]$|^--(?:jobs|results|sshlogin|arg-file|colsep|tmpdir|delay|timeout|joblog|halt|workdir|memfree|load|retries|basefile|env)$/.test(a) ? 2 : 1;
  }
  const template = before.slice(i);
  const items = separator >= 0 ? argv.slice(separator + 1).filter((a) => !/^:::/.test(a)) : input?.split(/\n/).filter(Boolean);
  if (!template.length) {
    for (const item of items ?? []) codeOf(result).push({ text: item, via: 'parallel' });
    return;
  }
  // parallel hands its command to a shell: one quoted word (`parallel 'rm -rf {}' ::: a`) is a command line.
  if (template.length === 1 && /\s/.test(template[0]!)) {
    const line = template[0]!;
    for (const item of items?.length ? items : [undefined]) {
      const text = item === undefined ? line : line.includes('{}') ? line.split('{}').join(item) : `${line} ${item}`;
      codeOf(result).push({ text, via: 'parallel' });
    }
    return;
  }
  runWith(result, template, items, template.some((w) => w.includes('{}')) ? '{}' : undefined, 'parallel', true);
}

/** A template command run with input items: substituted for the placeholder, or appended. Unknown items stay dynamic. */
function runWith(result: UnwrappedCommand, template: string[], items: string[] | undefined, placeholder: string | undefined, via: string, perItem = false): void {
  const shell = SHELLS.has(basename(template[0] ?? '')) ? template.findIndex((w) => /^-[a-zA-Z]*c[a-zA-Z]*$/.test(w)) : -1;
  const known = items ?? [];
  const variants = items === undefined ? [undefined] : perItem || placeholder ? known.map((item) => [item]) : [known];
  for (const values of variants.length ? variants : [undefined]) {
    let argv: string[];
    let dynamic: boolean[];
    if (placeholder) {
      argv = template.map((w) => (values ? w.split(placeholder).join(values[0]!) : w));
      dynamic = template.map((w) => !values && w.includes(placeholder));
    } else {
      argv = [...template, ...(values ?? ['{input}'])];
      dynamic = [...template.map(() => false), ...(values ?? ['{input}']).map(() => !values)];
    }
    if (shell > 0) {
      // `… | xargs bash -c`: the input is the script.
      const script = template[shell + 1] !== undefined ? argv[shell + 1] : values?.join(' ');
      if (script !== undefined) codeOf(result).push({ text: script, via: `${via} ${template[0]} -c` });
      else if (!values) result.opaque = `${via} ${template[0]} -c runs code from its input`;
      continue;
    }
    commandsOf(result).push({ argv, dynamic, via });
  }
}

/** Predicates that narrow what find matches, so that an action on the matches is not one on the whole tree. */
const NARROWING = /^-(?:name|iname|path|ipath|wholename|iwholename|regex|iregex|newer|mtime|mmin|atime|amin|ctime|cmin|size|empty|user|group|perm|links|inum|samefile|lname|ilname)$/;

/** `find dir … -delete` and `-exec cmd {} ;`: the deletion or command on what find matches under dir. */
function findActions(result: UnwrappedCommand): void {
  const { argv } = result;
  const roots: string[] = [];
  let i = 1;
  while (i < argv.length && !argv[i]!.startsWith('-') && argv[i] !== '(' && argv[i] !== '!') roots.push(argv[i++]!);
  const start = roots[0] ?? '.';
  const first = i;
  // An action acts on what the predicates before it matched: `find . -delete -name x` deletes everything.
  const matchesAt = (index: number) => {
    const narrowed = argv.slice(first, index).some((a) => NARROWING.test(a));
    const found = roots.map((r) => (narrowed ? `${r.replace(/\/+$/, '') || '/'}/{matches}` : r));
    if (!roots.length) found.push(narrowed ? './{matches}' : '.');
    return found;
  };
  for (; i < argv.length; i++) {
    const a = argv[i]!;
    const matches = matchesAt(i);
    if (a === '-delete') commandsOf(result).push({ argv: ['rm', '-r', '-f', ...matches], dynamic: [false, false, false, ...matches.map(() => false)], via: `find ${start} -delete` });
    // -fprint and -fls write their list into a file.
    if (/^-f(?:print0?|printf|ls)$/.test(a) && argv[i + 1]) commandsOf(result).push({ argv: ['tee', argv[i + 1]!], dynamic: [false, false], via: `find ${start} ${a}` });
    if (a === '-exec' || a === '-execdir' || a === '-ok' || a === '-okdir') {
      const end = argv.findIndex((w, j) => j > i && (w === ';' || w === '+' || w === '\\;'));
      const command = argv.slice(i + 1, end < 0 ? argv.length : end);
      i = end < 0 ? argv.length : end;
      if (!command.length) continue;
      // find hands rm every file under a tree it does not narrow: without -r, rm still empties the tree.
      const emptiesTree = basename(command[0]!) === 'rm' && command.includes('{}') && matches.every((m) => !m.endsWith('{matches}')) && !command.some((w) => /^-[a-zA-Z]*[rR]|^--recursive$/.test(w));
      const expanded = (emptiesTree ? [command[0]!, '-r', ...command.slice(1)] : command).flatMap((w) => (w === '{}' ? matches : [w.split('{}').join(matches[0] ?? start)]));
      commandsOf(result).push({ argv: expanded, dynamic: expanded.map(() => false), via: `find ${start} ${a}` });
    }
  }
}
