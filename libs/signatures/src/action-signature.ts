/** Small, fast string fingerprint (FNV-1a, 32 bit): for equality, not security. */
export function fingerprint(text: string): string {
  // Kept a 32-bit integer from the start (the offset basis is above 2^31).
  let hash = 0x811c9dc5 | 0;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash >>> 0).toString(36);
}

/** A 53-bit digest of a text (cyrb53): for equality of long texts, where 32 bits would collide too soon; not for security. */
export function digest(text: string): string {
  return digestOf(text, false).digest;
}

/**
 * The length and digest of a text as it reads with each run of whitespace folded to one space and the ends
 * trimmed, without building that text: a 4 KB command costs one pass instead of a copy and a pass.
 */
export function foldedDigest(text: string): { length: number; digest: string } {
  return digestOf(text, true);
}

/** What `\s` matches in a regular expression. */
function isWhitespace(c: number): boolean {
  return c === 32 || (c >= 9 && c <= 13) || (c > 127 && (c === 160 || c === 5760 || (c >= 8192 && c <= 8202) || c === 8232 || c === 8233 || c === 8239 || c === 8287 || c === 12288 || c === 65279));
}

// The seeds and multipliers as 32-bit integers: a state that starts above 2^31 would be a double in the loop.
const SEED_1 = 0xdeadbeef | 0;
const SEED_2 = 0x41c6ce57 | 0;
const MULTIPLIER_1 = 2654435761 | 0;
const MULTIPLIER_2 = 1597334677 | 0;

function digestOf(text: string, fold: boolean): { length: number; digest: string } {
  let h1 = SEED_1;
  let h2 = SEED_2;
  let length = 0;
  let pendingSpace = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    // Printable ASCII other than the space is never whitespace: most characters skip the test.
    if (fold && (c <= 32 || c > 126) && isWhitespace(c)) {
      pendingSpace = length > 0;
      continue;
    }
    if (pendingSpace) {
      // One space for the run just passed, then this character.
      h1 = Math.imul(h1 ^ 32, MULTIPLIER_1);
      h2 = Math.imul(h2 ^ 32, MULTIPLIER_2);
      length++;
      pendingSpace = false;
    }
    h1 = Math.imul(h1 ^ c, MULTIPLIER_1);
    h2 = Math.imul(h2 ^ c, MULTIPLIER_2);
    length++;
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return { length, digest: (4294967296 * (2097151 & h2) + (h1 >>> 0)).toString(36) };
}

const WHITESPACE = /\s+/g;
const COMMAND_FIELDS = ['command', 'cmd'];
const PATH_FIELDS = ['file_path', 'path', 'notebook_path', 'filename', 'target_file'];
const MAX_TARGET = 1000;

/**
 * What an action acts on, the same way in every service: a command line (whitespace folded), else the
 * file it names, else its whole input (keys sorted). Two proposals with the same tool and target are the
 * same action — a retry.
 */
export function actionTarget(input: Record<string, unknown>): string {
  for (const field of COMMAND_FIELDS) if (typeof input[field] === 'string') return (input[field] as string).replace(WHITESPACE, ' ').trim().slice(0, MAX_TARGET);
  for (const field of PATH_FIELDS) if (typeof input[field] === 'string') return (input[field] as string).slice(0, MAX_TARGET);
  const keys = Object.keys(input).sort();
  return JSON.stringify(keys.map((k) => [k, input[k]])).slice(0, MAX_TARGET);
}

/** The action's identity across retries: tool and target, fingerprinted. */
export function actionSignature(tool: string, input: Record<string, unknown>): string {
  return fingerprint(`${tool}\u0000${actionTarget(input)}`);
}

/** A line that says what went wrong, in any tool's words. */
const ERROR_LINE = /error|exception|fail|traceback|panic|fatal|assert|cannot|can't|could not|not found|no such|denied|refused|timed? ?out|undefined|invalid|unexpected|missing/i;
/** How much of a long failure's beginning and end is read for its error lines. */
const ERROR_SCAN = 4000;

/**
 * The part of a failure's text that tells one failure from another. A long output (a test run, a build)
 * may begin the same way every time, with a banner and progress lines that name no error: then its lines that
 * name one, from its beginning and its end, are what differs. A text that says what failed in its first 160
 * characters, or that has no such lines, is read as it is.
 */
function errorPart(text: string): string {
  if (text.length <= 160 || ERROR_LINE.test(text.slice(0, 160))) return text;
  const scanned = text.length > 2 * ERROR_SCAN ? `${text.slice(0, ERROR_SCAN)}\n${text.slice(-ERROR_SCAN)}` : text;
  let part = '';
  for (const line of scanned.split('\n')) {
    if (!ERROR_LINE.test(line)) continue;
    part += `${line}\n`;
    if (part.length >= 1000) break;
  }
  return part || text;
}

/** An indented list under a line that introduces it (`…would be overwritten by checkout:` and the files). */
const LISTED = /:[ \t]*\r?\n(?:[ \t]+[^\n]*(?:\n|$))+/g;

/**
 * `Error at line 42 in "/tmp/x-81f2"` and `Error at line 43 in "/tmp/x-99aa"` fold to the same text; so do two
 * runs of a test suite that fail with the same error after the same banner, and not two that fail otherwise.
 * The items an error lists (git's files in the way of a checkout) are folded too: which files stand in the way
 * changes from one attempt to the next, the failure does not.
 */
export function foldErrorText(text: string): string {
  return errorPart(text)
    .slice(0, 1000)
    .replace(LISTED, ': _\n')
    .toLowerCase()
    .replace(/(["'`]).*?\1/g, '_')
    .replace(/0x[0-9a-f]+|\b[0-9a-f]{8,}\b/g, '#')
    .replace(/\d+(\.\d+)?/g, '#')
    .replace(WHITESPACE, ' ')
    .trim()
    .slice(0, 160);
}

/** The same failure, whatever varies in its text: the error class and the folded message, fingerprinted. */
export function failureSignature(error: { message: string; class?: string } | undefined): string {
  return `${error?.class ?? ''}:${fingerprint(foldErrorText(error?.message ?? ''))}`;
}
