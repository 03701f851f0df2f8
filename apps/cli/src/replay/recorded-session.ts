import type { PayloadOf } from '@warden/contracts';
import type { TokenUsage } from '@warden/pricing';

/** What happened when a recorded action ran. */
export interface RecordedOutcome {
  status: 'success' | 'error';
  error?: { message: string; class?: string };
  durationMs?: number;
  output?: string;
  model?: string;
  tokens?: TokenUsage;
  filesTouched?: string[];
  /** The agent's progress report (seed 002 §2.2), for stagnation. */
  progress?: PayloadOf<'action.outcome'>['progress'];
  /** ISO 8601, when the result was recorded. */
  at?: string;
}

/** One action of a recorded session, as the agent proposed it. */
export interface RecordedAction {
  /** The id the action is proposed under (1-128 letters, digits, - or _, as Warden's messages require). */
  actionId: string;
  /**
   * The recording's own id of the action when it is not usable as an action id, e.g. a positional id
   * `L22.0` (line 22, first tool call): labels name the action by it, reports show it.
   */
  recordedId?: string;
  /** As recorded; a malformed recording (e.g. a number) is sent as it is, and Warden rejects it. */
  tool: string;
  input: Record<string, unknown>;
  kind?: string;
  description?: string;
  phase?: PayloadOf<'action.proposed'>['phase'];
  /** Shown in reports instead of the tool and its main argument. */
  title?: string;
  /** ISO 8601, when the agent proposed it (for --timing real). */
  at?: string;
  outcome?: RecordedOutcome;
  /** A new request of the user that came just before this action (a follow-up prompt): the goal from here on. */
  request?: string;
  /** The words the agent ended its turn with, right after this action (what its Stop hook sends as `last_assistant_message`). */
  turnEnd?: string;
  /** Where it ran, when that is not the session's declared directory (a shell that moved, a call's own working directory). */
  cwd?: string;
  /** The model response it came in, when the recording tells (calls of one turn were made before any of their results came back). */
  turn?: string;
}

export type RecordingFormat = 'warden' | 'claude-code' | 'swe-agent' | 'labelled' | 'codex' | 'gemini-cli' | 'copilot-cli' | 'opencode' | 'antigravity' | 'aider' | 'cursor' | 'specstory';

/** A line of a recording that could not be read (truncated, or starting in the middle of a record), skipped. */
export interface SkippedLine {
  /** 1-based. */
  line: number;
  reason: string;
}

/** A recorded session in any supported format, ready to replay. */
export interface RecordedSession {
  format: RecordingFormat;
  /** The session id in the recording, when it has one. */
  sessionId?: string;
  declaration: PayloadOf<'session.started'>;
  actions: RecordedAction[];
  /** Damaged lines the reader skipped; each is also reported as a warning naming the file and line. */
  skippedLines?: SkippedLine[];
  /** What the reader could not read, or read in a way worth knowing (e.g. two runs in one file), once each. */
  notes?: string[];
  /** Set when the session holds no action and the recording shows why (a chat without tool calls). */
  empty?: string;
}

export class RecordingError extends Error {}
