import type { SessionSurroundings } from './answer-policy.js';
import type { AgentCapabilities } from './capabilities.js';
import type { EdgeAnswer } from './edge-answer.js';
import type { AgentName } from './agents/index.js';
import type { EdgeEvent, EdgeSession, EdgeToolCall } from './edge-event.js';

export type { AgentName };

/** What came with a hook call besides its payload. */
export interface HookCallMeta {
  /**
   * The event, for agents whose payload does not name it (the installed hook says which: the gateway's
   * `?event=` query, the command shim's argument).
   */
  event?: string;
}

/**
 * One agent's protocol: how its hook payloads read as Warden's events, how Warden's answers are written
 * for it, and what it can do. Everything else (declaring the session, control messages, proposing,
 * reporting, deadlines, fail-closed) is the edge's, the same for every agent. Adding an agent is one
 * module implementing this (`AgentAdapter<'its-name'>`) and one entry in ADAPTERS (agents/index.ts), from
 * which AgentName is read.
 */
export interface AgentAdapter<Name extends string = AgentName> {
  /** The gateway's `/hooks/<name>` and `warden hook install --agent <name>`. */
  readonly name: Name;
  /** The agent as people call it, for messages ("left to Codex's own permission rules"). */
  readonly title: string;
  /** The session's `agent_kind` in Warden. */
  readonly agentKind: string;
  readonly capabilities: AgentCapabilities;
  /** Reads one hook payload; throws EdgeInputError naming what is wrong. */
  read(payload: unknown, meta: HookCallMeta): EdgeEvent;
  /**
   * Writes Warden's answer to an event in the agent's format: the JSON a command hook prints and an HTTP
   * hook returns (exit status 0), or null when there is nothing to say.
   */
  write(event: EdgeEvent, answer: EdgeAnswer): Record<string, unknown> | null;
  /** Whether a person answers the agent's permission prompts in this session (default: by Claude Code's permission modes). */
  interactive?(session: EdgeSession, surroundings: SessionSurroundings): boolean;
  /** The user's request in a prompt, as Warden declares it as the goal (default: the prompt, trimmed); undefined when it asks for no work. */
  requestOf?(prompt: string): string | undefined;
  /** The goal read from the agent's record of the session, for a session declared before its first prompt reached Warden. */
  goalFromTranscript?(path: string): string | undefined;
  /**
   * The model response a call that has run came in, read from the agent's record of the session: the calls
   * of one response fail together, not as retries of each other. Undefined when it cannot be told.
   */
  turnOf?(session: EdgeSession, call: EdgeToolCall): string | undefined;
}
