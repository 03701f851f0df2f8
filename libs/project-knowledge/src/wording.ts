/**
 * Loose text matching for knowledge written by people: an error symptom or an escalation trap is a
 * phrase ("install playwright browsers"), the action is a command line or a description ("npx playwright
 * install chromium", "Install Playwright browsers"). Case, whitespace, punctuation and simple word endings
 * (browsers/browser, installing/install, dependencies/dependency, failed/fail) do not matter. The reviewer and
 * the pattern detector match known issues with these same functions, so a trap one of them sees the other sees too.
 */

const WHITESPACE = /\s+/g;
const NON_WORD = /[^a-z0-9]+/;

/** Lower case, runs of whitespace as one space. */
export function normaliseText(text: string): string {
  return text.toLowerCase().replace(WHITESPACE, ' ').trim();
}

export interface StemOptions {
  /**
   * Strip `-ed` (failed/fail, installed/install); default true. Words compared with words want it; words
   * looked for inside file paths (the pattern detector's goal keywords) keep it off: `shared` is no `shar`.
   */
  pastTense?: boolean;
}

/** Strips a plural or verb ending so that the forms of a word compare equal. */
export function stem(word: string, options: StemOptions = {}): string {
  if (word.length > 4 && word.endsWith('ies')) return `${word.slice(0, -3)}y`;
  if (word.length > 5 && word.endsWith('ing')) return word.slice(0, -3);
  if (options.pastTense !== false && word.length > 4 && word.endsWith('ed')) return word.slice(0, -2);
  if (word.length > 3 && word.endsWith('s') && !word.endsWith('ss')) return word.slice(0, -1);
  return word;
}

/** The words of a text, lower case and stemmed. */
export function wordsOf(text: string, options: StemOptions = {}): string[] {
  return text
    .toLowerCase()
    .split(NON_WORD)
    .filter(Boolean)
    .map((word) => stem(word, options));
}

/** Equal stems, or one long word starting with the other (install/installation, connect/connection). */
export function sameWord(a: string, b: string): boolean {
  if (a === b) return true;
  const [short, long] = a.length <= b.length ? [a, b] : [b, a];
  return short.length >= 5 && long.startsWith(short);
}

/** Other words allowed between two consecutive words of a phrase ("install the project dependencies"). */
export const MAX_PHRASE_GAP = 3;

/** Whether all words of `phrase` appear in `words` in order, at most MAX_PHRASE_GAP words apart. */
export function containsPhrase(words: readonly string[], phrase: readonly string[]): boolean {
  if (!phrase.length) return false;
  const from = (position: number, index: number): boolean => {
    if (index === phrase.length) return true;
    const last = Math.min(words.length - 1, position + MAX_PHRASE_GAP);
    for (let i = position; i <= last; i++) if (sameWord(words[i]!, phrase[index]!) && from(i + 1, index + 1)) return true;
    return false;
  };
  for (let i = 0; i < words.length; i++) if (sameWord(words[i]!, phrase[0]!) && from(i + 1, 1)) return true;
  return false;
}

/** Words too common in rules and symptoms to relate two of them. */
const FILLER = new Set([
  'always', 'never', 'before', 'after', 'with', 'without', 'from', 'that', 'this', 'then', 'than', 'when', 'only', 'into', 'your',
  'first', 'check', 'should', 'must', 'does', 'have', 'there', 'their', 'what', 'which', 'some', 'other', 'instead', 'simple',
]);

/** Words that carry meaning: four letters or more, not filler. */
export function contentWords(text: string): string[] {
  return wordsOf(text).filter((w) => w.length >= 4 && !FILLER.has(w));
}

export function sharesContentWord(a: readonly string[], b: readonly string[]): boolean {
  return a.some((x) => b.some((y) => sameWord(x, y)));
}
