import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { derivedMessageId, type PayloadOf } from '@warden/contracts';
import type { WardenClient } from '@warden/sdk';
import type { EdgeEvent } from './edge-event.js';
import type { SessionStates } from './session-state.js';

type UsageEntry = PayloadOf<'usage.reported'>['entries'][number];

/** How far Warden read a session's transcript for its usage, and the model it was on (a Codex rollout names it once per turn). */
export interface TranscriptCursor {
  path: string;
  offset: number;
  model?: string;
}

/** At most this much of a transcript is read per call; the rest waits for the next call. */
const MAX_READ_BYTES = 8 * 1024 * 1024;

const count = (n: unknown) => (typeof n === 'number' && Number.isFinite(n) && n > 0 ? Math.round(n) : 0);

/**
 * The model usage in lines of a transcript, whichever agent wrote it:
 * - Claude Code (`~/.claude/projects/…/<session>.jsonl`): an `assistant` line's `message.usage`
 *   (`input_tokens`, `output_tokens`, `cache_read_input_tokens`, `cache_creation_input_tokens`) and
 *   `message.model`. Claude Code writes one line per content block of a response, each with the
 *   response's usage: one entry per `message.id`.
 * - Codex (the rollout `…/rollout-<time>-<thread>.jsonl`): an `event_msg` of type `token_count` whose
 *   `info.last_token_usage` is one response's (`input_tokens` with the cached ones, `cached_input_tokens`,
 *   `output_tokens`), the model from the turn's `turn_context`.
 * The transcript format is each agent's own and changes between versions: lines that do not read as
 * usage are skipped.
 */
export function usageInTranscriptLines(lines: readonly string[], model?: string): { entries: UsageEntry[]; model?: string } {
  const entries = new Map<string, UsageEntry>();
  let current = model;
  for (const text of lines) {
    if (!text.includes('usage')) {
      if (text.includes('"turn_context"')) current = turnModel(text) ?? current;
      continue;
    }
    let line: Record<string, unknown>;
    try {
      line = JSON.parse(text) as Record<string, unknown>;
    } catch {
      continue;
    }
    const at = typeof line.timestamp === 'string' && Number.isFinite(Date.parse(line.timestamp)) ? new Date(line.timestamp).toISOString() : new Date().toISOString();
    if (line.type === 'assistant') {
      const message = line.message as { id?: string; model?: string; usage?: Record<string, unknown> } | undefined;
      if (!message?.usage || typeof message.model !== 'string' || message.model === '<synthetic>') continue;
      const id = message.id ?? (typeof line.requestId === 'string' ? line.requestId : undefined) ?? (typeof line.uuid === 'string' ? line.uuid : undefined);
      if (!id) continue;
      const u = message.usage;
      entries.set(`t:${id}`, {
        key: `t:${id}`.slice(0, 256),
        model: message.model.slice(0, 128),
        tokens: { prompt: count(u.input_tokens), completion: count(u.output_tokens), cache_read: count(u.cache_read_input_tokens), cache_write: count(u.cache_creation_input_tokens) },
        at,
      });
    } else if (line.type === 'event_msg') {
      const payload = line.payload as { type?: string; info?: { last_token_usage?: Record<string, unknown>; total_token_usage?: Record<string, unknown> } } | undefined;
      const last = payload?.type === 'token_count' ? payload.info?.last_token_usage : undefined;
      if (!last || !current) continue;
      const input = count(last.input_tokens);
      const cached = Math.min(input, count(last.cached_input_tokens));
      const key = `t:${at}:${count(payload!.info?.total_token_usage?.total_tokens)}`;
      entries.set(key, { key, model: current, tokens: { prompt: input - cached, completion: count(last.output_tokens), cache_read: cached }, at });
    } else if (line.type === 'turn_context') {
      current = turnModel(text) ?? current;
    }
  }
  return { entries: [...entries.values()], ...(current ? { model: current } : {}) };
}

function turnModel(text: string): string | undefined {
  try {
    const line = JSON.parse(text) as { type?: string; payload?: { model?: unknown } };
    return line.type === 'turn_context' && typeof line.payload?.model === 'string' ? line.payload.model.slice(0, 128) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The lines a transcript gained since the cursor: only complete lines (a line being written waits for
 * the next call). A transcript shorter than the cursor was rewritten: it is read again from the start
 * (the breaker counts each entry once).
 */
export function readTranscriptSince(cursor: TranscriptCursor | undefined, path: string): { lines: string[]; offset: number } | undefined {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch {
    return undefined;
  }
  try {
    const size = fstatSync(fd).size;
    let from = cursor && cursor.path === path ? cursor.offset : 0;
    if (from > size) from = 0;
    if (from === size) return { lines: [], offset: from };
    const length = Math.min(size - from, MAX_READ_BYTES);
    const buffer = Buffer.alloc(length);
    const read = readSync(fd, buffer, 0, length, from);
    const end = buffer.lastIndexOf(0x0a, read - 1);
    if (end < 0) return { lines: [], offset: from };
    return { lines: buffer.subarray(0, end).toString('utf8').split('\n').filter(Boolean), offset: from + end + 1 };
  } finally {
    closeSync(fd);
  }
}

/**
 * Where no telemetry of the agent reaches Warden: the usage the session's transcript gained since the
 * last call (this machine must be the agent's) becomes `usage.reported` with source `transcript`; the
 * cursor is the session's hook state. Never throws: a transcript that cannot be read is left for the next call.
 */
export async function reportTranscriptUsage(event: EdgeEvent, context: { client: WardenClient; states: SessionStates; agentKind: string; waitMs: number }): Promise<void> {
  const path = event.session.transcriptPath;
  if (!path) return;
  try {
    await context.states.update(event.session.id, context.waitMs, async (state) => {
      const since = readTranscriptSince(state.transcriptUsage, path);
      if (!since || (since.offset === state.transcriptUsage?.offset && state.transcriptUsage.path === path)) return;
      const { entries, model } = usageInTranscriptLines(since.lines, state.transcriptUsage?.path === path ? state.transcriptUsage.model : undefined);
      for (let i = 0; i < entries.length; i += 1000) {
        const chunk = entries.slice(i, i + 1000);
        const id = derivedMessageId('usage.reported', `${context.client.agentId}:${event.session.id}:transcript:${chunk.map((e) => e.key).join(',')}`);
        await context.client.publish(context.client.message('usage.reported', event.session.id, { id, payload: { source: 'transcript', agent_kind: context.agentKind, entries: chunk } }), context.waitMs);
      }
      // Published first: a failure leaves the cursor where it was, and the next call reads the lines again.
      state.transcriptUsage = { path, offset: since.offset, ...(model ? { model } : {}) };
    });
  } catch {
    // Read again at the next call.
  }
}
