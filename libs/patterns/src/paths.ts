import { foldPathSegments } from '@warden/project-knowledge';
import picomatch from 'picomatch';

const WINDOWS_DRIVE = /^([A-Za-z]):(?:[\\/]|$)/;
const GIT_BASH_DRIVE = /^\/([A-Za-z])(?=\/|$)/;

/** Whether a path is written the Windows way: a drive letter, or a UNC share. */
export const isWindowsPath = (path: string) => WINDOWS_DRIVE.test(path) || path.startsWith('\\\\');

/**
 * A Windows path in the form the rest compares: `C:\Users\Me\App` → `/c/users/me/app` (forward slashes, the
 * drive as Git Bash names it, lower case because Windows paths are case-insensitive). With `windows` set (the
 * session works on Windows), `/c/Users/…` and relative paths with backslashes are folded the same way.
 */
export function windowsPath(path: string, windows = false): string {
  const drive = WINDOWS_DRIVE.exec(path);
  if (drive) return `/${drive[1]!.toLowerCase()}/${path.slice(2).replace(/\\/g, '/').replace(/^\/+/, '')}`.toLowerCase().replace(/\/+$/, '') || '/';
  if (path.startsWith('\\\\')) return `//${path.slice(2).replace(/\\/g, '/')}`.toLowerCase();
  if (windows && (GIT_BASH_DRIVE.test(path) || path.includes('\\'))) return path.replace(/\\/g, '/').toLowerCase();
  return path;
}

/**
 * A path as the agent meant it: `$HOME` and the session's home directory become `~`, a relative path is
 * taken from the working directory when it is known, `.` and `..` are folded. On Windows (the path or the
 * working directory has a drive letter) paths are compared as `/c/users/…`, whatever their case and slashes.
 */
export function resolvePath(raw: string, cwd?: string, home?: string): string {
  const windows = !!cwd && isWindowsPath(cwd);
  if (windows || isWindowsPath(raw)) {
    raw = windowsPath(raw.trim(), windows);
    if (cwd) cwd = windowsPath(cwd, true);
    if (home) home = windowsPath(home, true);
  }
  let path = raw.trim().replace(/^\$\{?HOME\}?(?=\/|$)/, '~');
  if (home && (path === home || path.startsWith(`${home}/`))) path = `~${path.slice(home.length)}`;
  if (path.startsWith('~') || path.startsWith('/')) return foldPathSegments(path);
  if (cwd && (cwd.startsWith('/') || cwd.startsWith('~'))) return foldPathSegments(`${resolvePath(cwd, undefined, home)}/${path}`);
  return foldPathSegments(path);
}

/** The home directory a working directory lies in (`/home/dev/app` → `/home/dev`, `C:\Users\dev\app` → `/c/users/dev`), if it is one. */
export function homeOf(cwd: string | undefined): string | undefined {
  if (!cwd) return undefined;
  const path = isWindowsPath(cwd) ? windowsPath(cwd) : cwd;
  const match = /^(\/home\/[^/]+|\/Users\/[^/]+|\/root|\/[a-z]\/users\/[^/]+)(?=\/|$)/.exec(path);
  return match?.[1];
}

const NAMED_PATH = /(?:^|[\s"'`(<\[])((?:~|\/|[A-Za-z]:[\\/])[^\s"'`()<>\[\]]*[^\s"'`()<>\[\].,;:!?])/g;

/** Absolute paths a text names (`~/notes/plan.md`, `/srv/data`, `C:\work\app`): what a user points the agent at. */
export function pathsNamedIn(text: string | undefined): string[] {
  if (!text) return [];
  const found = new Set<string>();
  for (const match of text.slice(0, 20_000).matchAll(NAMED_PATH)) {
    const path = match[1]!;
    if (path.length > 2 && !/^\/\/|:\/\//.test(path)) found.add(path);
    if (found.size >= 32) break;
  }
  return [...found];
}

export type PathMatcher = (path: string) => boolean;

/** Compiles path globs once; a glob without wildcards also matches what lies under it. */
export function pathMatcher(globs: readonly string[], cwd?: string, home?: string): PathMatcher {
  if (!globs.length) return () => false;
  const patterns = globs.flatMap((glob) => {
    const resolved = /[*?[{]/.test(glob) && !glob.startsWith('/') && !glob.startsWith('~') && !glob.startsWith('$') && glob.startsWith('**')
      ? glob
      : resolvePath(glob, cwd, home);
    return /[*?[{]/.test(resolved) ? [resolved] : [resolved, `${resolved}/**`];
  });
  const match = picomatch(patterns, { dot: true });
  return (path) => match(path);
}

/** Whether `path` is `root` or lies under it. */
export function isUnder(path: string, root: string): boolean {
  return path === root || path.startsWith(root.endsWith('/') ? root : `${root}/`);
}

export function baseName(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1);
}

/** `src/parser.spec.ts` → `parser`: the name a file and its tests share. */
export function stemOf(path: string): string {
  return baseName(path).toLowerCase().split('.')[0] ?? '';
}

const compiledMatchers = new WeakMap<readonly string[], PathMatcher>();
/** The matcher of a settings list of globs, compiled once per list. */
export function compiledMatcher(globs: readonly string[]): PathMatcher {
  let match = compiledMatchers.get(globs);
  if (!match) compiledMatchers.set(globs, (match = pathMatcher(globs)));
  return match;
}
