import { closeSync, openSync, readSync } from 'node:fs';

const HEAD_BYTES = 256 * 1024;

/** The text of a user message of a Claude Code transcript line, when it is a prompt (not a tool result). */
export function promptText(entry: unknown): string | undefined {
  if (!entry || typeof entry !== 'object') return undefined;
  const line = entry as { type?: string; isMeta?: boolean; message?: { role?: string; content?: unknown } };
  if (line.type !== 'user' || line.isMeta || line.message?.role !== 'user') return undefined;
  const content = line.message.content;
  if (typeof content === 'string') return content.trim() || undefined;
  if (!Array.isArray(content)) return undefined;
  const texts = content.filter((b) => b && typeof b === 'object' && (b as { type?: string }).type === 'text').map((b) => String((b as { text?: unknown }).text ?? ''));
  return texts.join('\n').trim() || undefined;
}

/**
 * The session's goal as Warden declares it for a Claude Code session: the first prompt of its
 * transcript (bounded). The hook and `warden replay` both use it, so a replayed transcript is reviewed
 * against the same goal as the live session was.
 */
export function goalFromTranscriptLines(lines: Iterable<string>): string | undefined {
  for (const line of lines) {
    if (!line.trim()) continue;
    try {
      const text = promptText(JSON.parse(line));
      if (text && !text.startsWith('<')) return text.slice(0, 4000);
    } catch {
      // a partly written line
    }
  }
  return undefined;
}

/** Reads the goal from the head of a transcript file; undefined when the file is missing or holds no prompt yet. */
export function goalFromTranscript(path: string | undefined): string | undefined {
  if (!path) return undefined;
  try {
    const fd = openSync(path, 'r');
    try {
      const buffer = Buffer.alloc(HEAD_BYTES);
      const read = readSync(fd, buffer, 0, HEAD_BYTES, 0);
      return goalFromTranscriptLines(buffer.subarray(0, read).toString('utf8').split('\n'));
    } finally {
      closeSync(fd);
    }
  } catch {
    return undefined;
  }
}
