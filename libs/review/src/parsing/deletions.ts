import { resolvePath } from '@warden/actions';
import { DerivedValue } from '../derived-value.js';
import { commandName, isProtectedPath, readRm } from './command-facts.js';
import type { ParsedAction } from './parsed-action.js';
import { segmentsRunning } from './segment-index.js';
import { segmentDirectory } from './segment-paths.js';
import { windowsDeletions } from './windows-commands.js';
import type { ShellSegment } from './shell-command.js';

/** One path a shell command deletes. */
export interface Deletion {
  /** Resolved against the directory the command runs in; `host:path` for a command run on another host. */
  target: string;
  recursive: boolean;
  /** A recursive deletion of a system directory or a home (`rm -rf /etc`, `rm -rf ~`). */
  critical: boolean;
  /** The host it runs on when not here (`ssh host rm …`). */
  remoteHost?: string;
}

/** Only these delete what they name; find's -delete is reviewed as the rm it amounts to. */
const DELETERS = new Set(['rm', 'rmdir', 'unlink', 'shred']);

/**
 * The paths rm, rmdir, unlink or shred is asked to delete. cmd's `rmdir /s /q build` shares rmdir's name: its
 * switches are not paths.
 */
export function deletionTargets(segment: ShellSegment): string[] {
  const rm = readRm(segment);
  if (rm) return rm.targets;
  const cmd = commandName(segment);
  if (cmd === 'rmdir' || cmd === 'unlink' || cmd === 'shred') return segment.argv.slice(1).filter((a) => !a.startsWith('-') && !(cmd === 'rmdir' && /^\/[a-zA-Z]$/.test(a)));
  return [];
}

const SHELL_DELETIONS = new DerivedValue((action: ParsedAction): Deletion[] => {
  const out: Deletion[] = [];
  for (const segment of segmentsRunning(action.segments, DELETERS)) {
    const recursive = !!readRm(segment)?.recursive;
    for (const raw of deletionTargets(segment)) {
      const directory = segmentDirectory(segment, action.cwd);
      const target = segment.remoteHost ? `${segment.remoteHost}:${raw}` : resolvePath(raw, directory);
      out.push({ target, recursive, critical: recursive && isProtectedPath(raw), ...(segment.remoteHost ? { remoteHost: segment.remoteHost } : {}) });
    }
  }
  // `Remove-Item -Recurse C:\Users\me\Documents`, `rd /s /q build`: bash's reading of them lost their backslashes.
  for (const { paths, recursive } of windowsDeletions(action)) {
    for (const raw of paths) {
      const target = resolvePath(raw, action.cwd);
      if (!out.some((d) => d.target === target)) out.push({ target, recursive, critical: recursive && isProtectedPath(raw) });
    }
  }
  return out;
});

/** What the action's shell commands delete, in line order (read once per action). */
export function shellDeletions(action: ParsedAction): readonly Deletion[] {
  return SHELL_DELETIONS.of(action);
}

/** A tool that deletes (not a shell command): the paths it names are deleted. */
export function deletesByTool(action: ParsedAction): boolean {
  return !action.segments.length && action.intents.includes('file_deletion');
}

/** Every path the action deletes: its shell commands' targets, or a deleting tool's paths. */
export function deletedPaths(action: ParsedAction): string[] {
  const paths = shellDeletions(action).map((d) => d.target);
  if (deletesByTool(action)) for (const path of action.writtenPaths) if (!paths.includes(path)) paths.push(path);
  return paths;
}
