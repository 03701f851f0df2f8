import { isSubjectToken, PHASES, type PayloadOf } from '@warden/contracts';
import { RecordingError, type RecordedAction, type RecordedSession } from '../recorded-session.js';

/**
 * Warden's own recording format: JSON Lines, one record per line, `type` first.
 *
 *   {"type":"session","session_id":"s-1","agent_kind":"claude-code","model":"…","environment":"development","phase":"implementation",
 *    "context":{"goal":"…","cwd":"/work/app","expected_paths":["/work/app/**"],"constraints":["…"]}}
 *   {"type":"action","action_id":"a-1","tool":"Bash","input":{"command":"npm test"},"kind":"tool_use","description":"…","phase":"testing","title":"…","at":"2026-11-21T09:00:00Z"}
 *   {"type":"outcome","action_id":"a-1","status":"error","error":{"message":"…","class":"…"},"duration_ms":1200,"output":"…",
 *    "model":"…","tokens":{"prompt":1200,"completion":300},"files_touched":["…"],"at":"…"}
 *
 * `session` comes first (optional: without it the session declares nothing). Actions replay in file
 * order; an outcome belongs to the action with its action_id. An action id seen twice is replayed once.
 * Blank lines and lines starting with `//` are skipped.
 */
export function parseWardenJsonl(text: string): RecordedSession {
  let declaration: PayloadOf<'session.started'> = { context: {} };
  let sessionId: string | undefined;
  const actions = new Map<string, RecordedAction>();
  const lines = text.split('\n');
  lines.forEach((raw, index) => {
    const line = raw.trim();
    if (!line || line.startsWith('//')) return;
    const where = `line ${index + 1}`;
    let record: Record<string, unknown>;
    try {
      record = JSON.parse(line) as Record<string, unknown>;
    } catch (error) {
      throw new RecordingError(`${where}: not JSON (${(error as Error).message})`);
    }
    if (!record || typeof record !== 'object' || Array.isArray(record)) throw new RecordingError(`${where}: not a JSON object`);
    switch (record.type) {
      case 'session': {
        const context = (record.context ?? {}) as PayloadOf<'session.started'>['context'];
        if (typeof context !== 'object' || Array.isArray(context)) throw new RecordingError(`${where}: context must be an object`);
        if (record.session_id !== undefined) sessionId = String(record.session_id);
        declaration = {
          context,
          ...(typeof record.agent_kind === 'string' ? { agent_kind: record.agent_kind } : {}),
          ...(typeof record.model === 'string' ? { model: record.model } : {}),
          ...(typeof record.environment === 'string' ? { environment: record.environment } : {}),
          ...((PHASES as readonly unknown[]).includes(record.phase) ? { phase: record.phase as (typeof PHASES)[number] } : {}),
        };
        return;
      }
      case 'action': {
        const id = record.action_id;
        if (typeof id !== 'string' || !isSubjectToken(id)) throw new RecordingError(`${where}: action_id must be 1-128 letters, digits, - or _`);
        if (actions.has(id)) return;
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
        });
        return;
      }
      case 'outcome': {
        const action = actions.get(String(record.action_id));
        if (!action) throw new RecordingError(`${where}: outcome for unknown action ${JSON.stringify(record.action_id)} (actions come before their outcomes)`);
        if (record.status !== 'success' && record.status !== 'error') throw new RecordingError(`${where}: status must be success or error`);
        if (action.outcome) return;
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
        return;
      }
      default:
        throw new RecordingError(`${where}: unknown record type ${JSON.stringify(record.type)} (session, action or outcome)`);
    }
  });
  return { format: 'warden', ...(sessionId ? { sessionId } : {}), declaration, actions: [...actions.values()] };
}
