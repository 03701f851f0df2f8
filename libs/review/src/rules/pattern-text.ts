/** Characters with a meaning of their own in a regular expression; any other stands for itself. */
const SYNTAX = new Set(['\\', '^', '$', '.', '|', '?', '*', '+', '(', ')', '[', ']', '{', '}']);
/** Escaped characters that stand for themselves (`\.`, `\-`, `\/`); escaped letters and digits are classes, assertions or references. */
const LITERAL_ESCAPE = /^[^A-Za-z0-9]$/;

function isQuantifier(c: string | undefined): boolean {
  return c === '*' || c === '+' || c === '?' || c === '{';
}

/**
 * The longest text every match of a regular expression contains (`migrate-3` of `\bmigrate-3\b`), or
 * empty when none can be told: a cheap `includes` then spares the regular expression most long commands.
 * Read conservatively: literal characters, escaped punctuation and the zero-width `^`, `$`, `\b`, `\B` are
 * followed; `.` and quantifiers end a text; a group, class, brace or other escape ends the reading; an
 * alternation, or a flag that changes how characters or lines are read, gives up.
 */
export function requiredTextOf(pattern: RegExp): string {
  const { source, flags } = pattern;
  if (/[imsuv]/.test(flags) || source.includes('|')) return '';
  let longest = '';
  let run = '';
  const end = () => {
    if (run.length > longest.length) longest = run;
    run = '';
  };
  for (let i = 0; i < source.length; i++) {
    let c = source[i]!;
    if (c === '\\') {
      const next = source[i + 1] ?? '';
      i++;
      if (next === 'b' || next === 'B') continue;
      if (!LITERAL_ESCAPE.test(next)) break;
      c = next;
    } else if (c === '^' || c === '$') continue;
    else if (c === '(' || c === '[' || c === '{') break;
    else if (SYNTAX.has(c)) {
      end();
      continue;
    }
    // A literal character: `c+` keeps one `c` and ends the text; `c*`, `c?` and `c{…}` may leave it out.
    const quantifier = source[i + 1];
    if (!isQuantifier(quantifier)) run += c;
    else {
      if (quantifier === '+') run += c;
      end();
    }
  }
  end();
  return longest;
}

/**
 * A test of a text against a regular expression that first looks for a text every match contains: most
 * commands lack it, and `includes` costs far less than the expression on a long command.
 */
export function regexTester(pattern: RegExp): (text: string) => boolean {
  const required = requiredTextOf(pattern);
  return required ? (text) => text.includes(required) && pattern.test(text) : (text) => pattern.test(text);
}
