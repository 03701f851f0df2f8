import { digest, foldedDigest } from '@warden/signatures';

// An action's key: how repetitions of "the same action" are recognised (the same tool with the same
// command, file or input).

/** A tool's input as text, keys sorted, cut at 512 characters. */
export function stableKey(tool: string, input: Record<string, unknown>): string {
  const keys = Object.keys(input).sort();
  const text = JSON.stringify(input, keys);
  return `${tool}:${text.length > 512 ? text.slice(0, 512) : text}`;
}

/** Keys longer than this are remembered as a digest (see compactKey). */
const MAX_PLAIN_KEY = 256;

/**
 * An action's key, short: a session remembers the keys of its last 100 actions, and a key as long as a
 * 4 KB script or a written file would be copied by every young-generation collection until it is
 * promoted. Keys are only compared, so a long one becomes its length and a 53-bit digest.
 */
export function compactKey(tool: string, key: string): string {
  return key.length <= MAX_PLAIN_KEY ? key : `${tool}:#${key.length}:${digest(key)}`;
}

/** A command's key: whitespace runs read as one space, the ends trimmed; a long one as its folded length and digest. */
export function commandKey(tool: string, command: string): string {
  if (command.length + tool.length + 1 > MAX_PLAIN_KEY) {
    const folded = foldedDigest(command);
    if (folded.length + tool.length + 1 > MAX_PLAIN_KEY) return `${tool}:#${folded.length + tool.length + 1}:${folded.digest}`;
  }
  return `${tool}:${command.replace(/\s{2,}|[^\S ]/g, ' ').trim()}`;
}
