/**
 * Paths in one canonical form, the form the reviewer and the pattern detector both compare:
 *
 * - POSIX paths absolute and folded: `/home/ann/app/src/x.ts` (`.` and `..` folded, no trailing slash);
 * - `~` and `$HOME` written out as the session's home when it shows in the working directory
 *   (`/home/ann`, `/Users/ann`, `/root`, `C:\Users\ann`); kept as `~/…` when it does not;
 * - Windows paths with the drive as written in Windows, lower case, forward slashes: `c:/users/ann/app`
 *   (Windows compares paths case-insensitively); in a session on Windows Git Bash's `/c/Users/ann` and
 *   relative paths with backslashes are read the same way; UNC shares as `//server/share/…`.
 *
 * Globs match this form (see path-matcher.ts): a `~/…` glob matches under any home directory.
 */

/** `a/./b/../c` → `a/c`, keeping a leading `/` or `~`; `..` never climbs above `/` or `~`. */
export function foldPathSegments(path: string): string {
  // Most paths have nothing to fold: they are returned as they are.
  if (!needsFolding(path)) return path;
  const absolute = path.charCodeAt(0) === SLASH;
  const parts: string[] = [];
  for (const part of path.split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..' && parts.length && parts[parts.length - 1] !== '..' && parts[parts.length - 1] !== '~') parts.pop();
    else if (part === '..' && absolute && !parts.length) continue;
    else parts.push(part);
  }
  return (absolute ? '/' : '') + parts.join('/') || (absolute ? '/' : '.');
}

const SLASH = 47;
const BACKSLASH = 92;
const DOT = 46;
const COLON = 58;
const TILDE = 126;
const PLUS = 43;

/** An empty segment, a `.` or `..` segment, or a trailing slash (not on `/` itself). */
function needsFolding(path: string): boolean {
  const n = path.length;
  if (n === 0) return true;
  if (n > 1 && path.charCodeAt(n - 1) === SLASH) return true;
  for (let i = 0; i < n; i++) {
    const c = path.charCodeAt(i);
    if (c === SLASH && i > 0 && path.charCodeAt(i - 1) === SLASH) return true;
    if (c === DOT && (i === 0 || path.charCodeAt(i - 1) === SLASH)) {
      const next = i + 1 < n ? path.charCodeAt(i + 1) : SLASH;
      if (next === SLASH) return true;
      if (next === DOT && (i + 2 >= n || path.charCodeAt(i + 2) === SLASH)) return true;
    }
  }
  return false;
}

const isLetter = (c: number) => (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
const isSlash = (c: number) => c === SLASH || c === BACKSLASH;

/** `C:\…`, `C:/…` or `C:` alone. */
function isDrivePath(path: string): boolean {
  return path.length >= 2 && path.charCodeAt(1) === COLON && isLetter(path.charCodeAt(0)) && (path.length === 2 || isSlash(path.charCodeAt(2)));
}

/** Whether a path is written the Windows way: a drive letter, or a UNC share (`\\server\share`). */
export function isWindowsPath(path: string): boolean {
  return isDrivePath(path) || (path.charCodeAt(0) === BACKSLASH && path.charCodeAt(1) === BACKSLASH);
}

/** A Windows path in the canonical form: `C:\Users\Me\App\` → `c:/users/me/app`, `\\Srv\Share\x` → `//srv/share/x`. */
function windowsForm(path: string): string {
  let p = path.replace(/\\/g, '/').toLowerCase();
  // `\\?\C:\x` is C:\x with the length limit lifted.
  if (p.startsWith('//?/')) p = p.slice(4);
  if (isDrivePath(p)) return `${p.slice(0, 2)}${foldPathSegments(`/${p.slice(2)}`)}`;
  if (p.startsWith('//')) {
    const folded = foldPathSegments(p.slice(1));
    return folded === '/' ? '//' : `/${folded}`;
  }
  return foldPathSegments(p);
}

/** The home directory a working directory lies in, in the canonical form (`/home/ann`, `/Users/ann`, `/root`, `c:/users/ann`). */
const HOME_PREFIX = /^(?:\/home\/[^/]+|\/Users\/[^/]+|\/root|[a-z]:\/users\/[^/]+)(?=\/|$)/i;

let lastCwd: string | undefined;
let lastHome: string | undefined;

/** The home directory a working directory lies in (`/Users/ann/app` → `/Users/ann`, `C:\Users\Ann\app` → `c:/users/ann`), when it shows. */
export function homeOf(cwd: string | undefined): string | undefined {
  if (!cwd) return undefined;
  // Asked for every path of an action in the same directory: the last answer is kept.
  if (cwd === lastCwd) return lastHome;
  const home = HOME_PREFIX.exec(isWindowsPath(cwd) ? windowsForm(cwd) : cwd)?.[0];
  lastCwd = cwd;
  lastHome = home;
  return home;
}

/** `$HOME`, `${HOME}`, `%USERPROFILE%`, `$env:USERPROFILE` at the start of a path, up to a slash or the end. */
const HOME_VARIABLE = /^(?:\$\{?HOME\}?|%USERPROFILE%|\$\{?env:USERPROFILE\}?)(?=[\\/]|$)/i;

/** The path with a leading home variable written as `~`. */
function withTilde(path: string): string {
  const c = path.charCodeAt(0);
  if (c !== 36 && c !== 37) return path;
  const match = HOME_VARIABLE.exec(path);
  return match ? `~${path.slice(match[0].length)}` : path;
}

/** A path written in quotes (`"C:\\Program Files\\x"`, as some agents pass it) is the path inside them. */
function unquoted(path: string): string {
  const first = path.charCodeAt(0);
  if ((first !== 34 && first !== 39) || path.length < 2 || path.charCodeAt(path.length - 1) !== first) return path;
  return path.slice(1, -1).trim();
}

/** `~alice` on a machine whose homes are under /Users is /Users/alice. */
function homesDirectory(home: string | undefined): string {
  return home && home !== '/root' ? home.slice(0, home.lastIndexOf('/')) : '/home';
}

const OTHER_USER = /^~([a-z_][\w.-]*)(?=\/|$)/i;

/**
 * Resolves a path as the agent meant it, in the canonical form (see the top of this file): `$HOME` and
 * `~` become the home directory (`home`, else the one `cwd` lies in, when either shows), a relative path
 * is taken from the working directory when it is known, and `.`/`..` are folded.
 */
export function resolvePath(raw: string, cwd?: string, home?: string): string {
  const path = withTilde(unquoted(raw.trim()));
  if (isWindowsPath(path)) return windowsForm(path);
  if (cwd !== undefined && isWindowsPath(cwd)) return resolveOnWindows(path, cwd, home);
  const first = path.charCodeAt(0);
  if (first === SLASH) return foldPathSegments(path.startsWith('/proc/') ? throughProcessRoot(path) : path);
  if (first === TILDE) {
    if (path.length === 1 || path.charCodeAt(1) === SLASH) {
      const known = home ?? homeOf(cwd);
      return foldPathSegments(known ? `${known}${path.slice(1)}` : path);
    }
    // `~+/x` is bash's working directory.
    if (path.charCodeAt(1) === PLUS && (path.length === 2 || path.charCodeAt(2) === SLASH) && cwd) return resolvePath(`.${path.slice(2)}`, cwd, home);
    // `~alice/x` is alice's home.
    const user = OTHER_USER.exec(path);
    if (user) return foldPathSegments(`${homesDirectory(home ?? homeOf(cwd))}/${user[1]}${path.slice(user[0].length)}`);
    return foldPathSegments(path);
  }
  if (cwd && (cwd.charCodeAt(0) === SLASH || cwd.charCodeAt(0) === TILDE)) return foldPathSegments(`${resolvePath(cwd, undefined, home)}/${path}`);
  return foldPathSegments(path || '.');
}

/** `/proc/1/root/etc/shadow` is `/etc/shadow` as that process sees the machine: the same file, by a side door. */
const PROCESS_ROOT = /^\/proc\/(?:\d+|self|thread-self)\/root(?=\/|$)/;

function throughProcessRoot(path: string): string {
  const root = PROCESS_ROOT.exec(path);
  return root ? path.slice(root[0].length) || '/' : path;
}

/** A path of a session on Windows (its working directory has a drive letter or is a share). */
function resolveOnWindows(path: string, cwd: string, home: string | undefined): string {
  const first = path.charCodeAt(0);
  // Git Bash writes C:\x as /c/x.
  if (first === SLASH && isLetter(path.charCodeAt(1)) && (path.length === 2 || path.charCodeAt(2) === SLASH)) return windowsForm(`${path[1]}:${path.slice(2) || '/'}`);
  // A share written with forward slashes.
  if (first === SLASH && path.charCodeAt(1) === SLASH && path.length > 2 && path.charCodeAt(2) !== SLASH) return windowsForm(path);
  // Git Bash's own tree (/tmp, /usr, /etc): a POSIX path of the shell.
  if (first === SLASH) return foldPathSegments(path);
  if (first === TILDE && (path.length === 1 || isSlash(path.charCodeAt(1)))) {
    const known = home ?? homeOf(cwd);
    return known ? windowsForm(`${known}${path.slice(1)}`) : foldPathSegments(path.replace(/\\/g, '/').toLowerCase());
  }
  const root = windowsForm(cwd);
  // `\Windows\x` is on the working directory's drive.
  if (first === BACKSLASH) return windowsForm(`${root.slice(0, 2)}${path}`);
  return windowsForm(`${root}/${path}`);
}

/** A canonical path under a home directory written from `~` (`/home/ann/.claude/x` → `~/.claude/x`), to match `~` globs. */
export function tildeForm(path: string): string {
  const home = HOME_PREFIX.exec(path)?.[0];
  return home ? `~${path.slice(home.length)}` : path;
}

/** Whether a canonical path lies under some home directory (`/home/x`, `/Users/x`, `/root`, `c:/users/x`). */
export function inSomeHome(path: string): boolean {
  return HOME_PREFIX.test(path);
}

const HOME_ROOT = /^(?:~|\/home\/[^/]+|\/Users\/[^/]+|\/root|[a-z]:\/users\/[^/]+)?\/?$/i;

/** A whole home directory (or the root): naming or approving it hands over nothing in particular. */
export function isHomeRoot(path: string): boolean {
  return HOME_ROOT.test(path);
}

/** Whether `path` is `root` or lies under it (both canonical). */
export function isUnder(path: string, root: string): boolean {
  return path === root || path.startsWith(root.endsWith('/') ? root : `${root}/`);
}

/** A working directory that continues with a home's own path after a mount or a link's target (`/home/moxa/sda2` + `/home/moxa/WORK/ci`). */
const MOUNTED_HOME = /^(\/.+?)(\/(?:home|Users)\/([^/]+)\/.+)$/;
const HOME_OF_PREFIX = /^\/(?:home|Users)\/([^/]+)(?:\/|$)/;

/**
 * Where a working directory lies on a mount or behind a link that its home's own path also reaches
 * (`/home/moxa/sda2/home/moxa/WORK/ci`, `/System/Volumes/Data/Users/ann/app`): the mount's prefix and the
 * directory's home-relative spelling (`/home/moxa/WORK/ci`), or undefined. Canonical.
 */
export function mountedHome(cwd: string | undefined): { prefix: string; alias: string } | undefined {
  const mount = cwd ? MOUNTED_HOME.exec(cwd) : null;
  if (!mount) return undefined;
  const [, prefix, alias, user] = mount;
  // `/home/ann/projects/home/bob/x` is a folder of ann's, not bob's home mounted there.
  const owner = HOME_OF_PREFIX.exec(prefix!);
  return owner && owner[1] !== user ? undefined : { prefix: prefix!, alias: alias! };
}

/**
 * A path in the working directory's own spelling when that directory lies on a mount (`mountedHome`): with
 * `cwd` `/home/moxa/sda2/home/moxa/WORK/ci` (what the agent's transcript records), `/home/moxa/WORK/ci/a.yml`
 * (what the agent types) is `/home/moxa/sda2/home/moxa/WORK/ci/a.yml`. Only paths under the directory's
 * home-relative spelling are mapped; any other path is returned as it is. Both canonical.
 */
export function throughMount(path: string, cwd: string | undefined): string {
  const mount = mountedHome(cwd);
  return mount ? pathOnMount(path, mount) : path;
}

function pathOnMount(path: string, mount: { prefix: string; alias: string }): string {
  return isUnder(path, mount.alias) ? `${mount.prefix}${path}` : path;
}

/**
 * A scope that also answers for paths spelled through the home's own path when the working directory (canonical)
 * lies on a mount (`throughMount`); the scope itself when it lies on none, as most do. The mount is read once.
 */
export function orThroughMount(matches: (path: string) => boolean, cwd: string | undefined): (path: string) => boolean {
  const mount = mountedHome(cwd);
  if (!mount) return matches;
  return (path) => {
    if (matches(path)) return true;
    const mapped = pathOnMount(path, mount);
    return mapped !== path && matches(mapped);
  };
}

/** A path that says nothing of where it lies (`src/app.ts`): not absolute, not under `~`, no drive letter. */
export function isRelativePath(path: string): boolean {
  return !/^(?:[/~]|[a-zA-Z]:[\\/])/.test(path);
}

/** The last segment of a canonical path. */
export function baseName(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1);
}

/** Pseudo-files that are never a real target (`2>/dev/null` is not a write outside the project, `head -c 16 /dev/urandom` no read). */
const STREAM_PATHS = new Set(['/dev/null', '/dev/zero', '/dev/full', '/dev/random', '/dev/urandom', '/dev/stdout', '/dev/stderr', '/dev/stdin', '/dev/tty', '-']);

/**
 * A web API's route written as an argument (`./api.sh /v1/waf/rule`, `call /api/users/42`, `/graphql`): the
 * address of a resource on a server, not a file of this machine (no system keeps a `/v1` or `/api` at its root).
 */
export function isApiRoute(word: string): boolean {
  return /^\/(?:v\d+(?:\.\d+)?|api|graphql|rest)(?:\/|$)/i.test(word);
}

/** Null devices and standard streams, also Windows' `nul` (`2>nul`), which is no file either. */
export function isStreamPath(path: string): boolean {
  // PowerShell's `2>$null` and `> $null` discard, as cmd's `> nul` does.
  return STREAM_PATHS.has(path) || /^\/dev\/fd\/\d+$/.test(path) || /^&\d$/.test(path) || /^(?:nul|con)(?::)?$/i.test(path) || /^\\\\\.\\nul$/i.test(path) || /^\$null$/i.test(path);
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

/** A path a text names: from `~`, `/` (not `//`, as in a URL), a drive or a share, to a space, a quote or a closing bracket. */
const NAMED_PATH = /(?<![\w.~/\\-])(?:~|\/(?![/\s])|[A-Za-z]:[\\/]|\\\\(?=\w))[^\s"'`)>\]，。、；：！？]*/g;

/**
 * Absolute, home, Windows and share paths written in a text (the task the user gave), resolved:
 * `/Users/ann/brief.md`, `~/notes/x`, `C:\\data\\in.csv`, `\\\\nas\\share\\report.xlsx`, `/srv/app`. A path
 * starts after anything that cannot be part of one (a space, a quote, or a word in another script:
 * `請閱讀/Users/…`). Which of them a task may hand over is the caller's to judge (a system directory is not).
 */
export function pathsNamedIn(text: string | undefined, cwd?: string, home?: string): string[] {
  if (!text) return [];
  const found = new Set<string>();
  for (const match of text.slice(0, 20_000).matchAll(NAMED_PATH)) {
    // An error's location names the file (`/home/me/.zprofile:20: no such file`, `src/x.ts:12:5`): the line and column are not part of it.
    const path = match[0].replace(/[.,;:!?]+$/, '').replace(/(?::\d+)+$/, '');
    if (path.length > 2) found.add(resolvePath(path, cwd, home));
    if (found.size >= 32) break;
  }
  return [...found];
}
