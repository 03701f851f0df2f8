import { resolvePath, workRootOf } from '@warden/actions';
import { commandName, nonOptions } from '../parsing/command-facts.js';
import type { ParsedAction } from '../parsing/parsed-action.js';
import { segmentDirectory } from '../parsing/segment-paths.js';

/**
 * What an action of a session started in its home directory shows it works on (@warden/actions workRootOf):
 * the directories a read, listing or search looks at, those a `cd` of the line enters, those `mkdir` creates.
 * Writes elsewhere stay outside until a person approves them; reads never hand over a home's dot-directories
 * or the system's.
 */
export function workRootsOf(action: ParsedAction, cwd: string | undefined): string[] {
  const found = new Set<string>();
  const add = (path: string | undefined) => {
    const root = path === undefined ? undefined : workRootOf(path);
    if (root) found.add(root);
  };
  if (action.readOnly) for (const path of action.paths) add(path);
  for (const segment of action.segments) {
    if (segment.remoteHost !== undefined) continue;
    if (segment.cwd !== undefined && segment.cwd !== '?') add(resolvePath(segment.cwd, cwd));
  }
  for (const root of createdRootsOf(action, cwd)) found.add(root);
  return [...found].slice(0, 16);
}

/** A word's brace lists as the shell expands them (`app/{src,test}` → `app/src`, `app/test`), at most 16. */
export function braceExpanded(word: string): string[] {
  const group = /\{([^{}]*,[^{}]*)\}/.exec(word);
  if (!group) return [word];
  const head = word.slice(0, group.index);
  const tail = word.slice(group.index + group[0].length);
  return group[1]!.split(',').flatMap((part) => braceExpanded(`${head}${part}${tail}`)).slice(0, 16);
}

/**
 * The directories `mkdir` of the line creates: making a directory harms nothing, and a session started in its
 * home that makes one (`mkdir -p ~/code/app`, `cd ~/app && mkdir -p src/{lib,test}`) is starting its work there.
 * Taken before the action is judged. A relative one is read from the line's `cd`, or from where the session runs.
 */
export function createdRootsOf(action: ParsedAction, cwd: string | undefined): string[] {
  const found: string[] = [];
  for (const segment of action.segments) {
    if (segment.remoteHost !== undefined || commandName(segment) !== 'mkdir') continue;
    const base = segmentDirectory(segment, cwd);
    // The word as written too: Warden reads the line's paths unexpanded.
    for (const dir of nonOptions(segment.argv).flatMap((word) => [...new Set([word, ...braceExpanded(word)])])) {
      const absolute = /^[/~]|^[a-z]:[\\/]/i.test(dir);
      const root = absolute || (base !== undefined && /^[/~]|^[a-z]:[\\/]/i.test(base)) ? workRootOf(resolvePath(dir, absolute ? cwd : base)) : undefined;
      if (root && !found.includes(root)) found.push(root);
    }
  }
  return found.slice(0, 16);
}
