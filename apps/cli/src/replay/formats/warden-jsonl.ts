import { isSubjectToken, PHASES, type PayloadOf } from '@warden/contracts';
import { RecordingError, type RecordedAction, type RecordedSession } from '../recorded-session.js';
import { readJsonLines } from './json-lines.js';

const RECORD_TYPES = new Set(['session', 'action', 'outcome']);

/** True for a record of Warden's format: a session (with its context or id), an action or an outcome (with an action_id). */
export const looksLikeWardenRecord = (record: Record<string, unknown>): boolean =>
  typeof record['type'] === 'string' &&
  RECORD_TYPES.has(record['type']) &&
  (record['type'] === 'session' ? 'context' in record || 'session_id' in record || 'agent_kind' in record : 'action_id' in record);

/**
 * Warden's own recording format: JSON Lines, one record per line, `type` first.
 *
 *   {"type":"session","session_id":"s-1","agent_kind":"claude-code","model":"…","environment":"development","phase":"implementation",
 *    "context":{"goal":"…","cwd":"/work/app","expected_paths":["/work/app/**"],"constraints":["…"]}}
 *   {"type":"action","action_id":"a-1","tool":"Bash","input":{"command":"npm test"},"kind":"tool_use","description":"…","phase":"testing","title":"…","at":"2026-11-21T09:00:00Z","turn":"msg_1"}
 *   {"type":"outcome","action_id":"a-1","status":"error","error":{"message":"…","class":"…"},"duration_ms":1200,"output":"…",
 *    "model":"…","tokens":{"prompt":1200,"completion":300},"files_touched":["…"],"at":"…"}
 *
 * `session` comes first (optional: without it the session declares nothing). Actions replay in file
 * order; an outcome belongs to the action with its action_id. An action id seen twice is replayed once.
 * Blank lines and lines starting with `//` are skipped; so is a damaged line (not JSON), with a warning.
 */
export function parseWardenJsonl(text: string): RecordedSession {
  let declaration: PayloadOf<'session.started'> = { context: {} };
  let sessionId: string | undefined;
  let declared = false;
  const actions = new Map<string, RecordedAction>();
  const { records, skipped } = readJsonLines(text, { comments: true });
  for (const { line, record } of records) {
    const where = `line ${line}`;
    switch (record.type) {
      case 'session': {
        const context = (record.context ?? {}) as PayloadOf<'session.started'>['context'];
        if (typeof context !== 'object' || Array.isArray(context)) throw new RecordingError(`${where}: context must be an object`);
        if (record.session_id !== undefined) sessionId = String(record.session_id);
        declared = true;
        declaration = {
          context,
          ...(typeof record.agent_kind === 'string' ? { agent_kind: record.agent_kind } : {}),
          ...(typeof record.model === 'string' ? { model: record.model } : {}),
          ...(typeof record.environment === 'string' ? { environment: record.environment } : {}),
          ...((PHASES as readonly unknown[]).includes(record.phase) ? { phase: record.phase as (typeof PHASES)[number] } : {}),
        };
        continue;
      }
      case 'action': {
        const id = record.action_id;
        if (typeof id !== 'string' || !isSubjectToken(id)) throw new RecordingError(`${where}: action_id must be 1-128 letters, digits, - or _`);
        if (actions.has(id)) continue;
        actions.set(id, {
          actionId: id,
          // Kept as recorded, even when malformed: Warden's answer to a malformed action is part of the replay.
          tool: record.tool as string,
          input: record.input as Record<string, unknown>,
          ...(record.kind !== undefined ? { kind: String(record.kind) } : {}),
          ...(typeof record.description === 'string' ? { description: record.description } : {}),
          ...((PHASES as readonly unknown[]).includes(record.phase) ? { phase: record.phase as (typeof PHASES)[number] } : {}),
          ...(typeof record.title === 'string' ? { title: record.title } : {}),
          ...(typeof record.at === 'string' ? { at: record.at } : {}),
          ...(typeof record.turn === 'string' && record.turn ? { turn: record.turn.slice(0, 128) } : {}),
        });
        continue;
      }
      case 'outcome': {
        const action = actions.get(String(record.action_id));
        if (!action) throw new RecordingError(`${where}: outcome for unknown action ${JSON.stringify(record.action_id)} (actions come before their outcomes)`);
        if (record.status !== 'success' && record.status !== 'error') throw new RecordingError(`${where}: status must be success or error`);
        if (action.outcome) continue;
        const error = record.error as { message?: unknown; class?: unknown } | undefined;
        action.outcome = {
          status: record.status,
          ...(error && typeof error.message === 'string' ? { error: { message: error.message, ...(typeof error.class === 'string' ? { class: error.class } : {}) } } : {}),
          ...(typeof record.duration_ms === 'number' ? { durationMs: record.duration_ms } : {}),
          ...(typeof record.output === 'string' ? { output: record.output } : {}),
          ...(typeof record.model === 'string' ? { model: record.model } : {}),
          ...(record.tokens && typeof record.tokens === 'object' ? { tokens: record.tokens as { prompt: number; completion: number } } : {}),
          ...(Array.isArray(record.files_touched) ? { filesTouched: record.files_touched as string[] } : {}),
          ...(typeof record.at === 'string' ? { at: record.at } : {}),
        };
        continue;
      }
      default:
        throw new RecordingError(`${where}: unknown record type ${JSON.stringify(record.type)} (session, action or outcome)`);
    }
  }
  return {
    format: 'warden',
    ...(sessionId ? { sessionId } : {}),
    declaration,
    actions: [...actions.values()],
    ...(skipped.length ? { skippedLines: skipped } : {}),
    ...(declared && !actions.size ? { empty: 'a Warden session that declares itself and records no action' } : {}),
  };
}
