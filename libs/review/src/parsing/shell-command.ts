import { basename, unwrap } from './command-unwrap.js';
import { walkShell, type Redirect, type WrittenCommand } from './shell-walk.js';

export { basename };

/** A lower-case name without a directory or `.exe`. */
const PLAIN_PROGRAM = /^(?![^]*\.exe$)[a-z0-9_.+-]+$/;

/** A program as catalogues key it: its base name (Unix or Windows path), lower case, without `.exe`. */
export function programKey(word: string): string {
  // Most programs are written as the catalogues key them already: no copies made.
  if (PLAIN_PROGRAM.test(word)) return word;
  return (word.slice(Math.max(word.lastIndexOf('/'), word.lastIndexOf('\\')) + 1) || word).toLowerCase().replace(/\.exe$/, '');
}

/** One simple command that runs, after wrappers such as `sudo` and `env` were looked through. */
export interface ShellSegment {
  /** The command and its arguments, quotes removed, known variables expanded. */
  argv: string[];
  /** The program it runs: the base name of `argv[0]` (`rm` of `/bin/rm`), '' for none. Rules ask it of every segment. */
  name: string;
  /** The same as the catalogues of harm key it: lower case, `.exe` dropped (`rm`, `powershell` of `PowerShell.exe`). */
  program: string;
  /** Per argument: its value is only known when the command runs (`$VAR`, `$(…)`, xargs' input). */
  dynamic: boolean[];
  /** Ran through sudo, doas, su or chroot. */
  privileged: boolean;
  redirects: readonly Redirect[];
  /** Reads its input from the previous segment's output. */
  pipedFrom: boolean;
  /** Not written at the top of the line: inside `$(…)`, `bash -c`, eval, xargs, find -exec, an interpreter's code, ssh. */
  nested: boolean;
  /** Ended by `&`: runs in the background. */
  background: boolean;
  /** How Warden reached it when it is not written at the top of the line (`bash -c`, `xargs`, `python3 code`, `ssh host`). */
  via?: string;
  /** Runs on this host, container or pod, not here (the command of `ssh host 'cmd'`, `docker exec ctr cmd`, `kubectl exec pod -- cmd`). */
  remoteHost?: string;
  /** The directory an earlier `cd` of the line (or `env -C`) moved to: absolute, `~…`, `?` (unknown), or relative to the session's. */
  cwd?: string;
  /** Assignments written before the command (`NODE_ENV=production npm run deploy`). */
  assignments: Record<string, string>;
  /** Wrappers looked through, outermost first (`sudo`, `env`, `timeout`). */
  wrappers: string[];
  /** It only describes a command (`command -v rm`). */
  query?: boolean;
  /** It runs code Warden cannot see (a script piped in from an unknown source). */
  opaque?: string;
  /** The code it runs is nested deeper than Warden reads (shells within shells): hidden on purpose, as a rule. */
  tooDeep?: true;
}

/** A parsed shell line: its commands, and what could not be parsed. */
export interface ShellAnalysis {
  segments: ShellSegment[];
  /** The syntax error of the line as written, or undefined. */
  syntaxError?: string;
}

/** Shells within shells read at most (`bash -c "bash -c …"`): deeper is unread, and asked about. */
const MAX_DEPTH = 10;

interface Origin {
  nested: boolean;
  privileged: boolean;
  via?: string;
  remoteHost?: string;
  depth: number;
}

function segmentsOf(command: WrittenCommand, origin: Origin, out: ShellSegment[]): void {
  const unwrapped = unwrap(command.argv, command.dynamic, command.input, command.pipedFrom);
  const segment: ShellSegment = {
    argv: unwrapped.argv,
    name: unwrapped.name,
    program: programKey(unwrapped.name || unwrapped.argv[0] || ''),
    dynamic: unwrapped.dynamic,
    privileged: origin.privileged || unwrapped.privileged,
    redirects: command.redirects,
    pipedFrom: command.pipedFrom,
    nested: origin.nested || command.nested,
    background: command.background,
    assignments: command.assignments,
    wrappers: unwrapped.wrappers,
  };
  if (origin.via) segment.via = origin.via;
  if (origin.remoteHost) segment.remoteHost = origin.remoteHost;
  const cwd = unwrapped.cwd ?? command.cwd;
  if (cwd !== undefined) segment.cwd = cwd;
  if (unwrapped.query) segment.query = true;
  if (unwrapped.opaque) segment.opaque = unwrapped.opaque;
  out.push(segment);
  // Most commands run no code of their own: nothing more to make for them.
  if (!unwrapped.code.length && !unwrapped.commands.length) return;
  if (origin.depth >= MAX_DEPTH) {
    // Not read, so not passed as read: what it runs is unknown.
    segment.opaque ??= `code run by shells nested more than ${MAX_DEPTH} deep`;
    segment.tooDeep = true;
    return;
  }
  const inner = (via: string, remoteHost?: string): Origin => ({
    nested: true,
    privileged: segment.privileged,
    via,
    depth: origin.depth + 1,
    ...(remoteHost ?? origin.remoteHost ? { remoteHost: remoteHost ?? origin.remoteHost } : {}),
  });
  for (const code of unwrapped.code) {
    for (const written of walkShell(code.text, command.assignments).commands) {
      // A remote command starts in its host's own directory, not where this shell moved.
      if (segment.cwd !== undefined && written.cwd === undefined && !code.remoteHost) written.cwd = segment.cwd;
      segmentsOf(written, inner(code.via, code.remoteHost), out);
    }
  }
  for (const derived of unwrapped.commands) {
    const written: WrittenCommand = {
      argv: derived.argv,
      dynamic: derived.dynamic,
      assignments: {},
      redirects: [],
      pipedFrom: false,
      background: false,
      nested: true,
    };
    if (segment.cwd !== undefined) written.cwd = segment.cwd;
    segmentsOf(written, inner(derived.via), out);
  }
}

/**
 * Parses a shell command line (with unbash, a bash parser) into the simple commands that run:
 * through lists, pipelines, subshells, groups, conditions, loops and substitutions, with wrappers looked
 * through and the code run by `bash -c`, eval, xargs, parallel, find -exec, watch, ssh, here-documents
 * fed to a shell and interpreter one-liners read as commands of their own.
 */
export function analyseShellCommand(command: string): ShellAnalysis {
  const walked = walkShell(command);
  const segments: ShellSegment[] = [];
  for (const written of walked.commands) segmentsOf(written, { nested: false, privileged: false, depth: 0 }, segments);
  return walked.syntaxError ? { segments, syntaxError: walked.syntaxError } : { segments };
}

export function parseShellCommand(command: string): ShellSegment[] {
  return analyseShellCommand(command).segments;
}
