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
  /** For agents that name no tool call: the latest call proposed of each call key (call-id.ts), oldest first. */
  derivedCalls?: Record<string, DerivedCallRecord>;
  /**
   * Tool calls the edge answered without a decision of Warden's (the session stopped, Warden undecided at
   * the deadline, a fail-open tool), the latest few: what their outcomes are held against.
   */
  unrecordedAnswers?: [callId: string, answer: 'stopped' | 'held' | 'fail_open'][];
  /** How far the session's transcript was read for its model usage (without the agent's telemetry). */
  transcriptUsage?: { path: string; offset: number; model?: string };
}

/** A call of an agent that names none, as its session remembers it: what its outcome is reported under. */
export interface DerivedCallRecord {
  /** What follows the key in the id Warden knows the call by (newCallId). */
  tag: string;
  /** The digest of the payload that proposed it: the same again is the same hook delivered again. */
  delivery?: string;
  /** Its outcome came, or the agent was told not to run it: the same payload again is a new call. */
  closed?: true;
}

/** How many control ids a state keeps. */
export const SEEN_CONTROLS_KEPT = 200;

export const emptySessionState = (): HookSessionState => ({ declared: false, controlSequence: 0, seenControls: [] });

/**
 * Where the states live: a file per session for the command hook (one process per call), a KV bucket
 * for the gateway (any replica may serve the next call). Claude Code runs the hooks of parallel tool
 * calls at the same time: `update` runs one task per session at a time and stores what it changed; a
 * store that keeps what it last saw runs the task again on the stored state when another writer changed
 * it meanwhile.
 */
export interface SessionStates {
  /** The state as this process last saw it (another replica may have written since). */
  read(sessionId: string): Promise<HookSessionState>;
  /** `latest`: the task first runs on the state as stored now, for a task that must see every change even when it changes nothing. */
  update<T>(sessionId: string, waitMs: number, task: (state: HookSessionState) => Promise<T>, options?: { latest?: boolean }): Promise<T>;
  /**
   * Applies `change` to what this process sees of the session at once, and stores it within `delayMs` or
   * with the session's next write, whichever comes first; resolves once stored. For what follows an answer
   * (a call's record): off the answer's path, and one write with the call's outcome when that comes first.
   */
  later(sessionId: string, change: (state: HookSessionState) => void, delayMs: number): Promise<void>;
  /**
   * Resolves once the stored state satisfies `ready`, or after `waitMs`: for a store that several processes
   * write, where what another one stores after answering may come after the next call (the gateway's).
   */
  whenStored?(sessionId: string, ready: (state: HookSessionState) => boolean, waitMs: number): Promise<void>;
}
