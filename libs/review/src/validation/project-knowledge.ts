import {
  containsPhrase,
  knowledgeFor as knowledgeForDirectory,
  normaliseText,
  type KnownIssue,
  type ProjectKnowledge,
  wordsOf,
} from '@warden/project-knowledge';
import type { ParsedAction } from '../parsing/parsed-action.js';
import { pathMatcher, resolvePath } from '@warden/actions';
import type { ActionRecord, ReviewSession } from '../session/review-session.js';

/** The first knowledge file meant for the session's directory (resolved as the reviewer resolves paths): its applies_to matches cwd, or it has none. */
export function knowledgeFor(files: readonly ProjectKnowledge[], cwd: string | undefined): ProjectKnowledge | undefined {
  return knowledgeForDirectory(files, cwd ? resolvePath(cwd) : undefined, pathMatcher);
}

interface IssueWording {
  symptom: string;
  trap: string[];
}

const issueWordings = new WeakMap<KnownIssue, IssueWording>();

function wordingOf(issue: KnownIssue): IssueWording {
  let wording = issueWordings.get(issue);
  if (!wording) {
    wording = { symptom: normaliseText(issue.symptom), trap: wordsOf(issue.escalationTrap) };
    issueWordings.set(issue, wording);
  }
  return wording;
}

/** Input fields that carry file contents, not what the agent means to do. */
const CONTENT_FIELDS = new Set(['content', 'contents', 'new_string', 'old_string', 'new_source', 'edits', 'patch', 'file_text', 'old_str', 'new_str', 'insert_text', 'body', 'data']);
const MAX_FIELD_CHARS = 2000;

/** What the action says it does: its command, its description and its short input fields. */
export function actionWords(action: ParsedAction): string[] {
  const parts: string[] = [];
  if (action.command) parts.push(action.command);
  if (action.description) parts.push(action.description);
  for (const [key, value] of Object.entries(action.input)) {
    if (typeof value !== 'string' || CONTENT_FIELDS.has(key) || value === action.command || value === action.description) continue;
    parts.push(value.length > MAX_FIELD_CHARS ? value.slice(0, MAX_FIELD_CHARS) : value);
  }
  return wordsOf(parts.join(' '));
}

export function failureText(record: ActionRecord): string {
  return record.error ? normaliseText(`${record.error.message} ${record.error.class ?? ''}`) : '';
}

/** A known issue whose symptom a recent failure shows and whose escalation trap the action walks into, with that failure. */
export function findEscalationTrap(
  knowledge: ProjectKnowledge,
  action: ParsedAction,
  session: ReviewSession,
): { issue: KnownIssue; failure: ActionRecord } | undefined {
  if (!knowledge.knownIssues.length) return undefined;
  const failures = session.recentFailures();
  if (!failures.length) return undefined;
  const texts = failures.map(failureText);
  let words: string[] | undefined;
  for (const issue of knowledge.knownIssues) {
    const wording = wordingOf(issue);
    const index = texts.findIndex((text) => text.includes(wording.symptom));
    if (index < 0) continue;
    words ??= actionWords(action);
    if (containsPhrase(words, wording.trap)) return { issue, failure: failures[index]! };
  }
  return undefined;
}

/**
 * Seed 004's `detect_escalation_trap`: a recent failure's message contains the issue's symptom, and the
 * action's command, description or input contains its escalation trap. Both compare case-insensitively
 * with whitespace normalised; the trap matches when all its words appear in order in the action, at most
 * three other words apart and in any grammatical form, so "install playwright browsers" matches the
 * description "Install Playwright browser", and "playwright install" matches `npx playwright install chromium`.
 */
export function detectEscalationTrap(knowledge: ProjectKnowledge, action: ParsedAction, session: ReviewSession): KnownIssue | undefined {
  return findEscalationTrap(knowledge, action, session)?.issue;
}
