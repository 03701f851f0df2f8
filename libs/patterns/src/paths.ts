import picomatch from 'picomatch';

/** `a/./b/../c` → `a/c`, keeping a leading `/` or `~`. */
function foldSegments(path: string): string {
  const absolute = path.startsWith('/');
  const parts: string[] = [];
  for (const part of path.split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..' && parts.length && parts[parts.length - 1] !== '..' && parts[parts.length - 1] !== '~') parts.pop();
    else if (part === '..' && absolute && !parts.length) continue;
    else parts.push(part);
  }
  return (absolute ? '/' : '') + parts.join('/') || (absolute ? '/' : '.');
}

/**
 * A path as the agent meant it: `$HOME` and the session's home directory become `~`, a relative path is
 * taken from the working directory when it is known, `.` and `..` are folded.
 */
export function resolvePath(raw: string, cwd?: string, home?: string): string {
  let path = raw.trim().replace(/^\$\{?HOME\}?(?=\/|$)/, '~');
  if (home && (path === home || path.startsWith(`${home}/`))) path = `~${path.slice(home.length)}`;
  if (path.startsWith('~') || path.startsWith('/')) return foldSegments(path);
  if (cwd && (cwd.startsWith('/') || cwd.startsWith('~'))) return foldSegments(`${resolvePath(cwd, undefined, home)}/${path}`);
  return foldSegments(path);
}

/** The home directory a working directory lies in (`/home/dev/app` → `/home/dev`), if it is one. */
export function homeOf(cwd: string | undefined): string | undefined {
  const match = cwd ? /^(\/home\/[^/]+|\/Users\/[^/]+|\/root)(?=\/|$)/.exec(cwd) : null;
  return match?.[1];
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
