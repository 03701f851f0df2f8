import { isTempPath, PATCH_FIELDS } from '@warden/actions';
import type { Intent } from '../parsing/intent.js';
import type { ParsedAction } from '../parsing/parsed-action.js';
import { isConnectionFailure, type ActionRecord, type ReviewSession } from '../session/review-session.js';
import { isConfigFile, isEnvTemplateBeside, isSecretsEnvFile } from './config-files.js';
import type { PrerequisiteCheck, ToolValidator, ValidationContext, ValidationResult } from './tool-validator.js';

const WRITE_INTENTS: ReadonlySet<Intent> = new Set(['file_creation', 'file_modification', 'file_deletion']);

/** How many of the session's last actions a failure counts as recent. */
export const RECENT_ACTIONS = 10;

/** An exit status other than 1 named in an error (`Exit code: 2`, `exit status 127`). */
const OTHER_EXIT_STATUS = /exit (?:code|status)\W{0,3}(?!1\b)\d+/i;

/** A search that exited 1 found nothing: no failure to react to. */
function foundNothing(record: ActionRecord): boolean {
  return !!record.shell?.searches && !OTHER_EXIT_STATUS.test(record.error?.message ?? '');
}

/**
 * A command or request failed among the last RECENT_ACTIONS actions and has not succeeded since (a tool refusing
 * its own input is no such failure, nor a search that found nothing); `connection`: one that could not reach a
 * service.
 */
function failedRecently(session: ReviewSession, connection = false): boolean {
  const history = session.history;
  const from = Math.max(0, history.length - RECENT_ACTIONS);
  for (let i = history.length - 1; i >= from; i--) {
    const record = history[i]!;
    if (record.status !== 'error' || !(record.shell !== undefined || record.intent === 'network_request')) continue;
    if ((connection && !isConnectionFailure(record)) || foundNothing(record)) continue;
    // The same command run again with success (`git push` after the rejection was dealt with): that failure is over.
    if (history.slice(i + 1).some((later) => later.key === record.key && later.status === 'success')) continue;
    return true;
  }
  return false;
}

/**
 * Whole-file writes that refuse to overwrite a file the session has not read: Claude Code's Write, and
 * OpenCode's write (`FileTime.assert` when the file exists, anomalyco/opencode packages/opencode/src/tool/write.ts).
 * Such a write of a path the session never saw creates that file, and there is no current configuration to review.
 */
const WRITES_ONLY_WHAT_WAS_READ: Readonly<Record<string, string>> = { 'claude-code': 'Write', opencode: 'write' };

function createsFile(action: ParsedAction, session: ReviewSession, path: string): boolean {
  const kind = session.context.agentKind;
  return kind !== undefined && WRITES_ONLY_WHAT_WAS_READ[kind] === action.tool && !session.hasSeen(path);
}

/** Read it, or wrote it earlier in the session with success: either way the agent knows what it holds. */
function knows(session: ReviewSession, path: string): boolean {
  return session.hasRead(path) || session.history.some((r) => r.status === 'success' && r.writtenPaths.includes(path));
}

/** Fields in which an edit quotes the text it replaces (Edit, str_replace, Antigravity's replace_file_content, edit lists). */
const REPLACED_TEXT = ['old_string', 'old_str', 'oldText', 'old_text', 'TargetContent'] as const;

/**
 * An edit that quotes the text it replaces can only apply to the file as it is: the agent has seen the values
 * it changes (in its editor's context, a file it was shown), whether or not this session read the file.
 */
function quotesWhatItReplaces(input: Record<string, unknown>): boolean {
  const quotes = (o: unknown) => !!o && typeof o === 'object' && REPLACED_TEXT.some((k) => typeof (o as Record<string, unknown>)[k] === 'string' && ((o as Record<string, string>)[k] ?? '').trim() !== '');
  if (quotes(input)) return true;
  // Codex's apply_patch that only updates files, quoting the lines it removes: it applies only to the files as they are.
  const patch = PATCH_FIELDS.map((k) => input[k]).map((v) => (Array.isArray(v) ? v.filter((x) => typeof x === 'string').join('\n') : v)).find((v): v is string => typeof v === 'string' && v.includes('*** Begin Patch'));
  if (patch !== undefined) return !/^\*\*\* (?:Add|Delete) File:/m.test(patch) && /^\*\*\* Update File:/m.test(patch) && /^-(?!--)/m.test(patch);
  const lists = ['edits', 'ReplacementChunks', 'changes'].map((k) => input[k]).filter(Array.isArray) as unknown[][];
  return lists.some((list) => list.length > 0 && list.every(quotes));
}

/**
 * An env file set up from the template beside it that the session read or wrote (`.env` after
 * `.env.example`): the agent knows which values it holds, and no failure is being worked around.
 */
function setUpFromTemplate(session: ReviewSession, path: string): boolean {
  return session.history.some((r) => r.status !== 'error' && r.paths.some((p) => isEnvTemplateBeside(p, path)));
}

/**
 * The bypass trap (seed 004): rewriting configuration instead of understanding it. A write, creation or
 * deletion (shell redirects included) of a configuration or env file the session has not read needs the
 * user's confirmation, unless the edit quotes the values it replaces (then the agent has seen them) and no
 * connection failed just before. The seed asks on every write to a path containing "config" or "env"; Warden asks
 * only when that write looks like a reaction to a failure (one among the last RECENT_ACTIONS actions) or
 * touches an env file with real values (not one set up from its template), so that setting up a new
 * project's config in a quiet session goes ahead.
 */
export class FileSystemValidator implements ToolValidator {
  readonly id = 'filesystem_safety';

  appliesTo(action: ParsedAction): boolean {
    return action.writtenPaths.length > 0 && action.intents.some((i) => WRITE_INTENTS.has(i));
  }

  validate(action: ParsedAction, context: ValidationContext): ValidationResult {
    const paths = this.unverifiedPaths(action, context.session);
    if (!paths.length) return { kind: 'approve' };
    const checks = paths.map(
      (path): PrerequisiteCheck => ({
        description: 'Review existing configuration',
        method: { type: 'user_confirmation', question: `Should I modify ${path}? Have you verified the current config?` },
        success_criteria: 'User confirms config change is appropriate',
        priority: 8,
      }),
    );
    const why = failedRecently(context.session) ? 'right after a failure' : 'and it holds environment values';
    const reason = `${paths.join(', ')} ${paths.length === 1 ? 'is configuration' : 'are configuration'} this session has not read, changed ${why}: review the current configuration before changing it.`;
    return { kind: 'require_prerequisites', reason, checks };
  }

  alternatives(action: ParsedAction, context: ValidationContext): string[] {
    const paths = this.unverifiedPaths(action, context.session);
    return [`Read ${paths.join(', ') || 'the existing configuration'} first`, 'Correct the value that is wrong instead of rewriting or working around the configuration'];
  }

  private unverifiedPaths(action: ParsedAction, session: ReviewSession): string[] {
    // A scratch file in a temporary directory (`/tmp/env-manual.env` a test writes) configures nothing the user keeps.
    const unread = action.writtenPaths.filter((p) => isConfigFile(p) && !isTempPath(p) && !knows(session, p) && !createsFile(action, session, p));
    if (!unread.length) return [];
    // An edit that quotes the values it replaces was made knowing them: it corrects a value it saw, where a blind
    // rewrite would replace what it never read. Right after a connection failure it is still the trap the seed
    // names (changing the configuration instead of checking the endpoint), and is asked about.
    if (quotesWhatItReplaces(action.input) && !failedRecently(session, true)) return [];
    if (failedRecently(session)) return unread;
    return unread.filter((p) => isSecretsEnvFile(p) && !setUpFromTemplate(session, p));
  }
}
