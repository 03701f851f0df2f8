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
  actionId: string;
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
  /** Where it ran, when the agent's shell had moved (cd) away from the session's declared directory. */
  cwd?: string;
}

export type RecordingFormat = 'warden' | 'claude-code' | 'swe-agent' | 'labelled';

/** A recorded session in any supported format, ready to replay. */
export interface RecordedSession {
  format: RecordingFormat;
  /** The session id in the recording, when it has one. */
  sessionId?: string;
  declaration: PayloadOf<'session.started'>;
  actions: RecordedAction[];
}

export class RecordingError extends Error {}
