import picomatch from 'picomatch';
import { globMatcher } from './glob-match.js';
import { inSomeHome, isWindowsPath, resolvePath, tildeForm } from './paths.js';

export type PathMatcher = (path: string) => boolean;

const HOME_VARIABLE = /^(?:\$\{?HOME\}?|%USERPROFILE%|\$\{?env:USERPROFILE\}?)(?=[\\/]|$)/i;
const GIT_BASH_DRIVE = /^\/([a-z])(?=\/|$)/i;

/** Whether a glob is relative: taken from the working directory when one is given (`src/**`, not `**∕node_modules/**`). */
const isRelative = (glob: string) => !/^(?:[/~]|\*\*)/.test(glob) && !isWindowsPath(glob);

/**
 * A glob in the canonical form of paths (paths.ts): `C:\\App\\**` → `c:/app/**`, `$HOME/x` → `~/x`; with a
 * working directory a relative glob is taken from it (`src/**` → `/work/app/src/**`). Git Bash's
 * `/c/windows/**` also matches `c:/windows/…`: a glob does not know whether its session is on Windows.
 */
function canonicalGlobs(raw: string, cwd: string | undefined): string[] {
  let glob = raw.trim().replace(HOME_VARIABLE, '~');
  if (isWindowsPath(glob)) glob = glob.replace(/\\/g, '/').toLowerCase();
  else if (cwd && isRelative(glob)) glob = resolvePath(glob, cwd);
  else if (cwd && isWindowsPath(cwd) && glob.startsWith('~')) glob = glob.replace(/\\/g, '/').toLowerCase();
  const drive = GIT_BASH_DRIVE.exec(glob);
  return drive ? [glob, `${drive[1]!.toLowerCase()}:${glob.slice(2) || '/'}`.toLowerCase()] : [glob];
}

/**
 * Compiles path globs once (`/work/app/**`, `~/.ssh/*`, `C:\\Users\\me\\app`) to test canonical paths
 * (resolvePath's). A glob without wildcards also matches what lies under it; a `~/…` glob matches under
 * any home directory; Windows paths match whatever their case. With `cwd`, relative globs are the
 * working directory's.
 */
export function pathMatcher(globs: readonly string[], cwd?: string): PathMatcher {
  if (!globs.length) return () => false;
  const patterns = globs.flatMap((raw) =>
    canonicalGlobs(raw, cwd).flatMap((glob) => (picomatch.scan(glob).isGlob ? [glob] : [glob, `${glob.replace(/\/+$/, '')}/**`])),
  );
  const match = globMatcher(patterns, { dot: true });
  return (path) => match(path) || (isWindowsPath(path) && match(path.toLowerCase())) || (inSomeHome(path) && match(tildeForm(path)));
}
