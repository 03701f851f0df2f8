/**
 * One copy of each tool name, path, command, text, error and fingerprint the sessions hold, whichever
 * step and session holds it: a message's strings are new copies each time it is parsed, while sessions
 * read the same files, run the same commands and meet the same failures over and over. Bounded: emptied
 * when it holds too many or too much (the copies held stay valid; the next ones are shared again).
 */
const sharedStrings = new Map<string, string>();
let sharedCharacters = 0;
const MAX_SHARED = 50_000;
const MAX_SHARED_CHARACTERS = 2_000_000;
/** Longer strings are seldom repeated: kept as they are. */
const MAX_SHARED_LENGTH = 512;

/** The copy of `value` every holder shares (`value` itself the first time). */
export function shared<T extends string | undefined>(value: T): T {
  if (value === undefined || value.length > MAX_SHARED_LENGTH) return value;
  const known = sharedStrings.get(value);
  if (known !== undefined) return known as T;
  if (sharedStrings.size >= MAX_SHARED || sharedCharacters >= MAX_SHARED_CHARACTERS) {
    sharedStrings.clear();
    sharedCharacters = 0;
  }
  sharedStrings.set(value, value);
  sharedCharacters += value.length;
  return value;
}
