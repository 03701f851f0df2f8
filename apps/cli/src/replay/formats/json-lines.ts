import type { SkippedLine } from '../recorded-session.js';

/** One record of a JSON Lines recording with its 1-based line number. */
export interface JsonLine {
  line: number;
  record: Record<string, unknown>;
}

export interface JsonLines {
  records: JsonLine[];
  /** Lines that are not a JSON object: a truncated write, or a line that starts in the middle of a record. */
  skipped: SkippedLine[];
}

const isObject = (value: unknown): value is Record<string, unknown> => !!value && typeof value === 'object' && !Array.isArray(value);

/**
 * The records of a JSON Lines recording. Agents append to these files as they work, so a crash or a copy
 * taken mid-write leaves a damaged line: it is skipped and reported, and the rest is read. Blank lines are
 * no records; with `comments`, neither are lines starting with `//` (Warden's own format allows them).
 */
export function readJsonLines(text: string, options: { comments?: boolean } = {}): JsonLines {
  const records: JsonLine[] = [];
  const skipped: SkippedLine[] = [];
  text.split('\n').forEach((raw, index) => {
    const line = raw.trim();
    if (!line || (options.comments && line.startsWith('//'))) return;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (error) {
      skipped.push({ line: index + 1, reason: `not JSON (${(error as Error).message})` });
      return;
    }
    if (isObject(value)) records.push({ line: index + 1, record: value });
    else skipped.push({ line: index + 1, reason: 'not a JSON object' });
  });
  return { records, skipped };
}
