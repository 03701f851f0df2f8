import { readRm } from '../parsing/command-facts.js';
import { deletionTargets } from '../parsing/deletions.js';
import { windowsDeletions } from '../parsing/windows-commands.js';
import type { ParsedAction } from '../parsing/parsed-action.js';
import { inTempDirectory, resolvePath } from '@warden/actions';
import { segmentsRunning } from '../parsing/segment-index.js';
import { segmentDirectory } from '../parsing/segment-paths.js';
import type { ShellSegment } from '../parsing/shell-command.js';
import { builtInRule } from './built-in-rule.js';

const DELETERS = new Set(['rm', 'rmdir', 'unlink', 'shred']);
const DELETE_OPERATIONS = /^(?:delete|remove|rm|rmdir)$/i;

interface Deletion {
  /** As written. */
  raw: string;
  /** Resolved against the segment's directory; undefined when its value is only known at run time. */
  path: string | undefined;
  recursive: boolean;
  segment: ShellSegment;
}

/** What each rm (or rmdir, unlink, shred, or a deletion in another language) of the line deletes. */
export function deletionsOf(action: ParsedAction, cwd: string | undefined): Deletion[] {
  const deletions: Deletion[] = [];
  for (const segment of segmentsRunning(action.segments, DELETERS)) {
    const rm = readRm(segment);
    const targets = deletionTargets(segment);
    if (!targets.length) continue;
    const directory = segmentDirectory(segment, cwd);
    for (const raw of targets) {
      const index = segment.argv.lastIndexOf(raw);
      const dynamic = segment.dynamic[index] === true || /[{]input[}]|[{]expression[}]|^\$|`/.test(raw) || (segment.cwd === '?' && !/^[/~]/.test(raw));
      deletions.push({ raw, path: dynamic ? undefined : resolvePath(raw, directory), recursive: !!rm?.recursive, segment });
    }
  }
  return deletions;
}

function isAncestorOrSame(path: string, of: string): boolean {
  return of === path || of.startsWith(`${path.replace(/\/+$/, '')}/`) || path === '/';
}

export const recursiveDeletionRule = builtInRule({
  name: 'recursive_deletion',
  description: "rm -r of the project itself, of a repository's .git, or of a path only known when it runs needs approval; of scratch and build output inside the project it is quiet.",
  reads: 'session',
  check({ action, session }) {
    const cwd = action.cwd;
    const recursive = deletionsOf(action, cwd).filter((d) => d.recursive && !d.segment.remoteHost);
    const unknown = recursive.find((d) => d.path === undefined && !/[{]matches[}]/.test(d.raw));
    if (unknown) {
      return {
        verdict: 'require_approval',
        score: 0.85,
        factors: ['file_deletion', 'recursive', 'unknown_target'],
        reason: `rm -r of ${unknown.raw}${unknown.segment.via ? ` (through ${unknown.segment.via})` : ''}: what it deletes is only known when it runs, so Warden cannot tell whether it is the project, the home directory or scratch. A person must approve it.`,
        alternative: 'Name the directory to delete literally (rm -rf ./build), after listing it.',
      };
    }
    const repository = recursive.find((d) => /(?:^|\/)\.git\/?$/.test(d.raw));
    if (repository) {
      return {
        verdict: 'require_approval',
        score: 0.85,
        factors: ['file_deletion', 'recursive', 'repository_history'],
        reason: `Deleting ${repository.raw} throws away the repository's whole history, branches and stashes. A person must approve it.`,
        alternative: 'Leave .git alone; to undo changes use git restore or git revert.',
      };
    }
    // `rm -rf *` in the project deletes everything in it, like deleting the directory. The project is where the
    // session works and where the rm runs: a line that leaves a directory it had entered (`cd /app && rm -rf
    // vendor/x`) deletes inside the project, not the project.
    const project = recursive.find((d) => {
      if (d.path === undefined || inTempDirectory(d.path)) return false;
      const target = d.path.replace(/\/(?:\*|\.\*|\.\[!.\]\*)$/, '');
      const here = segmentDirectory(d.segment, cwd);
      return [here, session.context.cwd].some((directory) => directory !== undefined && directory !== '?' && isAncestorOrSame(target, resolvePath(directory)));
    });
    if (project) {
      return {
        verdict: 'require_approval',
        score: 0.9,
        factors: ['file_deletion', 'recursive', 'project_root'],
        reason: `rm -r of ${project.raw} deletes the whole project directory (${project.path}), with everything not yet pushed. A person must approve it.`,
        alternative: 'Delete only the generated directories inside the project (build, dist, node_modules), by name.',
      };
    }
    return null;
  },
});

/** Seed 001's rule: a file operation that deletes with `recursive: true`. */
export const preventRecursiveDeletionRule = builtInRule({
  name: 'prevent_recursive_deletion',
  description: 'A file operation that deletes recursively is not allowed.',
  essential: true,
  reads: 'action',
  check({ action }) {
    if (action.command !== undefined || action.input['recursive'] !== true) return null;
    const operation = action.input['operation'] ?? action.input['op'] ?? action.input['action'];
    if (!action.intents.includes('file_deletion') && !(typeof operation === 'string' && DELETE_OPERATIONS.test(operation))) return null;
    const target = action.writtenPaths[0] ?? 'the target';
    return {
      verdict: 'block',
      score: 0.9,
      factors: ['file_deletion', 'recursive'],
      reason: `Recursive deletion is not allowed: deleting ${target} recursively removes everything below it at once.`,
      alternative: 'Delete the specific files you created one by one, or ask the user to remove the directory.',
    };
  },
});

export const limitFileOperationsRule = builtInRule({
  name: 'limit_file_operations',
  description: 'A session may change files at most limits.max_file_operations times.',
  reads: 'session',
  check({ action, session, limits }) {
    if (!action.writtenPaths.length || session.fileOperations < limits.maxFileOperations) return null;
    const n = session.fileOperations + 1;
    return {
      verdict: 'block',
      score: 0.9,
      factors: ['file_operation_limit'],
      reason:
        `File operation limit exceeded (${n} of ${limits.maxFileOperations}). This session has already changed files ${session.fileOperations} times, the most allowed. ` +
        'Stop changing files and report what you have done and what remains; a person can raise the limit or start a new session.',
    };
  },
});

/** A machine's shared temporary directory itself, or all that is in it (Linux, macOS, Windows). */
const SHARED_TEMP_ROOT = /^(?:\/private)?\/(?:var\/)?tmp(?:\/\*?|\/\.\*)?$|^(?:\/private)?\/var\/folders(?:\/\*?)?$|^[a-z]:\/windows\/temp(?:\/\*?)?$/i;

export const deletionOutsideProjectRule = builtInRule({
  name: 'deletion_outside_project',
  description: "Deleting a path outside the session's expected scope is blocked; deleting a whole shared temporary directory needs approval.",
  reads: 'session',
  check({ action, session, inScope }) {
    const cwd = action.cwd;
    const fromTool = action.command === undefined && action.intents.includes('file_deletion') ? action.writtenPaths.map((p) => ({ path: p, remote: undefined as string | undefined })) : [];
    const fromShell = deletionsOf(action, cwd).flatMap((d) => (d.path === undefined ? [] : [{ path: d.path.replace(/\/[{]matches[}]$/, ''), remote: d.segment.remoteHost }]));
    // `Remove-Item -Recurse C:\Users\me\Documents`, `rd /s /q ..\other`: what bash's reading lost with the backslashes.
    const fromWindows = windowsDeletions(action).flatMap(({ paths }) => paths.map((p) => ({ path: resolvePath(p, cwd), remote: undefined as string | undefined })));
    // A relative path without a known working directory cannot be placed; the agent runs in its project.
    const placed = [...fromTool, ...fromShell, ...fromWindows].filter((d) => d.path.startsWith('/') || d.path.startsWith('~') || /^[a-z]:\//.test(d.path));
    // Temporary directories are everyone's scratch space: a file of the session's there is its own, the whole of one is not.
    const shared = placed.find((d) => !d.remote && SHARED_TEMP_ROOT.test(d.path));
    if (shared) {
      return {
        verdict: 'require_approval',
        score: 0.8,
        factors: ['file_deletion', 'shared_resource'],
        reason: `Deleting ${shared.path} deletes every program's temporary files (other sessions' work, sockets, locks), not only this session's. A person must approve it.`,
        alternative: 'Delete the files or directory this session made there by name.',
      };
    }
    // The session's paths are this machine's: a deletion on another host is remote_deletion's (remote-host-rules.ts).
    const hit = placed.find((d) => !d.remote && !inScope(d.path));
    if (hit === undefined) return null;
    const outside = hit.path;
    const scope = session.context.expectedPaths.length ? session.context.expectedPaths.slice(0, 3).join(', ') : session.context.cwd;
    return {
      verdict: 'block',
      score: 0.9,
      factors: ['file_deletion', 'out_of_scope'],
      reason: `Deleting ${outside} reaches outside the paths this session works on${scope ? ` (${scope})` : ''}. Delete only files inside the project you are working on.`,
      alternative: 'If this path really must go, ask the user to delete it.',
    };
  },
});
