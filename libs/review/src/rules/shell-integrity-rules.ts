import type { Redirect } from '../parsing/shell-walk.js';
import type { ShellSegment } from '../parsing/shell-command.js';
import { commandName } from '../parsing/command-facts.js';
import { SHELLS, unwrap } from '../parsing/command-unwrap.js';
import { commandNames, segmentsRunning } from '../parsing/segment-index.js';
import { powershellLine } from '../parsing/windows-commands.js';
import { builtInRule } from './built-in-rule.js';

/** Rules about the shell line itself: what cannot be parsed, code that cannot be read, shells handed to a network peer. */

export const unparseableCommandRule = builtInRule({
  name: 'unparseable_command',
  description:
    'A command line that does not parse as shell is reviewed as far as it can be read and the verdict says so (never a silent "no concerns"); over several lines, where bash runs the lines before the error, it warns.',
  reads: 'action',
  check({ action }) {
    if (action.syntaxError === undefined) return null;
    if (powershellLine(action)) {
      return {
        verdict: 'allow',
        score: 0.1,
        factors: [],
        reason: `This line is PowerShell (bash cannot parse it: ${action.syntaxError}); Warden read its commands as PowerShell splits them.`,
      };
    }
    // Bash reads a one-line command whole and runs none of it when it does not parse; a script runs line by line.
    const multiLine = /\n\s*\S/.test((action.command ?? '').trim());
    return {
      verdict: multiLine ? 'warn' : 'allow',
      score: multiLine ? 0.5 : 0.1,
      factors: ['unparseable'],
      reason: multiLine
        ? `This script does not parse as shell (${action.syntaxError}): bash runs the lines before the error and stops there. Warden reviewed the words it could read.`
        : `This command does not parse as shell (${action.syntaxError}), so bash will refuse it and run nothing. Warden reviewed the words it could read and judged them as written.`,
      alternative: 'Fix the quoting of the command and propose it again.',
    };
  },
});

export const unreadableCodeRule = builtInRule({
  name: 'unreadable_code',
  description:
    'A shell that runs code from a pipe Warden cannot read (not a literal echo or here-document) warns; code nested in shells deeper than Warden reads (`bash -c "bash -c …"` eleven levels down) needs approval: no agent needs it, and it hides what runs.',
  reads: 'action',
  check({ action }) {
    const hit = action.segments.find((s) => s.opaque && !s.remoteHost && s.tooDeep) ?? action.segments.find((s) => s.opaque && !s.remoteHost);
    if (!hit) return null;
    return {
      verdict: hit.tooDeep ? 'require_approval' : 'warn',
      score: 0.65,
      factors: ['code_execution', 'unreviewed_code'],
      reason: `${hit.opaque}: Warden cannot see that code, so it was not reviewed.`,
      alternative: 'Write the script to a file in the project, read it, and run the file.',
    };
  },
});

const SOCKET_TARGET = /^\/dev\/(?:tcp|udp)\//;
const NETCATS = new Set(['nc', 'ncat', 'netcat']);
/** `-e prog`, `-c cmd` alone or last of a cluster (`-le /bin/sh`), ncat's `--exec`, `--sh-exec`, `--lua-exec` (also with `=`). */
const NETCAT_EXEC = /^-[a-zA-Z]*[ec]$|^--(?:exec|sh-exec|lua-exec)(?:=|$)/;
/** socat's addresses that run a program: `EXEC:cmd`, `SYSTEM:cmd`, `SHELL[:cmd]` (socat 1.8: a shell itself). */
const SOCAT_EXEC = /^(?:exec|system):(.*)$|^(shell)(?::(.*))?$/i;
/** What a served program must be for the peer to get a shell: a shell or an interpreter it can type code into. */
const SHELL_LIKE = new Set([...SHELLS, 'csh', 'tcsh', 'pwsh', 'powershell', 'cmd', 'cmd.exe', 'lua', 'irb', 'node', 'php', 'perl', 'ruby', 'python', 'python2', 'python3']);
const toSocket = (redirect: Redirect) => SOCKET_TARGET.test(redirect.target);

/** Whether a command line served to a peer is a shell: its program, after wrappers (`env -u X sh -i`, `exec nice sh`). */
function isShell(commandLine: string): boolean {
  const words = commandLine.trim().split(/\s+/).filter(Boolean);
  if (!words.length) return false;
  const program = unwrap(words, words.map(() => false), undefined, false).name;
  return SHELL_LIKE.has(program) || /^(?:python|pypy|perl|ruby|php|lua)[\d.]*$/.test(program);
}

/** Whether a command (named `cmd`) hands a shell to a socket. Asked of every command of a line: no closure per command. */
function servesShell(segment: ShellSegment, cmd: string): boolean {
  if (segment.redirects.some(toSocket)) return true;
  const { argv } = segment;
  if (NETCATS.has(cmd)) {
    for (let i = 1; i < argv.length; i++) {
      const a = argv[i]!;
      if (!NETCAT_EXEC.test(a)) continue;
      const served = a.includes('=') ? a.slice(a.indexOf('=') + 1) : argv[i + 1];
      if (served !== undefined && (a.startsWith('--lua-exec') || isShell(served))) return true;
    }
    return false;
  }
  if (cmd !== 'socat') return false;
  for (let i = 1; i < argv.length; i++) {
    const m = SOCAT_EXEC.exec(argv[i]!);
    if (!m) continue;
    if (m[2] !== undefined) return true;
    // EXEC:'sh -i',pty,stderr: the command is up to the first comma.
    if (isShell((m[1] ?? '').split(',')[0]!.replace(/^["']|["']$/g, ''))) return true;
  }
  return false;
}

/** `bash -i >& /dev/tcp/host/port`, `nc -e /bin/sh`, `socat exec:sh tcp:…`: a shell served to another machine. */
export const reverseShellRule = builtInRule({
  name: 'reverse_shell',
  description: 'Handing an interactive shell to another machine (/dev/tcp redirections, nc -e, socat exec) is never allowed.',
  essential: true,
  reads: 'action',
  check({ action }) {
    const names = commandNames(action.segments);
    const hit = action.segments.find((s, i) => servesShell(s, names[i]!));
    if (!hit) return null;
    return {
      verdict: 'block',
      score: 1,
      factors: ['remote_execution', 'network_request'],
      reason: `${hit.argv.join(' ').slice(0, 120)} hands a shell on this machine to a network peer. This is never allowed.`,
      alternative: 'Debug locally; if remote access is needed, the user sets it up.',
    };
  },
});

/** Programs that serve a terminal over HTTP or a socket. */
const WEB_TERMINALS = new Set(['ttyd', 'gotty', 'wetty', 'shellinaboxd', 'shellinabox', 'butterfly', 'tmate']);
const WEB_TERMINAL_IMAGE = /(?:^|\/)(?:ttyd|gotty|wetty|shellinabox|butterfly)(?::|$)/i;
/** The programs webTerminal reads: the terminals, and the container runtimes that may start one. */
const TERMINAL_STARTERS = new Set([...WEB_TERMINALS, 'docker', 'podman', 'nerdctl']);

/** The web terminal a segment starts, directly or as a container image. */
function webTerminal(segment: ShellSegment): string | undefined {
  const cmd = commandName(segment);
  if (WEB_TERMINALS.has(cmd)) return cmd;
  if ((cmd === 'docker' || cmd === 'podman' || cmd === 'nerdctl') && (segment.argv.includes('run') || segment.argv.includes('create'))) {
    const image = segment.argv.find((a) => WEB_TERMINAL_IMAGE.test(a));
    if (image) return image;
  }
  return undefined;
}

export const networkShellRule = builtInRule({
  name: 'network_shell',
  description: 'Serving a terminal over the network (ttyd, gotty, wetty, shellinabox, a container of one) needs approval.',
  reads: 'action',
  check({ action }) {
    for (const segment of segmentsRunning(action.segments, TERMINAL_STARTERS)) {
      const terminal = webTerminal(segment);
      if (!terminal || segment.argv.some((a) => a === '--help' || a === '--version')) continue;
      // Bound to loopback it serves no one else (`ttyd -i lo`, `-p 127.0.0.1:7681:7681`).
      if (segment.argv.some((a, i) => /^127\.0\.0\.1:/.test(a) || ((a === '-i' || a === '--interface') && /^(?:lo|127\.0\.0\.1|localhost)$/.test(segment.argv[i + 1] ?? '')))) continue;
      return {
        verdict: 'require_approval',
        score: 0.85,
        factors: ['remote_execution', 'network_request'],
        reason: `${terminal} serves a shell of this machine over the network: whoever reaches the port can run commands, as this user. A person must approve it.`,
        alternative: 'Bind it to 127.0.0.1 and reach it through an SSH tunnel, or let the user set up remote access.',
      };
    }
    return null;
  },
});
