/**
 * `a/./b/../c` → `a/c`, keeping a leading `/` or `~`; `..` never climbs above `/` or `~`. The one folding of
 * path segments the reviewer's and the pattern detector's path resolution share (they differ on purpose in
 * how they write a home directory and a Windows drive: the reviewer's `~` becomes the home it sees, the
 * pattern detector's home becomes `~`).
 */
export function foldPathSegments(path: string): string {
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
