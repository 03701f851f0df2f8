import { SECRET_KEY, SECRET_PATTERNS } from './secret-patterns.js';

export interface Redaction<T> {
  value: T;
  /** How many secrets of each kind were replaced. */
  counts: Record<string, number>;
}

const marker = (kind: string) => `[REDACTED:${kind}]`;

function add(counts: Record<string, number>, kind: string, n = 1): void {
  counts[kind] = (counts[kind] ?? 0) + n;
}

/**
 * All the patterns in one regular expression per flag set: a text none of them matches (nearly every
 * text) is returned as it is after one scan per set instead of a replace pass per pattern.
 */
const ANY_SECRET: readonly RegExp[] = (() => {
  const sources = new Map<string, string[]>();
  for (const { pattern } of SECRET_PATTERNS) {
    const flags = pattern.flags.replace('g', '');
    sources.set(flags, [...(sources.get(flags) ?? []), `(?:${pattern.source})`]);
  }
  return [...sources].map(([flags, list]) => new RegExp(list.join('|'), flags));
})();

/**
 * One replacement in a redacted text: at `at` of the text the pass made, `length` characters stand for
 * `original`. A pass's replacements are in the order of the text.
 */
export type Replacement = [at: number, length: number, original: string];

/** How to undo the redaction of one text: each pattern's pass that replaced something, in the order they ran. */
export type TextUndo = Replacement[][];

/**
 * Replaces the secrets found in a text (API keys, tokens, passwords, private keys) with markers. With
 * `undo`, also records what each marker replaced (`undoRedaction` restores the text from it).
 */
export function redactText(text: string, counts: Record<string, number> = {}, undo?: TextUndo): Redaction<string> {
  if (!ANY_SECRET.some((pattern) => pattern.test(text))) return { value: text, counts };
  let value = text;
  for (const { kind, pattern, valueGroup } of SECRET_PATTERNS) {
    pattern.lastIndex = 0;
    const pass: Replacement[] = [];
    // How far this pass's output has moved from its input so far: where the next replacement lands.
    let shift = 0;
    value = value.replace(pattern, (match: string, ...rest: unknown[]) => {
      if (match.includes('[REDACTED:')) return match;
      add(counts, kind);
      const replacement = valueGroup ? (rest.slice(0, valueGroup - 1) as string[]).join('') + marker(kind) : marker(kind);
      if (undo) {
        const offset = rest.find((arg) => typeof arg === 'number') as number;
        pass.push([offset + shift, replacement.length, match]);
        shift += replacement.length - match.length;
      }
      return replacement;
    });
    if (pass.length) undo?.push(pass);
  }
  return { value, counts };
}

/** The text a redaction was made from, given the redacted text and its undo record. */
export function undoRedaction(redacted: string, undo: TextUndo): string {
  let text = redacted;
  for (let p = undo.length - 1; p >= 0; p--) {
    const pass = undo[p]!;
    for (let r = pass.length - 1; r >= 0; r--) {
      const [at, length, original] = pass[r]!;
      text = text.slice(0, at) + original + text.slice(at + length);
    }
  }
  return text;
}

/**
 * Redacts secrets anywhere in a JSON-like value: in every string, and the whole value of keys that
 * name a secret (`password`, `api_key`, `Authorization`...). The input is never changed: what holds a
 * secret is copied, and what holds none is shared with the input (nearly every value, so nothing else is
 * copied). With `undo`, records each redacted text's path and what its markers replaced.
 */
export function redactValue<T>(
  input: T,
  counts: Record<string, number> = {},
  options: { keep?: ReadonlySet<string>; undo?: ValueUndo } = {},
): Redaction<T> {
  const { undo } = options;
  // The path to the value being walked, kept only when the undo record is wanted.
  const path: (string | number)[] = [];
  const walk = (value: unknown, key?: string): unknown => {
    if (key !== undefined && options.keep?.has(key)) return value;
    if (typeof value === 'string') {
      if (key !== undefined && SECRET_KEY.test(key) && value.length > 0 && !value.startsWith('[REDACTED:')) {
        add(counts, 'named_secret');
        undo?.push([[...path], [[[0, marker('named_secret').length, value]]]]);
        return marker('named_secret');
      }
      if (!undo) return redactText(value, counts).value;
      const textUndo: TextUndo = [];
      const redacted = redactText(value, counts, textUndo).value;
      if (textUndo.length) undo.push([[...path], textUndo]);
      return redacted;
    }
    if (Array.isArray(value)) {
      let copy: unknown[] | undefined;
      for (let i = 0; i < value.length; i++) {
        const item: unknown = value[i];
        if (undo) path.push(i);
        const redacted = walk(item);
        if (undo) path.pop();
        if (redacted !== item) (copy ??= value.slice())[i] = redacted;
      }
      return copy ?? value;
    }
    if (value !== null && typeof value === 'object') {
      let copy: Record<string, unknown> | undefined;
      for (const k of Object.keys(value)) {
        const item = (value as Record<string, unknown>)[k];
        if (undo) path.push(k);
        const redacted = walk(item, k);
        if (undo) path.pop();
        if (redacted === item) continue;
        // Spreading and defineProperty keep a "__proto__" key (JSON.parse makes it an own property) a key.
        copy ??= { ...(value as Record<string, unknown>) };
        Object.defineProperty(copy, k, { value: redacted, enumerable: true, writable: true, configurable: true });
      }
      return copy ?? value;
    }
    return value;
  };
  return { value: walk(input) as T, counts };
}

/** How to undo the redaction of a value: each redacted text's path in it and its undo record. */
export type ValueUndo = [path: (string | number)[], undo: TextUndo][];

const MARKER = /\[REDACTED:([a-z0-9_]+)\]/g;

/**
 * Counts the redaction markers in a value, by kind: what a client redacted before it sent the value
 * (Warden's SDK redacts what an agent publishes), for a reader that would count what it redacts itself.
 */
export function countRedactions(value: unknown, counts: Record<string, number> = {}): Record<string, number> {
  if (typeof value === 'string') {
    if (!value.includes('[REDACTED:')) return counts;
    for (const match of value.matchAll(MARKER)) add(counts, match[1]!);
  } else if (Array.isArray(value)) {
    for (const item of value) countRedactions(item, counts);
  } else if (value !== null && typeof value === 'object') {
    for (const item of Object.values(value)) countRedactions(item, counts);
  }
  return counts;
}

export function totalRedactions(counts: Record<string, number>): number {
  return Object.values(counts).reduce((a, b) => a + b, 0);
}

/**
 * Keys whose value is an input the agent is told to run instead of its own (a reviewer's `modify`, an
 * operator's rewrite): kept as given, or the agent would run a redaction marker.
 */
export const INPUT_TO_RUN_KEYS: ReadonlySet<string> = new Set(['modified_input', 'updated_input']);

/**
 * What Warden stores or shows of an action once the reviewer has judged it (stream payloads after the
 * reviewer, KV records, the console's pages): the value with every secret redacted, except the inputs the
 * agent is told to run. The one redaction of the suite; the audit's rows use `redactValue` itself.
 */
export function redactForStorage<T>(value: T): T {
  return redactValue(value, {}, { keep: INPUT_TO_RUN_KEYS }).value;
}
