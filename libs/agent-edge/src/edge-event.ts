/**
 * What an agent's hook tells Warden, in Warden's terms, whichever agent sent it: each adapter reads its
 * agent's payload into one of these, and the edge (answerEvent) handles them all alike.
 */
export interface EdgeSession {
  /** The agent's own session id (letters, digits, - and _; it travels in NATS subjects). */
  id: string;
  /** Where the agent works (its shell's directory now, for a tool call). */
  cwd?: string;
  /** The agent's record of the session, when it names one (read for the goal by agents that support it). */
  transcriptPath?: string;
  /** The agent's permission mode, as it names it (`default`, `plan`, `bypassPermissions`, …). */
  permissionMode?: string;
  model?: string;
  /** The subagent that raised the event, when the agent names it. */
  subagent?: { id?: string; type?: string };
}

/** A tool call as the agent names it: its own tool name and input, unchanged. */
export interface EdgeToolCall {
  /** The agent's id of the call; for agents without one, the call's key (derivedCallKey), with `derived` set. */
  id: string;
  /** `id` is the call's key, not its identity: the edge gives each call of a key its own id (derived-calls.ts). */
  derived?: boolean;
  /** For a derived call before it runs: the hook payload that proposed it, whose digest (deliveryOf) tells the same hook delivered again. */
  payload?: unknown;
  tool: string;
  input: Record<string, unknown>;
}

export interface EdgeToolResult {
  ok: boolean;
  error?: string;
  /** The agent cancelled the call because another call of the same response failed: it has no outcome of its own. */
  cancelled?: boolean;
  /** A person or the agent's own permission system refused the call: it never ran (`error` says why). */
  refused?: boolean;
  /** What the tool returned (text, content blocks, any JSON). */
  output?: unknown;
  durationMs?: number;
}

export type EdgeEvent =
  | { type: 'session_start'; session: EdgeSession; source?: string }
  | { type: 'prompt'; session: EdgeSession; prompt: string }
  | { type: 'before_tool'; session: EdgeSession; call: EdgeToolCall }
  | { type: 'after_tool'; session: EdgeSession; call: EdgeToolCall; result: EdgeToolResult }
  /**
   * The agent is about to end its turn; `prolonged` when a hook already kept it going once; `words`, its
   * last message of the turn, when its hook sends it (a subagent's are not the session's).
   */
  | { type: 'stop'; session: EdgeSession; prolonged: boolean; words?: string }
  | { type: 'session_end'; session: EdgeSession; reason: string };

export type EdgeEventType = EdgeEvent['type'];

/** A payload that is not what the agent sends: the reason names the field. */
export class EdgeInputError extends Error {}
