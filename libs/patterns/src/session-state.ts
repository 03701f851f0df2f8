import type { ToolRunTally } from './detectors/silent-hook.js';
import type { ClaimRecord } from './detectors/claims.js';
import type { PatternType, Phase, PhaseProgress, Severity } from '@warden/contracts';
import type { Step } from './action-step.js';
import { CountedIds } from './counted-ids.js';
import { ResourceSlots } from './resource-slots.js';

/** One pattern's episode: reported once when it starts, again only when it gets worse, closed after quiet evaluations. */
export interface Episode {
  /** Episode number, from 1. */
  n: number;
  open: boolean;
  /** Severity last reported. */
  severity: Severity;
  /** Size of the evidence last reported (repetitions, paths, growth): the base for escalation. */
  magnitude: number;
  /** Evaluations in a row without the pattern. */
  quiet: number;
}

/** The run of identical successful actions that changed nothing, counted across the count window. */
export interface PollingRun {
  sig: string;
  /** The job its status checks look at (Step.check), when they are status checks. */
  check?: string;
  /** Whether checks written differently joined it (not the same action repeated). */
  varied?: boolean;
  count: number;
  /** Newest action ids of the run (at most 30). */
  ids: string[];
  /** Distinct output fingerprints seen (at most 5 kept). */
  outputs: string[];
  tool?: string;
  cmd?: string;
}

export interface StagnationRun {
  count: number;
  ids: string[];
}

/** Resource use per slot of a sixth of the resource window, for the last two windows. */
export interface ResourceSlot {
  /** Slot start, epoch ms. */
  t: number;
  file_operations: number;
  tokens: number;
  cost_usd: number;
  /** Background processes running at the end of the slot. */
  background: number;
}

export type PhaseKey = Phase | 'default';

/**
 * Everything the detector knows about one session, as JSON: what it stores in its KV bucket so that a
 * restarted or new replica carries on. Bounded: at most `window.max_actions` steps, 30 ids per run, 12
 * resource slots, one episode per pattern type.
 */
export interface SessionSnapshot {
  version: 1;
  agent_id: string;
  session_id: string;
  context: { goal?: string; expected_paths?: string[]; cwd?: string };
  /** When the goal last changed (a follow-up request): changes before it served the old goal. */
  goal_since?: number;
  /** Absolute paths the user named in follow-up requests: the task's, wherever they lie (at most 32). */
  named_paths?: string[];
  /** A session started in its home directory: the directories it read, listed, entered or created (@warden/actions workRootOf); any session: the worktrees it added. */
  work_roots?: string[];
  phase?: Phase;
  /** Latest event time seen, epoch ms: "now" for the time windows. */
  now: number;
  steps: Step[];
  polling?: PollingRun;
  stagnation: Partial<Record<PhaseKey, StagnationRun>>;
  last_progress: Partial<Record<PhaseKey, PhaseProgress>>;
  /** The phase of the latest progress report. */
  progress_phase?: PhaseKey;
  resources: { slots: ResourceSlot[]; background: number };
  episodes: Partial<Record<PatternType, Episode>>;
  /** Action ids whose outcome has been counted (progress, polling, resources), newest last, at most max_actions. */
  counted: string[];
  ended?: boolean;
  /** Actions proposed in the session (each id once): what the agent's telemetry of tool runs is held against. */
  proposed?: number;
  /** The tool runs the agent's telemetry reported (detectors/silent-hook.ts). */
  tool_runs?: ToolRunTally;
  /** What the agent claimed at the ends of its turns that its checks or its user contradicted (detectors/claims.ts). */
  claims?: ClaimRecord;
}

/** What the detectors read of a session besides its steps (which they are given as steps). */
export type SessionState = Omit<SessionSnapshot, 'steps' | 'counted'>;

/**
 * What a session holds besides its steps (kept packed in a StepWindow): the stored state, with the
 * resource slots and the counted ids packed too, in the same places of the object (the stored JSON keeps
 * its order) and made plain again when stored or read.
 */
export type HeldState = Omit<SessionSnapshot, 'steps' | 'resources' | 'counted'> & { resources: ResourceSlots; counted: CountedIds };

/** How much a session holds at most: resource slots between two trims, counted ids. */
export interface StateBounds {
  slots: number;
  counted: number;
}

export function emptyState(agentId: string, sessionId: string, now: number, bounds: StateBounds): HeldState {
  return {
    version: 1,
    agent_id: agentId,
    session_id: sessionId,
    context: {},
    now,
    stagnation: {},
    last_progress: {},
    resources: new ResourceSlots(bounds.slots),
    episodes: {},
    counted: new CountedIds(bounds.counted),
  };
}

/** The held state of a stored session (its steps left out): the stored object itself, packed in place. */
export function heldState(stored: Omit<SessionSnapshot, 'steps'>, bounds: StateBounds): HeldState {
  return Object.assign(stored, { resources: ResourceSlots.of(stored.resources, bounds.slots), counted: CountedIds.of(stored.counted, bounds.counted) });
}
