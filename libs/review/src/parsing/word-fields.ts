import type { CommandExpansionPart, Word } from 'unbash';

/** One word the shell makes of a written word: its text, and whether it holds a value only known at run time. */
export interface WordField {
  value: string;
  dynamic: boolean;
}

/** More words than this from one written word: left as written (the shell would run it, but no line of work writes that). */
const MAX_FIELDS = 64;

/** Where an unquoted `$IFS` splits a word (a character no command line holds). */
const FIELD_BREAK = '\u0000';

/** A word that may become several: a brace expansion, a variable or a command substitution somewhere in it. */
export const MAY_SPLIT = /[{$`]/;

/** What the line says of values the shell fills in; undefined where only the running shell knows. */
export interface KnownValues {
  /** What a command substitution prints (`$(echo rm -rf /)`). */
  printed(part: CommandExpansionPart): string | undefined;
  /** A variable's value (`X=/; rm -rf $X`). */
  variable(name: string): string | undefined;
}

/**
 * The words the shell makes of one written word by brace expansion and by splitting what unquoted `$IFS`,
 * variables and command substitutions give, in bash's order (braces first, then splitting): `{rm,-rf,/}`
 * is `rm -rf /`, `rm -rf {/etc,/usr}` removes both, `cat${IFS}/etc/shadow` is `cat /etc/shadow`, `$(echo rm
 * -rf /)` is `rm -rf /`, `A='-rf /'; rm $A` too. Undefined when the word stays one word, or when it holds anything else whose value only
 * the running shell knows (another variable, a substitution that prints what the line does not say):
 * the walker's reading of it stands then.
 */
export function wordFields(word: Word, known: KnownValues): WordField[] | undefined {
  const parts = word.parts;
  if (!parts) return undefined;
  let texts = [''];
  let splits = false;
  for (const part of parts) {
    let alternatives: readonly string[];
    switch (part.type) {
      case 'Literal':
      case 'SingleQuoted':
      case 'AnsiCQuoted':
      case 'Glob':
        alternatives = [part.value];
        break;
      case 'DoubleQuoted':
        if (!part.parts.every((child) => child.type === 'Literal')) return undefined;
        alternatives = [part.parts.map((child) => (child as { value: string }).value).join('')];
        break;
      case 'BraceExpansion': {
        // Quotes inside the braces are left to the walker's reading of the word.
        const expanded = /['"\\]/.test(part.text) ? undefined : expandBraces(part.text);
        if (!expanded) return undefined;
        splits ||= expanded.length > 1;
        alternatives = expanded;
        break;
      }
      case 'CommandExpansion': {
        const text = known.printed(part);
        if (text === undefined) return undefined;
        splits ||= /\s/.test(text);
        alternatives = [text.replace(/\s+/g, FIELD_BREAK)];
        break;
      }
      case 'SimpleExpansion':
      case 'ParameterExpansion': {
        const name = part.type === 'SimpleExpansion' ? part.text.slice(1) : !part.prefix && !part.index && !part.operation ? part.parameter : undefined;
        // Unquoted, `$IFS` is where a word splits, whatever it holds.
        if (name === 'IFS') {
          splits = true;
          alternatives = [FIELD_BREAK];
          break;
        }
        const value = name === undefined ? undefined : known.variable(name);
        if (value === undefined) return undefined;
        splits ||= /\s/.test(value.trim());
        alternatives = [value.replace(/\s+/g, FIELD_BREAK)];
        break;
      }
      default:
        return undefined;
    }
    if (texts.length * alternatives.length > MAX_FIELDS) return undefined;
    texts = alternatives.length === 1 ? texts.map((t) => t + alternatives[0]) : texts.flatMap((t) => alternatives.map((a) => t + a));
  }
  if (!splits) return undefined;
  const fields: WordField[] = [];
  for (const text of texts) {
    for (const value of text.split(FIELD_BREAK)) if (value) fields.push({ value, dynamic: /[$`]/.test(value) });
  }
  return fields.length && fields.length <= MAX_FIELDS ? fields : undefined;
}

/**
 * Bash's brace expansion of unquoted text: `{a,b}` (nested too: `x{a,{b,c}}y`) and sequences `{1..3}`,
 * `{a..c}`, `{1..9..2}`. Undefined when it makes more than MAX_FIELDS words.
 */
export function expandBraces(text: string): string[] | undefined {
  const group = firstGroup(text);
  if (group === null) return undefined;
  if (!group) return [text];
  const before = text.slice(0, group.open);
  const after = text.slice(group.close + 1);
  const out: string[] = [];
  for (const alternative of group.alternatives) {
    const expanded = expandBraces(before + alternative + after);
    if (!expanded || out.length + expanded.length > MAX_FIELDS) return undefined;
    out.push(...expanded);
  }
  return out;
}

/** The first `{…}` that expands (a comma at its top level, or a sequence), with what it expands to; null for a sequence too long. */
function firstGroup(text: string): { open: number; close: number; alternatives: string[] } | null | undefined {
  for (let open = text.indexOf('{'); open >= 0; open = text.indexOf('{', open + 1)) {
    let depth = 0;
    const commas: number[] = [];
    let close = -1;
    for (let i = open; i < text.length; i++) {
      const c = text[i];
      if (c === '\\') i++;
      else if (c === '{') depth++;
      else if (c === '}' && --depth === 0) {
        close = i;
        break;
      } else if (c === ',' && depth === 1) commas.push(i);
    }
    if (close < 0) return undefined;
    const inner = text.slice(open + 1, close);
    if (commas.length) {
      const alternatives: string[] = [];
      let from = open + 1;
      for (const comma of [...commas, close]) {
        alternatives.push(text.slice(from, comma));
        from = comma + 1;
      }
      return { open, close, alternatives };
    }
    const sequence = sequenceOf(inner);
    if (sequence === null) return null;
    if (sequence) return { open, close, alternatives: sequence };
  }
  return undefined;
}

/** `1..5`, `5..1`, `a..e`, `1..10..3`: the words of the sequence; undefined when it is not one, null when it is too long. */
function sequenceOf(inner: string): string[] | null | undefined {
  const numbers = /^(-?\d+)\.\.(-?\d+)(?:\.\.(-?\d+))?$/.exec(inner);
  const letters = /^([A-Za-z])\.\.([A-Za-z])(?:\.\.(-?\d+))?$/.exec(inner);
  const match = numbers ?? letters;
  if (!match) return undefined;
  const from = numbers ? Number(match[1]) : match[1]!.charCodeAt(0);
  const to = numbers ? Number(match[2]) : match[2]!.charCodeAt(0);
  const step = Math.abs(Number(match[3] ?? 1)) || 1;
  if (Math.abs(to - from) / step >= MAX_FIELDS) return null;
  const out: string[] = [];
  for (let v = from; from <= to ? v <= to : v >= to; v += from <= to ? step : -step) out.push(numbers ? String(v) : String.fromCharCode(v));
  return out;
}
