import type { ParsedAction } from '../parsing/parsed-action.js';

/**
 * Texts custom rules match against, built once per parsed action however many rules look at them:
 * each simple command as one line, and input fields that are not strings as JSON.
 */
const commandLines = new WeakMap<ParsedAction, string[]>();
const fieldTexts = new WeakMap<ParsedAction, Map<string, string | undefined>>();

/** Each simple command of the action's shell line: its argv joined by spaces (`terraform apply -auto-approve`). */
export function simpleCommands(action: ParsedAction): string[] {
  let lines = commandLines.get(action);
  if (!lines) {
    lines = action.segments.map((s) => s.argv.join(' '));
    commandLines.set(action, lines);
  }
  return lines;
}

const linesByName = new WeakMap<ParsedAction, Map<string, string[]>>();
const NONE: readonly string[] = [];

/** The simple commands whose first word (up to the first space of the line) is `name`. */
export function simpleCommandsNamed(action: ParsedAction, name: string): readonly string[] {
  let byName = linesByName.get(action);
  if (!byName) {
    byName = new Map();
    for (const line of simpleCommands(action)) {
      const space = line.indexOf(' ');
      const first = space < 0 ? line : line.slice(0, space);
      const lines = byName.get(first);
      if (lines) lines.push(line);
      else byName.set(first, [line]);
    }
    linesByName.set(action, byName);
  }
  return byName.get(name) ?? NONE;
}

/** An input field as text: strings as they are, anything else as JSON; undefined when the field is absent. */
export function fieldText(action: ParsedAction, field: string): string | undefined {
  if (!Object.hasOwn(action.input, field)) return undefined;
  const value = action.input[field];
  if (typeof value === 'string') return value;
  if (value === undefined) return undefined;
  let texts = fieldTexts.get(action);
  if (!texts) {
    texts = new Map();
    fieldTexts.set(action, texts);
  }
  if (!texts.has(field)) texts.set(field, JSON.stringify(value));
  return texts.get(field);
}
