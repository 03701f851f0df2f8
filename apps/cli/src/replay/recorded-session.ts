import type { PayloadOf } from '@warden/contracts';

/** What happened when a recorded action ran. */
export interface RecordedOutcome {
  status: 'success' | 'error';
  error?: { message: string; class?: string };
  durationMs?: number;
  output?: string;
  model?: string;
  tokens?: { prompt: number; completion: number };
  filesTouched?: string[];
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
}

export type RecordingFormat = 'warden' | 'claude-code' | 'swe-agent';

/** A recorded session in any supported format, ready to replay. */
export interface RecordedSession {
  format: RecordingFormat;
  /** The session id in the recording, when it has one. */
  sessionId?: string;
  declaration: PayloadOf<'session.started'>;
  actions: RecordedAction[];
}

export class RecordingError extends Error {}
