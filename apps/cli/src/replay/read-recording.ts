import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { looksLikeAiderHistory, parseAiderChatHistory } from './formats/aider-chat-history.js';
import { looksLikeAntigravityStep, parseAntigravityTranscript } from './formats/antigravity-transcript.js';
import { looksLikeClaudeCodeTranscript, parseClaudeCodeTranscript } from './formats/claude-code-transcript.js';
import { looksLikeCodexRollout, looksLikeEarlyCodexRollout, parseCodexRollout } from './formats/codex-rollout.js';
import { looksLikeCopilotEvent, parseCopilotCliEvents } from './formats/copilot-cli-events.js';
import { looksLikeCopilotShare, parseCopilotShare } from './formats/copilot-cli-share.js';
import { looksLikeCursorLine, looksLikeCursorText, parseCursorTextTranscript, parseCursorTranscript } from './formats/cursor-transcript.js';
import { looksLikeGeminiChat, looksLikeGeminiChatLine, looksLikeGeminiErrorReport, looksLikeGeminiStream, parseGeminiCli } from './formats/gemini-cli.js';
import { readJsonLines } from './formats/json-lines.js';
import { looksLikeLabelledSession, parseLabelledSession } from './formats/labelled-session.js';
import { looksLikeOpenCodeExport, parseOpenCodeExport } from './formats/opencode-export.js';
import { looksLikeSpecStory, parseSpecStory } from './formats/specstory-markdown.js';
import { looksLikeSweAgentTrajectory, parseSweAgentTrajectory } from './formats/swe-agent-traj.js';
import { looksLikeWardenRecord, parseWardenJsonl } from './formats/warden-jsonl.js';
import { RecordingError, type RecordedSession, type RecordingFormat } from './recorded-session.js';

/** Every format Warden reads, and where the agent writes it (for --help, errors and the README). */
export const FORMAT_SOURCES: Readonly<Record<RecordingFormat, string>> = {
  warden: "Warden's own JSON Lines, written by an adapter (apps/cli/README.md, Warden JSONL)",
  'claude-code': 'Claude Code transcripts: ~/.claude/projects/<project>/<session>.jsonl',
  'swe-agent': 'SWE-agent trajectories: trajectories/<user>/<run>/<instance>.traj',
  labelled: "Warden's labelled sessions: test/corpus/sessions/*.json",
  codex: 'Codex CLI, IDE and app rollouts: ~/.codex/sessions/YYYY/MM/DD/rollout-*.jsonl',
  'gemini-cli': 'Gemini CLI chats ~/.gemini/tmp/<project>/chats/*.json(l); error reports $TMPDIR/gemini-client-error-*.json; `gemini -o stream-json` output',
  'copilot-cli': 'GitHub Copilot CLI session logs: ~/.copilot/session-state/<session>/events.jsonl; a session exported with /share (Markdown)',
  opencode: 'OpenCode sessions as `opencode export <session>` prints them',
  antigravity: 'Antigravity transcripts: ~/.gemini/antigravity/brain/<conversation>/.system_generated/logs/transcript.jsonl',
  aider: 'Aider chat histories: .aider.chat.history.md in the repository Aider worked on',
  cursor: 'Cursor agent transcripts: ~/.cursor/projects/<project>/agent-transcripts/<id>.jsonl (or .txt)',
  specstory: "SpecStory's Markdown of Cursor, Codex CLI, Gemini CLI, VS Code Copilot and Claude Code sessions: .specstory/history/*.md",
};

export const FORMATS = Object.keys(FORMAT_SOURCES) as RecordingFormat[];

/** One line per format, its name and where the agent writes it (for --help). */
export function formatList(): string {
  const width = Math.max(...FORMATS.map((f) => f.length));
  return FORMATS.map((f) => `  ${f.padEnd(width)}  ${FORMAT_SOURCES[f]}`).join('\n');
}

const isObject = (value: unknown): value is Record<string, unknown> => !!value && typeof value === 'object' && !Array.isArray(value);

/** How many lines of a JSON Lines recording detection looks at for a record it knows. */
const DETECTION_LINES = 200;

/** The format of one JSON Lines record; the most permissive tests come last. */
function lineFormat(record: Record<string, unknown>): RecordingFormat | undefined {
  if (looksLikeWardenRecord(record)) return 'warden';
  if (looksLikeCodexRollout(record) || looksLikeEarlyCodexRollout(record)) return 'codex';
  if (looksLikeCopilotEvent(record)) return 'copilot-cli';
  if (looksLikeGeminiStream(record) || looksLikeGeminiChatLine(record)) return 'gemini-cli';
  if (looksLikeAntigravityStep(record)) return 'antigravity';
  if (looksLikeCursorLine(record)) return 'cursor';
  if (looksLikeClaudeCodeTranscript(record)) return 'claude-code';
  return undefined;
}

/**
 * Which format a recording is in, from its content alone (a file's name says nothing: agents' recordings
 * are copied and renamed). A JSON document is told by its top-level fields, an Aider history by its
 * headers and notes, a Cursor text transcript by its `user:` and `[Tool call]` lines, a Copilot CLI export by its title, a SpecStory export by its header comment, JSON Lines by the first record of a known shape (a damaged first line does not hide
 * the rest). A recording in none of them is an error that names every format Warden reads.
 */
export function detectFormat(text: string): RecordingFormat {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch {
    doc = undefined;
  }
  if (isObject(doc)) {
    if (looksLikeLabelledSession(doc)) return 'labelled';
    if (looksLikeSweAgentTrajectory(doc)) return 'swe-agent';
    if (looksLikeOpenCodeExport(doc)) return 'opencode';
    if (looksLikeGeminiChat(doc) || looksLikeGeminiErrorReport(doc)) return 'gemini-cli';
  }
  if (looksLikeSpecStory(text)) return 'specstory';
  if (looksLikeAiderHistory(text)) return 'aider';
  if (looksLikeCursorText(text)) return 'cursor';
  if (looksLikeCopilotShare(text)) return 'copilot-cli';
  const head = text.split('\n', DETECTION_LINES).join('\n');
  const { records } = readJsonLines(head);
  for (const { record } of records) {
    const format = lineFormat(record);
    if (format) return format;
  }
  const what = records.length || doc !== undefined ? 'JSON in none of the shapes of its formats' : 'neither JSON, JSON Lines nor an Aider chat history';
  throw new RecordingError(`not a recording Warden reads: ${what}. Warden reads ${FORMATS.join(', ')} (\`warden replay --help\` says where each agent writes its recordings)`);
}

function parse(format: RecordingFormat, text: string, path: string): RecordedSession {
  switch (format) {
    case 'swe-agent':
      return parseSweAgentTrajectory(text, basename(path).replace(/\.traj$/, ''));
    case 'claude-code':
      return parseClaudeCodeTranscript(text);
    case 'labelled':
      return parseLabelledSession(text);
    case 'codex':
      return parseCodexRollout(text);
    case 'gemini-cli':
      return parseGeminiCli(text);
    case 'copilot-cli':
      return looksLikeCopilotShare(text) ? parseCopilotShare(text) : parseCopilotCliEvents(text);
    case 'opencode':
      return parseOpenCodeExport(text);
    case 'antigravity':
      return parseAntigravityTranscript(text);
    case 'aider':
      return parseAiderChatHistory(text);
    case 'cursor':
      return looksLikeCursorText(text) ? parseCursorTextTranscript(text) : parseCursorTranscript(text);
    case 'specstory':
      return parseSpecStory(text);
    case 'warden':
      return parseWardenJsonl(text);
  }
}

/**
 * Reads and parses a recording; `format` overrides detection. Errors name the file and the line. A
 * recording read into no action is an error (it is in another format, or not a session), unless the
 * reader found a session that genuinely made none, which the session says (`empty`).
 */
export function readRecording(path: string, format?: RecordingFormat): RecordedSession {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new RecordingError(`cannot read ${path}: ${(error as Error).message}`);
  }
  try {
    const chosen = format ?? detectFormat(text);
    const session = parse(chosen, text, path);
    if (!session.actions.length && !session.empty) {
      throw new RecordingError(
        `read as ${chosen} but it holds no ${chosen} session${format ? ' (is it in another format? leave --format out to detect it)' : ''}. Warden reads ${FORMATS.join(', ')}`,
      );
    }
    return session;
  } catch (error) {
    if (error instanceof RecordingError) throw new RecordingError(`${path}: ${error.message}`);
    throw error;
  }
}

/** The warnings a recording's reading gives: one per damaged line skipped, naming the file and the line. */
export function readingWarnings(path: string, session: RecordedSession): string[] {
  return (session.skippedLines ?? []).map((s) => `${path} line ${s.line}: ${s.reason}; skipped`);
}
