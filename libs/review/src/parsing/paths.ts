import picomatch from 'picomatch';

/** Pseudo-files that are never a real target (`2>/dev/null` is not a write outside the project). */
const STREAM_PATHS = new Set(['/dev/null', '/dev/stdout', '/dev/stderr', '/dev/stdin', '/dev/tty', '-']);

export function isStreamPath(path: string): boolean {
  return STREAM_PATHS.has(path) || /^\/dev\/fd\/\d+$/.test(path) || /^&\d$/.test(path);
}

/** `a/./b/../c` → `a/c`, keeping a leading `/` or `~`. */
function normaliseSegments(path: string): string {
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
 * Resolves a path as the agent would see it: `$HOME`/`${HOME}` become `~`, a relative path is taken
 * from the session's working directory when it is known, and `.`/`..` are folded.
 */
export function resolvePath(raw: string, cwd?: string): string {
  const path = raw.trim().replace(/^\$\{?HOME\}?(?=\/|$)/, '~');
  if (path.startsWith('~') || path.startsWith('/')) return normaliseSegments(path);
  if (cwd && (cwd.startsWith('/') || cwd.startsWith('~'))) return normaliseSegments(`${cwd}/${path}`);
  return normaliseSegments(path);
}

export type PathMatcher = (path: string) => boolean;

/** Compiles path globs once (`/work/app/**`, `~/.ssh/*`); a glob without wildcards also matches what lies under it. */
export function pathMatcher(globs: readonly string[]): PathMatcher {
  if (!globs.length) return () => false;
  const patterns = globs.flatMap((glob) => {
    const resolved = glob.replace(/^\$\{?HOME\}?(?=\/|$)/, '~');
    return picomatch.scan(resolved).isGlob ? [resolved] : [resolved, `${resolved.replace(/\/+$/, '')}/**`];
  });
  const match = picomatch(patterns, { dot: true });
  return (path) => match(path);
}

/** Compiles globs for names (tools, agents, hosts): `mcp__github__*`, `ci-*`. */
export function nameMatcher(globs: readonly string[]): (name: string) => boolean {
  if (!globs.length) return () => false;
  const match = picomatch([...globs], { dot: true, nocase: true });
  return (name) => match(name);
}
