import picomatch from 'picomatch';

/** The picomatch options Warden's globs use; none of them rewrites the text before it is matched. */
export interface GlobOptions {
  dot?: boolean;
  nocase?: boolean;
  bash?: boolean;
}

/** Characters that picomatch reads as themselves wherever they stand. */
const LITERAL_START = /^[A-Za-z0-9_-][A-Za-z0-9 _.,:;=%/-]*/;

/**
 * The text every match of a glob starts with: its leading ordinary characters (`teamctl3 deploy` of
 * `teamctl3 deploy*`). A slash before a globstar is optional (`a/**` matches `a`), so a trailing slash is
 * left out; a stray `)` could end picomatch's group early, so such a glob has no prefix.
 */
export function literalPrefix(glob: string): string {
  if (glob.includes(')')) return '';
  const prefix = LITERAL_START.exec(glob)?.[0] ?? '';
  return prefix.replace(/\/+$/, '');
}

/** A glob of ordinary characters, stars and slashes only: each run of its ordinary characters is in every match. */
const PLAIN_GLOB = /^[A-Za-z0-9 _.,:;=%~*/-]*$/;

/**
 * The longest text every match of a glob contains (`protected-3` of a glob for any `protected-3` directory), for globs of
 * ordinary characters, stars and slashes; empty otherwise. Slashes next to a globstar may match nothing,
 * and picomatch drops a leading `./`, so runs are taken between stars and slashes, and only with a letter
 * or digit in them, from globs that do not start with a dot.
 */
export function requiredText(glob: string): string {
  if (glob.startsWith('.') || !PLAIN_GLOB.test(glob)) return '';
  let longest = '';
  for (const run of glob.split(/[*/]+/)) if (run.length > longest.length && /[A-Za-z0-9]/.test(run)) longest = run;
  return longest;
}

function startsWith(text: string, prefix: string, nocase: boolean): boolean {
  if (!nocase) return text.startsWith(prefix);
  if (text.length < prefix.length) return false;
  // picomatch's `nocase` is the regular expression's `i` flag: ASCII letters match either case, nothing else changes.
  for (let i = 0; i < prefix.length; i++) {
    const a = text.charCodeAt(i);
    if (a === prefix.charCodeAt(i)) continue;
    const lower = a | 32;
    if (lower !== (prefix.charCodeAt(i) | 32) || lower < 97 || lower > 122) return false;
  }
  return true;
}

export interface CompiledGlob {
  glob: string;
  /** What every text it matches starts with (maybe empty). */
  prefix: string;
  matches: (text: string) => boolean;
}

/** One glob compiled by picomatch, with cheap checks of the text it needs before the regular expression. */
export function compileGlob(glob: string, options: GlobOptions): CompiledGlob {
  const match = picomatch(glob, options);
  const prefix = literalPrefix(glob);
  const nocase = options.nocase === true;
  // Without nocase, a text lacking the glob's required text cannot match: most paths against a glob for one directory.
  const required = nocase ? '' : requiredText(glob);
  const matches =
    prefix || required
      ? (text: string) => (text === glob || (startsWith(text, prefix, nocase) && text.includes(required))) && match(text)
      : (text: string) => match(text);
  return { glob, prefix, matches };
}

/**
 * `picomatch(globs, options)` as a boolean, faster: a text that does not start with a glob's literal
 * prefix is not given to its regular expression (most rules name a command or host the action lacks).
 */
export function globMatcher(globs: readonly string[], options: GlobOptions): (text: string) => boolean {
  const compiled = globs.map((glob) => compileGlob(glob, options));
  if (compiled.length === 1) return compiled[0]!.matches;
  return (text) => compiled.some((c) => c.matches(text));
}
