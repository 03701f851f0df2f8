import type { TSchema } from 'typebox';
import type { Validator } from 'typebox/compile';
import { pathOf } from './yaml-places.js';

/** What a schema check found, as lint reports it: unknown keys apart, one problem per place. */
export interface SchemaProblem {
  kind: 'unknown_field' | 'invalid';
  path: (string | number)[];
  message: string;
}

function distance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    let previous = row[0]!;
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const current = row[j]!;
      row[j] = Math.min(row[j]! + 1, row[j - 1]! + 1, previous + (a[i - 1] === b[j - 1] ? 0 : 1));
      previous = current;
    }
  }
  return row[b.length]!;
}

/** The keys a schema allows where `schemaPath` (`#/properties/match/additionalProperties`) points. */
function knownKeys(schema: TSchema, schemaPath: string): string[] {
  let node: unknown = schema;
  for (const step of schemaPath.replace(/^#\/?/, '').split('/').filter(Boolean).slice(0, -1)) {
    node = (node as Record<string, unknown> | undefined)?.[step];
  }
  const properties = (node as { properties?: Record<string, unknown> } | undefined)?.properties;
  return properties ? Object.keys(properties) : [];
}

/** `did you mean "command"?` for a key one or two letters off one the schema allows. */
function suggestion(key: string, known: readonly string[]): string {
  const close = known.filter((k) => distance(key.toLowerCase(), k) <= Math.max(1, Math.min(2, Math.floor(k.length / 3))));
  return close.length ? `; did you mean ${close.map((k) => `"${k}"`).join(' or ')}?` : known.length ? ` (known: ${known.join(', ')})` : '';
}

/**
 * Every problem a schema finds in a value: each unknown key by name (with the key it was probably meant
 * to be), and for other mistakes the first message at each place. `skip` leaves out places another check reports.
 */
export function schemaProblems(validator: Validator, schema: TSchema, value: unknown, skip: (path: (string | number)[]) => boolean = () => false): SchemaProblem[] {
  const problems: SchemaProblem[] = [];
  const seen = new Set<string>();
  for (const error of validator.Errors(value)) {
    if (error.keyword === 'additionalProperties') continue;
    const path = pathOf(error.instancePath);
    if (skip(path) || seen.has(error.instancePath)) continue;
    seen.add(error.instancePath);
    if (error.keyword === 'boolean' && error.schemaPath.endsWith('/additionalProperties')) {
      const key = String(path[path.length - 1]);
      problems.push({ kind: 'unknown_field', path, message: `unknown field "${key}"${suggestion(key, knownKeys(schema, error.schemaPath))}` });
    } else if (error.keyword !== 'boolean') problems.push({ kind: 'invalid', path, message: `${error.instancePath || '/'}: ${error.message}` });
  }
  return problems;
}
