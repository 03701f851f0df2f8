import { createHash } from 'node:crypto';
import { canonicalJson } from '@warden/contracts';
import type { EdgeToolCall } from './edge-event.js';
import type { HookSessionState } from './session-state.js';

/** How many calls' keys a session's state keeps numbering (the oldest are forgotten first). */
const CALL_KEYS_KEPT = 500;

/**
 * The key of a tool call for agents whose hooks name no call (Cursor's shell and MCP events, Copilot
 * CLI, Gemini CLI): the tool and its input, which the events before and after the call both carry. The
 * edge numbers the calls of one key in a session (numberedCall), so the same command run twice is two
 * actions, and the outcome after a call matches the proposal before it.
 */
export function derivedCallKey(tool: string, input: Record<string, unknown>): string {
  return `d${createHash('sha256').update(canonicalJson({ tool, input })).digest('hex').slice(0, 32)}`;
}

/**
 * The id of a derived call in this session: each call before its tool runs takes the next number of its
 * key, and the outcome after it takes the latest. Two identical calls running at the same time cannot be
 * told apart (their outcomes both go to the later one); any other order matches.
 */
export function numberedCall(state: HookSessionState, when: 'before_tool' | 'after_tool', call: EdgeToolCall): string {
  const runs = { ...(state.callRuns ?? {}) };
  let run = runs[call.id] ?? 0;
  if (when === 'before_tool') {
    run += 1;
    // Re-inserted last, so that the keys forgotten first are those not used for longest.
    delete runs[call.id];
    runs[call.id] = run;
    const keys = Object.keys(runs);
    for (const key of keys.slice(0, Math.max(0, keys.length - CALL_KEYS_KEPT))) delete runs[key];
    state.callRuns = runs;
  }
  return `${call.id}-${Math.max(run, 1)}`;
}
