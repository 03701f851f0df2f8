import { commandFailed } from '@warden/agent-edge';
import type { RecordedSession } from '../recorded-session.js';
import { readJsonLines } from './json-lines.js';
import { isoTime, outcomeOf, resultText, SessionBuilder, titleOf } from './session-builder.js';

type Obj = Record<string, unknown>;
const isObject = (value: unknown): value is Obj => !!value && typeof value === 'object' && !Array.isArray(value);
const str = (value: unknown) => (typeof value === 'string' ? value : undefined);

/** An event of a Copilot CLI session log: `{type: "<area>.<event>", id, timestamp, parentId, data}`. */
export const looksLikeCopilotEvent = (record: Obj): boolean =>
  typeof record['type'] === 'string' && /^(?:session|user|assistant|tool|subagent|hook|permission|system|skill)\.[a-z_.]+$/.test(record['type']) && isObject(record['data']);

/** A tool's arguments: an object, or the JSON string some versions write (decoded). */
function argumentsOf(raw: unknown): Obj {
  if (isObject(raw)) return raw;
  if (typeof raw === 'string') {
    try {
      const parsed = JSON.parse(raw) as unknown;
      return isObject(parsed) ? parsed : { arguments: parsed };
    } catch {
      return { arguments: raw };
    }
  }
  return {};
}

/**
 * A GitHub Copilot CLI session log (`~/.copilot/session-state/<session>/events.jsonl`). The events are
 * those of github/copilot-sdk `nodejs/src/generated/session-events.ts` (session-events.schema.json):
 * `session.start` (`sessionId`, `context.cwd`, `selectedModel`), `user.message` (`content`), `assistant.message`
 * (`toolRequests[]`: `toolCallId`, `name`, `arguments`), `assistant.usage` (`model`, `inputTokens`,
 * `outputTokens`, `cacheReadTokens`, `cacheWriteTokens`), `tool.execution_start` (`toolCallId`,
 * `toolName`, `arguments`, `mcpServerName`, `mcpToolName`) and `tool.execution_complete` (`toolCallId`,
 * `success`, `result.content`, `error.message`, `model`); a shell command whose result ends `<exited with exit code N>`,
 * N not 0, failed though its tool ran. Arguments may be a JSON string (decoded). A call
 * the model requested that never started (declined at the permission prompt) reports no outcome; a call
 * the user ran himself (`isUserRequested`) is said so in its description.
 */
export function parseCopilotCliEvents(text: string): RecordedSession {
  const { records, skipped } = readJsonLines(text);
  const session = new SessionBuilder('copilot-cli', 'copilot');
  let sessionId: string | undefined;
  let cwd: string | undefined;
  let model: string | undefined;
  let events = 0;
  let turns = 0;
  for (const { record } of records) {
    if (!looksLikeCopilotEvent(record)) continue;
    events++;
    const data = record['data'] as Obj;
    const at = isoTime(record['timestamp']);
    const stamp = at ? { at } : {};
    switch (record['type']) {
      case 'session.start':
      case 'session.resume': {
        sessionId ??= str(data['sessionId']);
        const context = isObject(data['context']) ? data['context'] : {};
        cwd ??= str(context['cwd']) ?? str(data['cwd']);
        model = str(data['selectedModel']) ?? model;
        break;
      }
      case 'session.model_change':
        model = str(data['newModel']) ?? str(data['model']) ?? model;
        break;
      case 'user.message':
        session.prompt(str(data['content']));
        break;
      case 'assistant.message':
        turns++;
        // A reply without tool requests may be the words that end the turn (text beside requests came before them).
        if (!(Array.isArray(data['toolRequests']) && data['toolRequests'].length)) session.reply(str(data['content']));
        for (const request of (Array.isArray(data['toolRequests']) ? data['toolRequests'] : []).filter(isObject)) {
          const id = str(request['toolCallId']);
          if (!id) continue;
          const tool = str(request['name']) ?? 'tool';
          const input = argumentsOf(request['arguments']);
          // The tool requests of one assistant message came together.
          session.add(id, { tool, input, kind: 'tool_use', title: titleOf(tool, input, str(request['intentionSummary']) ?? str(request['toolTitle'])), turn: str(record['id']) ?? `m${turns}`, ...stamp });
        }
        break;
      case 'assistant.usage': {
        const cacheRead = Number(data['cacheReadTokens'] ?? 0);
        const cacheWrite = Number(data['cacheWriteTokens'] ?? 0);
        session.usage({ prompt: Number(data['inputTokens'] ?? 0), completion: Number(data['outputTokens'] ?? 0), ...(cacheRead ? { cache_read: cacheRead } : {}), ...(cacheWrite ? { cache_write: cacheWrite } : {}) }, str(data['model']) ?? model);
        break;
      }
      case 'tool.execution_start': {
        const id = str(data['toolCallId']);
        if (!id) break;
        const input = argumentsOf(data['arguments'] ?? data['toolArgs']);
        const requested = session.get(id);
        // The request came with the assistant's message; the start says what actually ran, and when.
        if (requested) {
          if (Object.keys(input).length) requested.input = input;
          if (at) requested.at = at;
          break;
        }
        const server = str(data['mcpServerName']);
        session.add(id, {
          tool: str(data['toolName']) ?? 'tool',
          input,
          kind: 'tool_use',
          ...(server ? { description: `MCP tool ${str(data['mcpToolName']) ?? ''} of server ${server}`.replace('  ', ' ') } : {}),
          ...stamp,
        });
        break;
      }
      case 'tool.execution_complete': {
        const action = session.get(str(data['toolCallId']) ?? '');
        if (!action || action.outcome) break;
        const result = isObject(data['result']) ? data['result'] : {};
        const error = isObject(data['error']) ? str(data['error']['message']) : str(data['error']);
        const ran = data['success'] !== false;
        const text = ran ? resultText(result['content'] ?? result['detailedContent']) : (error ?? resultText(result['content']));
        const ok = ran && !commandFailed(text);
        if (data['isUserRequested'] === true) action.description = 'run by the user';
        action.outcome = outcomeOf({ status: ok ? 'success' : 'error', ...(text ? { text } : {}), ...stamp, ...(action.at ? { since: action.at } : {}) });
        if (str(data['model'])) action.outcome.model = str(data['model'])!;
        break;
      }
    }
  }
  return session.build({ ...(sessionId ? { sessionId } : {}), ...(cwd ? { cwd } : {}), ...(model ? { model } : {}), skipped, ...(events ? { empty: `a Copilot CLI session of ${events} events without any tool call` } : {}) });
}
