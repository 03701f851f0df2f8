import type { MessageOf } from '@warden/contracts';

export type Verdict = MessageOf<'review.verdict'>;

/** Why a session was paused: an operator, or automatically (FR-11.9) by the flag, the reviewer or a human gate. */
export type PauseTrigger = 'operator' | 'hitl_required_flag' | 'require_approval' | 'gate';

/** A verdict held while its session is paused; it becomes the agent's decision when the buffer is flushed. */
export interface DecisionEntry {
  kind: 'decision';
  window_id: string;
  trace_id: string;
  /** The verdict's message id: a redelivered verdict is buffered once. */
  source_id: string;
  action_id: string;
  /** Held for an operator's approval: the flag, a require_approval verdict or a human gate asked for it. */
  needs_approval: boolean;
  holds: Exclude<PauseTrigger, 'operator'>[];
  gate_ids?: string[];
  verdict: Verdict;
  buffered_at: string;
}

/** A synthetic message for the agent (hitl_inject) that arrived while the session was paused. */
export interface InjectEntry {
  kind: 'inject';
  window_id: string;
  trace_id: string;
  /** The gate.command message id. */
  source_id: string;
  operator_id: string;
  prompt: string;
  buffered_at: string;
}

export type BufferEntry = DecisionEntry | InjectEntry;

/** An entry with its position in the buffer stream. */
export interface StoredEntry {
  seq: number;
  entry: BufferEntry;
}

/** What the operator sees of an entry and may rewrite. Its SHA-256 is the before/after state of FR-11.7. */
export type EntryContent =
  | { kind: 'decision'; trace_id: string; action_id: string; tool: string; input: Record<string, unknown>; verdict: string }
  | { kind: 'inject'; trace_id: string; prompt: string };

export function entryContent(entry: BufferEntry, rewrite?: string): EntryContent {
  if (entry.kind === 'inject') return { kind: 'inject', trace_id: entry.trace_id, prompt: rewrite ?? entry.prompt };
  const input = rewrite === undefined ? entry.verdict.payload.action.input : (JSON.parse(rewrite) as Record<string, unknown>);
  return {
    kind: 'decision',
    trace_id: entry.trace_id,
    action_id: entry.action_id,
    tool: entry.verdict.payload.action.tool,
    input,
    verdict: entry.verdict.payload.verdict,
  };
}

/**
 * Checks new content for an entry: a held action is rewritten with the tool input to run instead (a JSON
 * object), an injected message with new text. Returns the 422 reason when it does not fit.
 */
export function rewriteProblem(entry: BufferEntry, newContent: string): string | null {
  if (entry.kind === 'inject') return null;
  try {
    const value: unknown = JSON.parse(newContent);
    if (value && typeof value === 'object' && !Array.isArray(value)) return null;
  } catch {
    // reported below
  }
  return 'invalid_field: new_content (the tool input to run instead, as a JSON object)';
}
