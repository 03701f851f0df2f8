import { closeSync, fstatSync, openSync, readSync } from 'node:fs';

/** How much of a transcript's end is read for a call's line: a response's lines are the last ones when its calls have run. */
const TAIL_BYTES = 256 * 1024;

/**
 * The response a tool call came in, from the lines of a Claude Code transcript: each content block of a
 * response is a line of its own, every one with the response's `message.id`. Claude Code writes a
 * response's lines only after its PreToolUse hooks have answered (anthropics/claude-code issues 72018 and
 * 82413), so the call's line is there for its PostToolUse, not before.
 */
export function turnInTranscriptLines(lines: readonly string[], toolUseId: string): string | undefined {
  const needle = `"id":"${toolUseId}"`;
  for (let i = lines.length - 1; i >= 0; i--) {
    const text = lines[i]!;
    if (!text.includes(needle)) continue;
    try {
      const line = JSON.parse(text) as { type?: string; message?: { id?: unknown; content?: unknown } };
      const content = Array.isArray(line.message?.content) ? (line.message.content as { type?: string; id?: string }[]) : [];
      if (line.type === 'assistant' && typeof line.message?.id === 'string' && content.some((b) => b?.type === 'tool_use' && b.id === toolUseId)) return line.message.id.slice(0, 128);
    } catch {
      // a line being written
    }
  }
  return undefined;
}

/** The response a call came in, read from the end of the transcript file; undefined when it cannot be told. */
export function turnFromTranscript(path: string | undefined, toolUseId: string): string | undefined {
  if (!path) return undefined;
  try {
    const fd = openSync(path, 'r');
    try {
      const size = fstatSync(fd).size;
      const length = Math.min(size, TAIL_BYTES);
      const buffer = Buffer.alloc(length);
      const read = readSync(fd, buffer, 0, length, size - length);
      return turnInTranscriptLines(buffer.subarray(0, read).toString('utf8').split('\n'), toolUseId);
    } finally {
      closeSync(fd);
    }
  } catch {
    return undefined;
  }
}
