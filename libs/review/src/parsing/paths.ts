import { foldPathSegments } from '@warden/project-knowledge';
import picomatch from 'picomatch';
import { globMatcher } from './glob-match.js';

/** Pseudo-files that are never a real target (`2>/dev/null` is not a write outside the project). */
const STREAM_PATHS = new Set(['/dev/null', '/dev/stdout', '/dev/stderr', '/dev/stdin', '/dev/tty', '-']);

/** Null devices and standard streams, also Windows' `nul` (`2>nul`), which is no file either. */
export function isStreamPath(path: string): boolean {
  return STREAM_PATHS.has(path) || /^\/dev\/fd\/\d+$/.test(path) || /^&\d$/.test(path) || /^(?:nul|con)(?::)?$/i.test(path) || /^\\\\\.\\nul$/i.test(path);
}

/** Scratch space that the system or the user clears anyway: temp directories on Linux and macOS. */
const TEMP_ROOT = String.raw`(?:/tmp|/var/tmp|/private/tmp|/private/var/tmp|/private/var/folders/[^/]+/[^/]+/T|/var/folders/[^/]+/[^/]+/T|/dev/shm)`;
const IN_TEMP = new RegExp(`^${TEMP_ROOT}(?:/|$)`);
const TEMP_ITSELF = new RegExp(`^${TEMP_ROOT}/?$`);

/** A path inside a temp directory, not the temp directory itself. */
export function isTempPath(path: string): boolean {
  return IN_TEMP.test(path) && !TEMP_ITSELF.test(path);
}

/** The temp directory itself (`/tmp`, `$TMPDIR`) or anything in it. */
export function inTempDirectory(path: string): boolean {
  return IN_TEMP.test(path);
}

/** `C:\\Users\\x\\app` → `c:/users/x/app`: Windows paths compared as the file system does (case-insensitive, either slash). */
export function windowsPath(path: string): string | null {
  const match = /^([a-zA-Z]):[\\/]/.exec(path);
  if (!match) return null;
  return `${match[1]!.toLowerCase()}:/${path.slice(3).replace(/\\/g, '/').replace(/\/+/g, '/').toLowerCase()}`.replace(/\/$/, '');
}

/**
 * Resolves a path as the agent would see it: `$HOME`/`${HOME}` become `~`, a relative path is taken
 * from the session's working directory when it is known, and `.`/`..` are folded.
 */
export function resolvePath(raw: string, cwd?: string): string {
  let path = raw.trim().replace(/^\$\{?HOME\}?(?=\/|$)/, '~');
  const windows = windowsPath(path);
  if (windows) return foldPathSegments(windows.slice(2)).replace(/^/, windows.slice(0, 2));
  const windowsCwd = cwd ? windowsPath(cwd) : null;
  // Git Bash on Windows writes C:\x as /c/x.
  if (windowsCwd && /^\/[a-z](?=\/|$)/i.test(path)) return resolvePath(`${path[1]}:${path.slice(2) || '/'}`);
  if (windowsCwd && !path.startsWith('/') && !path.startsWith('~')) return resolvePath(`${windowsCwd}/${path.replace(/\\/g, '/')}`);
  // `~alice/x` is alice's home.
  const user = /^~([a-z_][\w.-]*)(?=\/|$)/i.exec(path);
  if (user) path = `/home/${user[1]}${path.slice(user[0].length)}`;
  // `~` is the home the working directory lies in, when it shows (`mkdir ~/app/src` in /home/ann).
  const home = homeOf(cwd);
  if (home && /^~(?=\/|$)/.test(path)) path = `${home}${path.slice(1)}`;
  if (path.startsWith('~') || path.startsWith('/')) return foldPathSegments(path);
  if (cwd && (cwd.startsWith('/') || cwd.startsWith('~'))) return foldPathSegments(`${cwd}/${path}`);
  return foldPathSegments(path);
}

const HOME_PREFIX = /^(?:\/home\/[^/]+|\/Users\/[^/]+|\/root|[a-z]:\/users\/[^/]+)(?=\/|$)/i;

/** The home directory a working directory lies in (`/Users/ann/app` → `/Users/ann`), when it shows. */
export function homeOf(cwd: string | undefined): string | undefined {
  return cwd ? HOME_PREFIX.exec(cwd)?.[0] : undefined;
}

/** A path under a home directory written from `~` (`/home/ann/.claude/x` → `~/.claude/x`), to match `~` globs and patterns. */
export function tildeForm(path: string): string {
  const home = HOME_PREFIX.exec(path)?.[0];
  return home ? `~${path.slice(home.length)}` : path;
}

export type PathMatcher = (path: string) => boolean;

/** Compiles path globs once (`/work/app/**`, `~/.ssh/*`); a glob without wildcards also matches what lies under it. */
export function pathMatcher(globs: readonly string[]): PathMatcher {
  if (!globs.length) return () => false;
  const patterns = globs.flatMap((glob) => {
    // Windows paths (`C:\\app\\**`) are matched in the form resolvePath gives them.
    const windows = windowsPath(glob);
    const resolved = windows ?? glob.replace(/^\$\{?HOME\}?(?=\/|$)/, '~');
    return picomatch.scan(resolved).isGlob ? [resolved] : [resolved, `${resolved.replace(/\/+$/, '')}/**`];
  });
  const match = globMatcher(patterns, { dot: true });
  return (path) => match(path) || (/^[a-z]:\//i.test(path) && match(path.toLowerCase())) || (HOME_PREFIX.test(path) && match(tildeForm(path)));
}

/** Compiles globs for names (tools, agents, hosts): `mcp__github__*`, `ci-*`. */
export function nameMatcher(globs: readonly string[]): (name: string) => boolean {
  if (!globs.length) return () => false;
  return globMatcher(globs, { dot: true, nocase: true });
}

/** Absolute, home and Windows paths written in a text (the task the user gave), resolved: `/Users/ann/brief.md`, `~/notes/x`, `C:\\data\\in.csv`. */
export function pathsNamedIn(text: string | undefined, cwd?: string): string[] {
  if (!text) return [];
  // A path starts after anything that cannot be part of one (a space, a quote, or a word in another script: `請閱讀/Users/…`).
  const found = text.match(/(?<![\w.~/\\-])(?:~|\/(?:Users|home|tmp|var|opt|srv|mnt|Volumes|private|workspaces?|data|root)|[A-Za-z]:[\\/])[^\s"'`)>\]，。、；：！？]*/g) ?? [];
  return [...new Set(found.map((p) => p.replace(/[.,;:!?]+$/, '')).filter((p) => p.length > 2).map((p) => resolvePath(p, cwd)))].slice(0, 32);
}

const HOME_ROOT = /^(?:~|\/home\/[^/]+|\/Users\/[^/]+|\/root|[a-z]:\/users\/[^/]+)?\/?$/i;
/** A whole home directory (or the root): naming or approving it hands over nothing in particular. */
export function isHomeRoot(path: string): boolean {
  return HOME_ROOT.test(path);
}
