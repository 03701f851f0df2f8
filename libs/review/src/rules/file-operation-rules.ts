import { commandName, readRm } from '../parsing/command-facts.js';
import type { ParsedAction } from '../parsing/parsed-action.js';
import { resolvePath } from '../parsing/paths.js';
import { basename } from '../parsing/shell-command.js';
import { builtInRule } from './built-in-rule.js';

const DELETE_COMMANDS = new Set(['rmdir', 'unlink', 'shred']);
const DELETE_OPERATIONS = /^(?:delete|remove|rm|rmdir)$/i;

export const recursiveDeletionRule = builtInRule({
  name: 'recursive_deletion',
  description: 'rm -r of anything: everything below the target goes at once.',
  reads: 'action',
  check({ action }) {
    const hit = action.segments.map(readRm).find((rm) => rm?.recursive);
    if (!hit) return null;
    // A repository's .git is its whole history: losing it is not a clean-up.
    const repository = hit.targets.find((t) => /(?:^|\/)\.git\/?$/.test(t));
    if (repository) {
      return {
        verdict: 'require_approval',
        score: 0.85,
        factors: ['file_deletion', 'recursive', 'repository_history'],
        reason: `Deleting ${repository} throws away the repository's whole history, branches and stashes. A person must approve it.`,
        alternative: 'Leave .git alone; to undo changes use git restore or git revert.',
      };
    }
    return {
      verdict: 'warn',
      score: 0.7,
      factors: ['file_deletion', 'recursive'],
      reason: `Recursive deletion of ${hit.targets.join(' ') || 'the given paths'} removes everything below it and cannot be undone: make sure nothing in it is needed.`,
      alternative: 'List the directory first, and delete only output you created (build, dist, caches).',
    };
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

/** What a deletion removes: rm/rmdir/unlink/shred targets and find's start directory for shell lines, else the written paths. */
function deletedPaths(action: ParsedAction, cwd: string | undefined): string[] {
  const deleted: string[] = [];
  if (action.command === undefined) deleted.push(...action.writtenPaths);
  for (const segment of action.segments) {
    const cmd = commandName(segment);
    const rm = readRm(segment);
    if (rm) deleted.push(...rm.targets);
    else if (DELETE_COMMANDS.has(cmd)) deleted.push(...segment.argv.slice(1).filter((a) => !a.startsWith('-')));
    else if (cmd === 'find' && segment.argv[1] && !segment.argv[1].startsWith('-')) {
      const deletes = segment.argv.includes('-delete') || segment.argv.some((a, i) => a === '-exec' && basename(segment.argv[i + 1] ?? '') === 'rm');
      if (deletes) deleted.push(segment.argv[1]);
    }
  }
  // A relative path without a known working directory cannot be placed; the agent runs in its project.
  return deleted.map((p) => resolvePath(p, cwd)).filter((p) => p.startsWith('/') || p.startsWith('~'));
}

export const deletionOutsideProjectRule = builtInRule({
  name: 'deletion_outside_project',
  description: "Deleting a path outside the session's expected scope is blocked.",
  reads: 'session',
  check({ action, session, inScope }) {
    if (!action.intents.includes('file_deletion')) return null;
    const outside = deletedPaths(action, session.context.cwd).find((p) => !inScope(p));
    if (outside === undefined) return null;
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
