/** What the adapter remembers of a Claude Code session between two hook calls. */
export interface HookSessionState {
  /** session.started was published for this session. */
  declared: boolean;
  /** The declaration carried a goal (a later prompt declares it again when it did not). */
  goalDeclared?: boolean;
  /** Stream sequence of the last control message read from the control stream. */
  controlSequence: number;
  /** Ids of control messages already shown (the last few), so none is shown twice. */
  seenControls: string[];
  /** Set by an emergency stop, cleared by a resume: every later call is denied. */
  stopped?: string;
  /** How often the session ended (a resumed session ends again): numbers its session.ended messages. */
  endedRuns?: number;
  /** Control messages' text taken at an event whose answer could not carry it to the model: shown at the next one that can. */
  unshownContext?: string[];
  /** For agents that name no tool call: how many calls of each call key were proposed (numberedCall). */
  callRuns?: Record<string, number>;
  /**
   * Tool calls the edge answered without a decision of Warden's (the session stopped, Warden undecided at
   * the deadline, a fail-open tool), the latest few: what their outcomes are held against.
   */
  unrecordedAnswers?: [callId: string, answer: 'stopped' | 'held' | 'fail_open'][];
  /** How far the session's transcript was read for its model usage (without the agent's telemetry). */
  transcriptUsage?: { path: string; offset: number; model?: string };
}

/** How many control ids a state keeps. */
export const SEEN_CONTROLS_KEPT = 200;

export const emptySessionState = (): HookSessionState => ({ declared: false, controlSequence: 0, seenControls: [] });

/**
 * Where the states live: a file per session for the command hook (one process per call), a KV bucket
 * for the gateway (any replica may serve the next call). Claude Code runs the hooks of parallel tool
 * calls at the same time: `update` runs one task per session at a time and stores what it changed.
 */
export interface SessionStates {
  read(sessionId: string): Promise<HookSessionState>;
  update<T>(sessionId: string, waitMs: number, task: (state: HookSessionState) => Promise<T>): Promise<T>;
}
