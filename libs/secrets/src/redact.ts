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

/** Replaces the secrets found in a text (API keys, tokens, passwords, private keys) with markers. */
export function redactText(text: string, counts: Record<string, number> = {}): Redaction<string> {
  let value = text;
  for (const { kind, pattern, valueGroup } of SECRET_PATTERNS) {
    pattern.lastIndex = 0;
    value = value.replace(pattern, (match: string, ...groups: unknown[]) => {
      if (match.includes('[REDACTED:')) return match;
      add(counts, kind);
      if (!valueGroup) return marker(kind);
      const parts = groups.slice(0, valueGroup) as string[];
      return parts.slice(0, valueGroup - 1).join('') + marker(kind);
    });
  }
  return { value, counts };
}

/**
 * Redacts secrets anywhere in a JSON-like value: in every string, and the whole value of keys that
 * name a secret (`password`, `api_key`, `Authorization`...). Returns a copy; the input is untouched.
 */
export function redactValue<T>(input: T, counts: Record<string, number> = {}): Redaction<T> {
  const walk = (value: unknown, key?: string): unknown => {
    if (typeof value === 'string') {
      if (key !== undefined && SECRET_KEY.test(key) && value.length > 0 && !value.startsWith('[REDACTED:')) {
        add(counts, 'named_secret');
        return marker('named_secret');
      }
      return redactText(value, counts).value;
    }
    if (Array.isArray(value)) return value.map((v) => walk(v));
    if (value !== null && typeof value === 'object') {
      return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, walk(v, k)]));
    }
    return value;
  };
  return { value: walk(input) as T, counts };
}

export function totalRedactions(counts: Record<string, number>): number {
  return Object.values(counts).reduce((a, b) => a + b, 0);
}
