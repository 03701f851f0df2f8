import { SECRET_KEY, SECRET_PATTERNS } from '@warden/secrets';
import type { ParsedAction } from '../parsing/parsed-action.js';
import { DerivedValue } from '../derived-value.js';

/** The secrets an action's input carries in clear text. */
export interface ActionSecrets {
  /** Kinds found (`github_token`, `assigned_secret`, `named_secret` …); empty when none. */
  kinds: string[];
  /** Input fields that carry them (`command`, `headers.Authorization`). */
  fields: string[];
  /** Whether any is in file content being written (`content`, `new_string`). */
  inFileContent: boolean;
}

/** Secrets whose shape alone identifies them; the only ones looked for in file content, where `token = getToken()` is ordinary code. */
const DISTINCT_KINDS = new Set(['private_key', 'aws_access_key', 'github_token', 'gitlab_token', 'slack_token', 'stripe_key', 'anthropic_key', 'openai_key', 'google_api_key', 'npm_token', 'jwt']);
const CONTENT_FIELDS = new Set(['content', 'contents', 'new_string', 'new_str', 'new_source', 'file_text', 'patch', 'diff']);
/** Fields that repeat what is already on disk. */
const SKIPPED_FIELDS = new Set(['old_string', 'old_str']);
/** A value that names a secret instead of holding it: `$TOKEN`, `$(gh auth token)`, `process.env.KEY`, `<your-key>`. */
const REFERENCE = /^(?:[$`<%]|\{\{|process\.env|os\.environ|ENV\[|getenv|\*{3,}|x{4,}|\.{3}|your[-_]|replace[-_]?(?:with|me)|changeme|example|placeholder|dummy|redacted|\[REDACTED)/i;
/**
 * A value that says it is a stand-in for tests: `test-key`, `fake_token`, `dummy-secret`, `mock`, and the wrong
 * one a login's failure is tried with (`wrongpassword`, `invalid_token`).
 */
const TEST_VALUE = /^(?:test|testing|fake|mock|sample|demo|dummy|local|dev|wrong|invalid|incorrect|bad|bogus)(?:[-_]?(?:api[-_]?)?(?:key|token|secret|password|pass|pwd|value))?$/i;
/** A patch (Codex's `*** Begin Patch`, a unified diff), whatever field carries it: file content being written. */
const PATCH_TEXT = /^\s*(?:\*\*\* Begin Patch|diff --git |--- \S[^\n]*\n\+\+\+ )/;
/** Keys that end like a secret's and hold none: pagination and sync cursors. */
const CURSOR_KEY = /(?:page|next|continuation|sync|cursor)[_-]?token$/i;
const MAX_DEPTH = 8;
/** Beyond this, a field is not scanned further: a review must stay fast on huge writes. */
const MAX_SCANNED = 128 * 1024;
/**
 * Warden's own redaction marker: a secret of that kind was there. An action comes with markers when the
 * seal of its secrets could not be opened (no seal key), or from the audit (an explanation replayed).
 */
const WARDEN_MARKER = /\[REDACTED:([a-z0-9_]+)\]/g;
const MARKED_KINDS = new Set([...SECRET_PATTERNS.map((p) => p.kind), 'named_secret']);
const NONE: ActionSecrets = Object.freeze({ kinds: [], fields: [], inFileContent: false }) as ActionSecrets;

const secrets = new DerivedValue((action: ParsedAction) => scan(action));

/**
 * What every match of a pattern contains, in lower case: a long command without any of it (nearly every
 * one) is not scanned by that pattern. Only where the test costs less than the pattern on a text without
 * a match (measured on 4 KB commands: one expression of alternatives beats a row of `includes`). The patterns are matched
 * case-insensitively, which equates ASCII letters only, so the lower-cased text keeps every such word.
 * Written for the patterns of @warden/secrets as they are; action-secrets.spec.ts fails when one changes.
 */
export const MAY_MATCH: Readonly<Record<string, (lower: string) => boolean>> = {
  github_token: (t) => t.includes('gh') && (t.includes('github_pat_') || /gh[pousr]_/.test(t)),
  gitlab_token: (t) => t.includes('glpat-'),
  slack_token: (t) => t.includes('xox'),
  jwt: (t) => t.includes('eyj'),
  bearer_token: (t) => /bearer|basic|token/.test(t),
  url_credentials: (t) => t.includes('://') && t.includes('@'),
  assigned_secret: (t) => /passw|pwd|secret|token|key|credential/.test(t),
  flag_secret: (t) => /passw|secret|token|key/.test(t),
};

/**
 * `Bearer`, `Basic` and `Token` followed by a word are also prose ("Token Standard", a commit message
 * about tokens): a credential after them has digits and some length.
 */
function plausible(kind: string, value: string): boolean {
  if (kind !== 'bearer_token') return true;
  return (/\d/.test(value) && value.length >= 12) || value.length >= 32;
}

function literalSecretKinds(text: string, contentOnly: boolean, kinds: Set<string>): boolean {
  const scanned = text.length > MAX_SCANNED ? text.slice(0, MAX_SCANNED) : text;
  let lower: string | undefined;
  let found = false;
  for (const { kind, pattern, valueGroup } of SECRET_PATTERNS) {
    if (contentOnly && !DISTINCT_KINDS.has(kind)) continue;
    const mayMatch = MAY_MATCH[kind];
    if (mayMatch && !mayMatch((lower ??= scanned.toLowerCase()))) continue;
    pattern.lastIndex = 0;
    for (let match = pattern.exec(scanned); match; match = pattern.exec(scanned)) {
      const value = valueGroup ? match[valueGroup] : match[0];
      if (value && !REFERENCE.test(value) && !TEST_VALUE.test(value) && plausible(kind, value)) {
        kinds.add(kind);
        found = true;
        break;
      }
    }
    pattern.lastIndex = 0;
  }
  if (scanned.includes('[REDACTED:')) {
    for (const [, kind] of scanned.matchAll(WARDEN_MARKER)) {
      if (!MARKED_KINDS.has(kind!) || (contentOnly && !DISTINCT_KINDS.has(kind!))) continue;
      kinds.add(kind!);
      found = true;
    }
  }
  return found;
}

function scan(action: ParsedAction): ActionSecrets {
  const kinds = new Set<string>();
  const fields: string[] = [];
  let inFileContent = false;
  const walk = (value: unknown, path: string, key: string | undefined, content: boolean, depth: number): void => {
    if (typeof value === 'string') {
      content ||= PATCH_TEXT.test(value.length > 512 ? value.slice(0, 512) : value);
      if (key !== undefined && !content && SECRET_KEY.test(key) && !CURSOR_KEY.test(key) && value.length >= 4 && !REFERENCE.test(value) && !TEST_VALUE.test(value)) {
        kinds.add('named_secret');
        fields.push(path);
      } else if (literalSecretKinds(value, content, kinds)) {
        fields.push(path);
        inFileContent ||= content;
      }
    } else if (depth < MAX_DEPTH && Array.isArray(value)) {
      value.forEach((item, i) => walk(item, `${path}[${i}]`, undefined, content, depth + 1));
    } else if (depth < MAX_DEPTH && value !== null && typeof value === 'object') {
      for (const [name, item] of Object.entries(value)) {
        if (!SKIPPED_FIELDS.has(name)) walk(item, path ? `${path}.${name}` : name, name, content || CONTENT_FIELDS.has(name), depth + 1);
      }
    }
  };
  walk(action.input, '', undefined, false, 0);
  return kinds.size ? { kinds: [...kinds], fields, inFileContent } : NONE;
}

/** The secrets in an action's input, found once per parsed action. */
export function secretsOf(action: ParsedAction): ActionSecrets {
  return secrets.of(action);
}
