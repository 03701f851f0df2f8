import { DerivedValue } from '../derived-value.js';
import type { ParsedAction } from '../parsing/parsed-action.js';
import type { ShellSegment } from '../parsing/shell-command.js';

/**
 * Texts custom rules match against, built once per parsed action however many rules look at them:
 * each simple command as one line, and input fields that are not strings as JSON.
 */
const commandLines = new DerivedValue((action: ParsedAction) => action.segments.map((s) => s.argv.join(' ')));
const fieldTexts = new DerivedValue((_: ParsedAction) => new Map<string, string | undefined>());

/** Each simple command of the action's shell line: its argv joined by spaces (`terraform apply -auto-approve`). */
export function simpleCommands(action: ParsedAction): string[] {
  return commandLines.of(action);
}

interface LinesByName {
  /** The segments by the first word of their line. */
  segments: Map<string, ShellSegment[]>;
  /** The lines of the names asked for so far. */
  lines: Map<string, string[]>;
}

const linesByName = new DerivedValue((action: ParsedAction): LinesByName => {
  const byName: LinesByName = { segments: new Map(), lines: new Map() };
  for (const segment of action.segments) {
    const first = firstWord(segment.argv);
    const segments = byName.segments.get(first);
    if (segments) segments.push(segment);
    else byName.segments.set(first, [segment]);
  }
  return byName;
});
const NONE: readonly string[] = [];

/** The first word of a segment's line: its command, up to a space it may hold (`"my tool" x` → `my`). */
function firstWord(argv: readonly string[]): string {
  const command = argv[0] ?? '';
  const space = command.indexOf(' ');
  return space < 0 ? command : command.slice(0, space);
}

/**
 * The simple commands whose first word (up to the first space of the line) is `name`. Only the lines of
 * names some rule asks for are joined: rules name programs that most lines never run.
 */
export function simpleCommandsNamed(action: ParsedAction, name: string): readonly string[] {
  const byName = linesByName.of(action);
  const segments = byName.segments.get(name);
  if (!segments) return NONE;
  let lines = byName.lines.get(name);
  if (!lines) {
    lines = segments.map((s) => s.argv.join(' '));
    byName.lines.set(name, lines);
  }
  return lines;
}

/** The programs of the action's shell line as written: the first words of its simple commands (`simpleCommandsNamed`). */
export function programsWritten(action: ParsedAction): Iterable<string> {
  return linesByName.of(action).segments.keys();
}

/** The origin of a URL in lower case: everything before the first `/` after `://` (`https://api.example.com:8443`). */
export function originOf(url: string): string {
  const scheme = url.indexOf('://');
  const path = scheme < 0 ? -1 : url.indexOf('/', scheme + 3);
  return (path < 0 ? url : url.slice(0, path)).toLowerCase();
}

const origins = new DerivedValue((action: ParsedAction): readonly string[] => (action.urls.length ? [...new Set(action.urls.map(originOf))] : NONE));

/** The origins of the URLs the action names (`originOf`), each once. */
export function originsNamed(action: ParsedAction): readonly string[] {
  return origins.of(action);
}

/** An input field as text: strings as they are, anything else as JSON; undefined when the field is absent. */
export function fieldText(action: ParsedAction, field: string): string | undefined {
  if (!Object.hasOwn(action.input, field)) return undefined;
  const value = action.input[field];
  if (typeof value === 'string') return value;
  if (value === undefined) return undefined;
  const texts = fieldTexts.of(action);
  if (!texts.has(field)) texts.set(field, JSON.stringify(value));
  return texts.get(field);
}
