import { isSubjectToken } from '@warden/contracts';
import { TurnWords } from './turn-words.js';
import type { TokenUsage } from '@warden/pricing';
import { cancelledBySibling, sessionDeclaration, filesTouched, goalFromTranscriptLines, outputExcerpt, promptText, reportedFailure, requestOf, toolAction } from '@warden/agent-edge';
import { RecordingError, type RecordedAction, type RecordedSession } from '../recorded-session.js';
import { readJsonLines } from './json-lines.js';

interface TranscriptLine {
  type?: string;
  sessionId?: string;
  cwd?: string;
  timestamp?: string;
  /** A subagent's line, interleaved with the main session's, and the subagent's id. */
  isSidechain?: boolean;
  agentId?: string;
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
  text?: unknown;
}

/** What Claude Code writes as the result of a tool call the user declined or interrupted. */
const NOT_RUN = /^(?:The user doesn't want to proceed with this tool use|\[Request interrupted by user)/;

const blocks = (content: unknown): ContentBlock[] => (Array.isArray(content) ? (content.filter((b) => b && typeof b === 'object') as ContentBlock[]) : []);

/**
 * A Claude Code transcript (`~/.claude/projects/<project>/<session>.jsonl`): assistant messages carry
 * `tool_use` blocks (id, name, input) with the model and usage tokens, user messages carry
 * `tool_result` blocks (tool_use_id, is_error, content); every line has timestamp, cwd and sessionId.
 * A resumed session repeats earlier messages: a tool-use id (and an assistant message's usage) counts
 * once. The session is declared as `warden hook` declares it live (cwd scope, first prompt as goal). A
 * damaged line (a transcript copied while Claude Code wrote it) is skipped with a warning.
 */
export function parseClaudeCodeTranscript(text: string): RecordedSession {
  const { records, skipped } = readJsonLines(text);
  const actions = new Map<string, RecordedAction>();
  const countedUsage = new Set<string>();
  const rejected = new Set<string>();
  let pendingRequest: string | undefined;
  let seenRequest = false;
  const usageOf = new Map<string, { tokens: TokenUsage; model?: string }>();
  let sessionId: string | undefined;
  let cwd: string | undefined;
  let messages = 0;
  const turnWords = new TurnWords();
  const said = new Set<string>();
  let lastAction: RecordedAction | undefined;
  records.forEach(({ line: lineNumber, record }) => {
    const line = record as TranscriptLine;
    sessionId ??= line.sessionId;
    cwd ??= line.cwd;
    const message = line.message;
    if (!message) return;
    if (line.type === 'assistant' || line.type === 'user') messages++;
    if (line.type === 'assistant') {
      const uses = blocks(message.content).filter((b) => b.type === 'tool_use' && typeof b.id === 'string' && typeof b.name === 'string');
      const usageKey = message.id ?? `${line.timestamp}:${uses.map((u) => u.id).join(',')}`;
      let usageTaken = countedUsage.has(usageKey);
      for (const use of uses) {
        if (actions.has(use.id!)) continue;
        if (!isSubjectToken(use.id!)) throw new RecordingError(`line ${lineNumber}: tool_use id ${JSON.stringify(use.id)} is not usable as an action id`);
        const input = use.input && typeof use.input === 'object' && !Array.isArray(use.input) ? (use.input as Record<string, unknown>) : {};
        const action = toolAction(use.name!, input, line.isSidechain ? { ...(line.agentId ? { id: line.agentId } : {}), type: 'sidechain' } : undefined);
        const recorded: RecordedAction = { actionId: use.id!, tool: action.tool, input: action.input, kind: action.kind, ...(action.description ? { description: action.description } : {}), ...(line.timestamp ? { at: line.timestamp } : {}) };
        // Claude Code's shell keeps the directory a `cd` moved it to: the line's cwd is where the call runs.
        if (line.cwd && cwd && line.cwd !== cwd) recorded.cwd = line.cwd;
        // Each tool call of a response is a line of its own; the response's id says which came together.
        if (typeof message.id === 'string' && message.id) recorded.turn = message.id.slice(0, 128);
        // The first request is the goal the session is declared with; a later one changes it.
        if (pendingRequest !== undefined && !line.isSidechain) {
          if (seenRequest) recorded.request = pendingRequest;
          seenRequest = true;
          pendingRequest = undefined;
        }
        // The model call that produced the tool calls is accounted once, with its first tool call; Claude
        // Code's own `<synthetic>` messages (API errors, usage-limit notices) are no model call.
        if (!usageTaken && message.usage && message.model !== '<synthetic>') {
          usageTaken = true;
          countedUsage.add(usageKey);
          const u = message.usage;
          const tokens: TokenUsage = {
            prompt: u.input_tokens ?? 0,
            completion: u.output_tokens ?? 0,
            ...(u.cache_read_input_tokens ? { cache_read: u.cache_read_input_tokens } : {}),
            ...(u.cache_creation_input_tokens ? { cache_write: u.cache_creation_input_tokens } : {}),
          };
          usageOf.set(use.id!, { tokens, ...(message.model ? { model: message.model } : {}) });
        }
        actions.set(use.id!, recorded);
        lastAction = recorded;
      }
      // A reply without tool calls may be the words that end the turn (text beside calls came before them);
      // a resumed session repeats it, said once.
      const replyKey = message.id ?? `${line.timestamp}:text`;
      if (!line.isSidechain && !uses.length && !said.has(replyKey)) {
        said.add(replyKey);
        turnWords.said(blocks(message.content).filter((b) => b.type === 'text').map((b) => (typeof b.text === 'string' ? b.text : '')).join('\n'), lastAction);
      }
      return;
    }
    if (line.type === 'user') {
      const prompt = line.isSidechain ? undefined : promptText(line);
      const request = prompt ? requestOf(prompt) : undefined;
      if (request) {
        pendingRequest = request;
        turnWords.ended(lastAction);
      }
      for (const result of blocks(message.content).filter((b) => b.type === 'tool_result' && typeof b.tool_use_id === 'string')) {
        const action = actions.get(result.tool_use_id!);
        if (!action || action.outcome || rejected.has(action.actionId)) continue;
        const text = outputExcerpt(result.content);
        // The user declined it at Claude Code's permission prompt, or interrupted it, or Claude Code cancelled it
        // for another call of the response that failed: it never ran to its end, and the hook reports no outcome of it.
        if (result.is_error && text && (NOT_RUN.test(text) || cancelledBySibling(text))) {
          rejected.add(action.actionId);
          continue;
        }
        const usage = usageOf.get(action.actionId);
        const duration = action.at && line.timestamp ? Date.parse(line.timestamp) - Date.parse(action.at) : NaN;
        const failure = result.is_error ? undefined : reportedFailure(action.input, result.content);
        const failed = result.is_error || failure !== undefined;
        action.outcome = {
          status: failed ? 'error' : 'success',
          ...(failed ? { error: { message: (failure ?? text ?? 'the tool failed').slice(0, 8000) } } : text ? { output: text } : {}),
          ...(Number.isFinite(duration) && duration >= 0 ? { durationMs: duration } : {}),
          ...(usage ? { tokens: usage.tokens, ...(usage.model ? { model: usage.model } : {}) } : {}),
          ...(filesTouched(action.tool, action.input) ? { filesTouched: filesTouched(action.tool, action.input) } : {}),
          ...(line.timestamp ? { at: line.timestamp } : {}),
        };
      }
    }
  });
  turnWords.ended(lastAction);
  if (!records.length) throw new RecordingError(skipped.length ? `no line of the transcript is JSON (line ${skipped[0]!.line}: ${skipped[0]!.reason})` : 'the transcript is empty');
  const goal = goalFromTranscriptLines(text.split('\n'));
  return {
    format: 'claude-code',
    ...(sessionId ? { sessionId } : {}),
    // Declared exactly as the live hook declares the session (no model: the hook does not know it).
    declaration: sessionDeclaration({ agentKind: 'claude-code', cwd: cwd ?? '/', ...(goal ? { goal } : {}) }),
    actions: [...actions.values()],
    ...(skipped.length ? { skippedLines: skipped } : {}),
    ...(!actions.size && messages ? { empty: `a Claude Code transcript of ${messages} messages without any tool call` } : {}),
  };
}

/** Record types a Claude Code transcript holds besides its messages. */
const TRANSCRIPT_RECORDS = new Set(['user', 'assistant', 'system', 'summary', 'file-history-snapshot', 'progress', 'queue-operation', 'ai-title', 'permission-mode', 'attachment']);

/** True when a JSONL text looks like a Claude Code transcript rather than Warden's format. */
export function looksLikeClaudeCodeTranscript(firstLine: Record<string, unknown>): boolean {
  if ('action_id' in firstLine) return false;
  return 'sessionId' in firstLine || 'uuid' in firstLine || 'parentUuid' in firstLine || (typeof firstLine.type === 'string' && TRANSCRIPT_RECORDS.has(firstLine.type));
}
