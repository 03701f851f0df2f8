import { appendFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readTranscriptSince, usageInTranscriptLines } from './transcript-usage.js';

/** Two lines of one Claude Code response (one per content block, each with the response's usage), as its transcripts hold them. */
const claudeResponse = (id: string, usage: Record<string, number>) =>
  ['thinking', 'tool_use'].map((type) =>
    JSON.stringify({ type: 'assistant', requestId: `req_${id}`, uuid: `${id}-${type}`, timestamp: '2026-11-28T10:15:02.000Z', sessionId: 's1', message: { id: `msg_${id}`, model: 'claude-opus-4-8', role: 'assistant', content: [{ type }], usage } }),
  );

describe("a session's usage read from its transcript", () => {
  it("reads each Claude Code response once, with its cache reads and writes", () => {
    const lines = [
      JSON.stringify({ type: 'user', message: { role: 'user', content: 'Fix the date parser' } }),
      ...claudeResponse('01', { input_tokens: 12, output_tokens: 340, cache_read_input_tokens: 40_000, cache_creation_input_tokens: 1200 }),
      ...claudeResponse('02', { input_tokens: 3, output_tokens: 80, cache_read_input_tokens: 41_200, cache_creation_input_tokens: 0 }),
      '{"type":"assistant","message":{"model":"<synthetic>","usage":{"input_tokens":0}}}',
    ];
    expect(usageInTranscriptLines(lines).entries).toEqual([
      { key: 't:msg_01', model: 'claude-opus-4-8', tokens: { prompt: 12, completion: 340, cache_read: 40_000, cache_write: 1200 }, at: '2026-11-28T10:15:02.000Z' },
      { key: 't:msg_02', model: 'claude-opus-4-8', tokens: { prompt: 3, completion: 80, cache_read: 41_200, cache_write: 0 }, at: '2026-11-28T10:15:02.000Z' },
    ]);
  });

  it("reads Codex's per-response token counts with the turn's model, the cached input apart", () => {
    const lines = [
      JSON.stringify({ timestamp: '2026-11-28T10:15:00.000Z', type: 'turn_context', payload: { model: 'gpt-5.5', cwd: '/work/app' } }),
      JSON.stringify({
        timestamp: '2026-11-28T10:15:06.000Z',
        type: 'event_msg',
        payload: { type: 'token_count', info: { total_token_usage: { total_tokens: 24_792 }, last_token_usage: { input_tokens: 24_180, cached_input_tokens: 20_480, output_tokens: 612, reasoning_output_tokens: 256, total_tokens: 24_792 } } },
      }),
    ];
    const read = usageInTranscriptLines(lines);
    expect(read).toEqual({ model: 'gpt-5.5', entries: [{ key: 't:2026-11-28T10:15:06.000Z:24792', model: 'gpt-5.5', tokens: { prompt: 3700, completion: 612, cache_read: 20_480 }, at: '2026-11-28T10:15:06.000Z' }] });
    // The next read starts after the turn_context line: the cursor carries the model.
    expect(usageInTranscriptLines(lines.slice(1), read.model).entries).toHaveLength(1);
    expect(usageInTranscriptLines(lines.slice(1)).entries).toEqual([]);
  });

  it('reads only the lines added since the last call, and waits for a line being written', () => {
    const dir = mkdtempSync(join(tmpdir(), 'transcript-'));
    const path = join(dir, 's1.jsonl');
    try {
      const [first, second] = claudeResponse('01', { input_tokens: 1, output_tokens: 2 });
      writeFileSync(path, `${first}\n${second!.slice(0, 20)}`);
      const one = readTranscriptSince(undefined, path)!;
      expect(one.lines).toEqual([first]);
      appendFileSync(path, `${second!.slice(20)}\n`);
      const two = readTranscriptSince({ path, offset: one.offset }, path)!;
      expect(two.lines).toEqual([second]);
      expect(readTranscriptSince({ path, offset: two.offset }, path)).toEqual({ lines: [], offset: two.offset });
      // Rewritten shorter: read again from the start.
      writeFileSync(path, `${first}\n`);
      expect(readTranscriptSince({ path, offset: two.offset }, path)!.lines).toEqual([first]);
      expect(readTranscriptSince(undefined, join(dir, 'missing.jsonl'))).toBeUndefined();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
