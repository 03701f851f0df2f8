import { isHomeRoot, resolvePath, tildeForm } from './paths.js';

/**
 * A session started in the home directory (`claude` run in `~`, Codex in `C:\Users\me`) has no project of its
 * own: its declared scope, the whole home, would make the user's every file "the project" (and ~/.ssh with
 * them), and everything it works on elsewhere (`/var/www/app`) "outside". Such a session scopes itself to what
 * it works on: the directories it reads, lists, enters or creates (its work roots), and what the user named.
 */

/** The system's own directories, the drive roots and where homes are kept: never a work root. */
const NOT_A_ROOT = /^(?:\/(?:etc|usr|bin|sbin|lib|lib32|lib64|boot|sys|proc|dev|run|var|srv|opt|mnt|media|home|Users|Volumes|private|System|Library|Applications|tmp)|[a-z]:(?:\/(?:windows|program files(?: \(x86\))?|programdata|users))?)\/?$|^\/(?:etc|usr|bin|sbin|lib|lib32|lib64|boot|sys|proc|dev|System|Library)\/|^[a-z]:\/(?:windows|program files(?: \(x86\))?)\//i;

/** Whether a session's declared scope is a whole home directory: its working directory, and any expected path, a home. */
export function scopeIsHome(cwd: string | undefined, expectedPaths: readonly string[] = []): boolean {
  if (!cwd) return false;
  const home = resolvePath(cwd);
  if (!isHomeRoot(home)) return false;
  return expectedPaths.every((glob) => isHomeRoot(resolvePath(glob.replace(/[\\/]\*\*$/, ''), cwd)));
}

/** A file's name (`App.tsx`, `.env.example`), not a directory's: what a read names is then its directory. */
const FILE_NAME = /(?:^|\/)[^/]*[^/.]\.[A-Za-z0-9]{1,8}$/;

/**
 * Whether `path` (canonical) is a file directly in `home` (canonical), by its name (`notes.md`, `test.txt`), not
 * a dot-file (`.bashrc`) and not a directory (`Documents`): what a session started in its home writes in the
 * directory it was started in (`echo hi > test.txt`), as any session does in its own.
 */
export function isFileOfHome(path: string, home: string): boolean {
  const name = path.startsWith(`${home}/`) ? path.slice(home.length + 1) : undefined;
  return name !== undefined && !name.includes('/') && !name.startsWith('.') && FILE_NAME.test(name);
}

/**
 * The directory that reading, listing, entering or creating `path` (canonical) makes part of what a session
 * started in its home works on, or undefined: not a home itself, not a dot-directory of a home (~/.ssh,
 * ~/.claude: the user's and the tools' own), not the system's directories or the root of a disk.
 */
export function workRootOf(path: string): string | undefined {
  let root = path.replace(/\/+$/, '');
  if (FILE_NAME.test(root)) root = root.slice(0, root.lastIndexOf('/'));
  if (!root || root === '~' || isHomeRoot(root) || NOT_A_ROOT.test(root)) return undefined;
  if (/^~\/\./.test(tildeForm(root)) || !/^(?:\/|[a-z]:\/|\/\/)/i.test(root)) return undefined;
  // At least two levels down from the root of the file system (`/var/www`, `/data/app`, `c:/dev/app`).
  if (root.split('/').filter(Boolean).length < 2) return undefined;
  return root;
}

/** `git worktree add`'s options that take the next word as their value. */
const WORKTREE_VALUED = /^(?:-b|-B|--reason)$/;
/** A `git … worktree add …` command of a line, up to the end of its command. */
const WORKTREE_ADD = /\bgit((?:\s+-[Cc]\s+\S+|\s+--git-dir(?:=|\s+)\S+|\s+--work-tree(?:=|\s+)\S+)*)\s+worktree\s+add\s+([^;&|\n]+)/g;

/**
 * The directories `git worktree add` creates in a command line (`git worktree add ../app-fix -b fix`), resolved
 * against `git -C`'s directory or `cwd`: checkouts of the project's own repository, so the project's, wherever
 * they lie.
 */
export function worktreesAddedIn(command: string, cwd?: string): string[] {
  if (!command.includes('worktree')) return [];
  const found: string[] = [];
  for (const match of command.matchAll(WORKTREE_ADD)) {
    const base = /-C\s+(\S+)/.exec(match[1] ?? '')?.[1];
    const from = base ? resolvePath(base.replace(/^["']|["']$/g, ''), cwd) : cwd;
    const words = match[2]!.match(/"[^"]*"|'[^']*'|\S+/g) ?? [];
    for (let i = 0; i < words.length; i++) {
      const word = words[i]!;
      if (WORKTREE_VALUED.test(word)) i++;
      else if (!word.startsWith('-')) {
        found.push(resolvePath(word.replace(/^["']|["']$/g, ''), from));
        break;
      }
    }
  }
  return found;
}
