import { RecordingError, type RecordedSession } from '../recorded-session.js';
import { isoTime, outcomeOf, resultText, SessionBuilder, titleOf } from './session-builder.js';

type Obj = Record<string, unknown>;
const isObject = (value: unknown): value is Obj => !!value && typeof value === 'object' && !Array.isArray(value);
const str = (value: unknown) => (typeof value === 'string' ? value : undefined);

/** `opencode export` output: `{info, messages: [{info, parts}]}`. */
export const looksLikeOpenCodeExport = (doc: unknown): boolean =>
  isObject(doc) && isObject(doc['info']) && Array.isArray(doc['messages']) && (doc['messages'] as unknown[]).every((m) => isObject(m) && isObject(m['info']) && Array.isArray(m['parts']));

/**
 * A session exported with `opencode export <session>` (OpenCode keeps sessions in
 * `~/.local/share/opencode/`; the shape: anomalyco/opencode `packages/opencode/src/session/message-v2.ts`,
 * ToolPart and ToolState). `info` is the session (`id`, `directory`, `model`); each message has its
 * `info` (`role`, `modelID`, `path.cwd`, `time`) and `parts[]`: a user's `text` parts are the prompt, a part
 * of type `tool` is an action (`callID`, `tool`, `state`: `status` pending | running | completed | error,
 * `input`, `output`, `error`, `title`, `metadata.exit`, `time.start`/`end` in epoch ms), and `step-finish`
 * parts carry the model's tokens for the step. A tool still pending or running when the session was
 * exported reports no outcome; a shell command that exited non-zero is a failure.
 */
export function parseOpenCodeExport(text: string): RecordedSession {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (error) {
    throw new RecordingError(`not JSON (${(error as Error).message})`);
  }
  if (!looksLikeOpenCodeExport(doc)) throw new RecordingError('an OpenCode export needs "info" and "messages" with "info" and "parts"');
  const info = (doc as Obj)['info'] as Obj;
  const messages = (doc as Obj)['messages'] as Obj[];
  const session = new SessionBuilder('opencode', 'opencode');
  const sessionModel = isObject(info['model']) ? str(info['model']['id']) : undefined;
  const cwd = str(info['directory']);
  let model = sessionModel;
  let declared = sessionModel;
  for (const message of messages) {
    const meta = message['info'] as Obj;
    const parts = (message['parts'] as unknown[]).filter(isObject);
    if (meta['role'] === 'user') {
      // Parts OpenCode adds itself (a file's contents, a tool's summary) are marked synthetic.
      session.prompt(parts.filter((p) => p['type'] === 'text' && p['synthetic'] !== true).map((p) => str(p['text']) ?? '').join('\n'));
      continue;
    }
    if (meta['role'] !== 'assistant') continue;
    model = str(meta['modelID']) ?? model;
    declared ??= model;
    const messageCwd = isObject(meta['path']) ? str(meta['path']['cwd']) : undefined;
    // An assistant message runs the model once per step: the tool calls of one step came together.
    let step = 0;
    for (const part of parts) {
      if (part['type'] === 'step-start') step++;
      if (part['type'] === 'step-finish' && isObject(part['tokens'])) {
        const t = part['tokens'];
        const cache = isObject(t['cache']) ? t['cache'] : {};
        const read = Number(cache['read'] ?? 0);
        const write = Number(cache['write'] ?? 0);
        // OpenCode's input excludes the cache; reasoning is counted apart from the output and billed as output.
        session.usage({ prompt: Number(t['input'] ?? 0), completion: Number(t['output'] ?? 0) + Number(t['reasoning'] ?? 0), ...(read ? { cache_read: read } : {}), ...(write ? { cache_write: write } : {}) }, str(meta['modelID']) ?? model);
        continue;
      }
      // Words after the step's last tool call may be the words that end the turn.
      if (part['type'] === 'text' && part['synthetic'] !== true) session.reply(str(part['text']));
      if (part['type'] !== 'tool') continue;
      const id = str(part['callID']) ?? str(part['id']);
      const state = isObject(part['state']) ? part['state'] : {};
      if (!id) continue;
      const time = isObject(state['time']) ? state['time'] : {};
      const at = isoTime(time['start']) ?? isoTime(isObject(meta['time']) ? meta['time']['created'] : undefined);
      const tool = str(part['tool']) ?? 'tool';
      const input = isObject(state['input']) ? state['input'] : {};
      const action = session.add(id, {
        tool,
        input,
        kind: 'tool_use',
        title: titleOf(tool, input, str(state['title'])),
        turn: `${str(meta['id']) ?? 'message'}#${step}`,
        ...(at ? { at } : {}),
        ...(messageCwd && messageCwd !== cwd ? { cwd: messageCwd } : {}),
      });
      if (!action || (state['status'] !== 'completed' && state['status'] !== 'error')) continue;
      const metadata = isObject(state['metadata']) ? state['metadata'] : {};
      const exit = typeof metadata['exit'] === 'number' ? metadata['exit'] : undefined;
      const failed = state['status'] === 'error' || (exit !== undefined && exit !== 0);
      const output = resultText(state['status'] === 'error' ? state['error'] : state['output']);
      const end = isoTime(time['end']);
      action.outcome = outcomeOf({ status: failed ? 'error' : 'success', ...(output ? { text: output } : {}), ...(end ? { at: end } : {}), ...(at ? { since: at } : {}) });
    }
  }
  return session.build({ ...(str(info['id']) ? { sessionId: str(info['id'])! } : {}), ...(cwd ? { cwd } : {}), ...(declared ? { model: declared } : {}), empty: `an OpenCode session of ${messages.length} messages without any tool call` });
}
