import { isSubjectToken } from '@warden/contracts';
import { claudeSessionDeclaration } from '../../hook/session-declaration.js';
import { goalFromTranscriptLines } from '../../hook/transcript-goal.js';
import { filesTouched, outputExcerpt, toolAction } from '../../hook/tool-action.js';
import { RecordingError, type RecordedAction, type RecordedSession } from '../recorded-session.js';

interface TranscriptLine {
  type?: string;
  sessionId?: string;
  cwd?: string;
  timestamp?: string;
  message?: {
    id?: string;
    role?: string;
    model?: string;
    content?: unknown;
    usage?: { input_tokens?: number; output_tokens?: number; cache_read_input_tokens?: number; cache_creation_input_tokens?: number };
  };
}

interface ContentBlock {
  type?: string;
  id?: string;
  name?: string;
  input?: unknown;
  tool_use_id?: string;
  is_error?: boolean;
  content?: unknown;
}

const blocks = (content: unknown): ContentBlock[] => (Array.isArray(content) ? (content.filter((b) => b && typeof b === 'object') as ContentBlock[]) : []);

/**
 * A Claude Code transcript (`~/.claude/projects/<project>/<session>.jsonl`): assistant messages carry
 * `tool_use` blocks (id, name, input) with the model and usage tokens, user messages carry
 * `tool_result` blocks (tool_use_id, is_error, content); every line has timestamp, cwd and sessionId.
 * A resumed session repeats earlier messages: a tool-use id (and an assistant message's usage) counts
 * once. The session is declared as `warden hook` declares it live (cwd scope, first prompt as goal).
 */
export function parseClaudeCodeTranscript(text: string): RecordedSession {
  const lines = text.split('\n').filter((l) => l.trim());
  const actions = new Map<string, RecordedAction>();
  const countedUsage = new Set<string>();
  const usageOf = new Map<string, { prompt: number; completion: number; model?: string }>();
  let sessionId: string | undefined;
  let cwd: string | undefined;
  let parsedLines = 0;
  lines.forEach((raw, index) => {
    let line: TranscriptLine;
    try {
      line = JSON.parse(raw) as TranscriptLine;
    } catch (error) {
      throw new RecordingError(`line ${index + 1}: not JSON (${(error as Error).message})`);
    }
    parsedLines++;
    sessionId ??= line.sessionId;
    cwd ??= line.cwd;
    const message = line.message;
    if (!message) return;
    if (line.type === 'assistant') {
      const uses = blocks(message.content).filter((b) => b.type === 'tool_use' && typeof b.id === 'string' && typeof b.name === 'string');
      const usageKey = message.id ?? `${line.timestamp}:${uses.map((u) => u.id).join(',')}`;
      let usageTaken = countedUsage.has(usageKey);
      for (const use of uses) {
        if (actions.has(use.id!)) continue;
        if (!isSubjectToken(use.id!)) throw new RecordingError(`line ${index + 1}: tool_use id ${JSON.stringify(use.id)} is not usable as an action id`);
        const input = use.input && typeof use.input === 'object' && !Array.isArray(use.input) ? (use.input as Record<string, unknown>) : {};
        const action = toolAction(use.name!, input);
        const recorded: RecordedAction = { actionId: use.id!, tool: action.tool, input: action.input, kind: action.kind, ...(action.description ? { description: action.description } : {}), ...(line.timestamp ? { at: line.timestamp } : {}) };
        // The model call that produced the tool calls is accounted once, with its first tool call.
        if (!usageTaken && message.usage) {
          usageTaken = true;
          countedUsage.add(usageKey);
          const prompt = (message.usage.input_tokens ?? 0) + (message.usage.cache_read_input_tokens ?? 0) + (message.usage.cache_creation_input_tokens ?? 0);
          usageOf.set(use.id!, { prompt, completion: message.usage.output_tokens ?? 0, ...(message.model ? { model: message.model } : {}) });
        }
        actions.set(use.id!, recorded);
      }
      return;
    }
    if (line.type === 'user') {
      for (const result of blocks(message.content).filter((b) => b.type === 'tool_result' && typeof b.tool_use_id === 'string')) {
        const action = actions.get(result.tool_use_id!);
        if (!action || action.outcome) continue;
        const text = outputExcerpt(result.content);
        const usage = usageOf.get(action.actionId);
        const duration = action.at && line.timestamp ? Date.parse(line.timestamp) - Date.parse(action.at) : NaN;
        action.outcome = {
          status: result.is_error ? 'error' : 'success',
          ...(result.is_error ? { error: { message: (text ?? 'the tool failed').slice(0, 8000) } } : text ? { output: text } : {}),
          ...(Number.isFinite(duration) && duration >= 0 ? { durationMs: duration } : {}),
          ...(usage ? { tokens: { prompt: usage.prompt, completion: usage.completion }, ...(usage.model ? { model: usage.model } : {}) } : {}),
          ...(filesTouched(action.tool, action.input) ? { filesTouched: filesTouched(action.tool, action.input) } : {}),
          ...(line.timestamp ? { at: line.timestamp } : {}),
        };
      }
    }
  });
  if (!parsedLines) throw new RecordingError('the transcript is empty');
  const goal = goalFromTranscriptLines(lines);
  return {
    format: 'claude-code',
    ...(sessionId ? { sessionId } : {}),
    // Declared exactly as the live hook declares the session (no model: the hook does not know it).
    declaration: claudeSessionDeclaration({ cwd: cwd ?? '/', ...(goal ? { goal } : {}) }),
    actions: [...actions.values()],
  };
}

/** True when a JSONL text looks like a Claude Code transcript rather than Warden's format. */
export function looksLikeClaudeCodeTranscript(firstLine: Record<string, unknown>): boolean {
  return 'sessionId' in firstLine || 'uuid' in firstLine || 'parentUuid' in firstLine || ((firstLine.type === 'user' || firstLine.type === 'assistant' || firstLine.type === 'summary') && !('action_id' in firstLine));
}
