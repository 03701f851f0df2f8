import type { InterventionType } from '@warden/contracts';
import type { SessionLimits, StrategyType } from './intervention-settings.js';

/** What the agent declared at the start: the text of corrections is built from it. */
export interface DeclaredContext {
  goal?: string;
  expected_paths?: string[];
  constraints?: string[];
  cwd?: string;
}

export interface Evaluation {
  outcome: 'effective' | 'ineffective' | 'unknown';
  effectiveness: number;
  next_step: 'none' | 'escalate' | 'de_escalate';
  /** Why: outcomes observed, the issue recurring, the agent failing to apply it. */
  basis: 'outcomes' | 'recurrence' | 'failed_ack' | 'no_activity';
}

export interface InterventionEntry {
  id: string;
  type: InterventionType;
  issue_type: string;
  at: number;
  control_id: string;
  strategy: StrategyType;
  severity_score: number;
  escalation_level: number;
  escalated: boolean;
  handler?: string;
  checkpoint_id?: string;
  incident_id?: string;
  /** Outcomes reported after it. */
  observed: { successes: number; failures: number };
  evaluation?: Evaluation;
  ack?: { status: 'applied' | 'failed' | 'stopped'; at: number; restored_files?: string[] };
}

export interface CheckpointEntry {
  id: string;
  at: number;
  label?: string;
  files: { path: string; deleted?: boolean }[];
  object_store?: { bucket: string; key: string };
  conversation_position?: number;
}

export interface IssueEntry {
  type: string;
  at: number;
  message_id: string;
  description: string;
}

/** Everything the controller keeps about one session: stored in the KV bucket as it is. */
export interface SessionRecord {
  version: 1;
  agent_id: string;
  session_id: string;
  context: DeclaredContext;
  /** Declared as a replay of a recorded session (session.started `replay`). */
  replay?: boolean;
  started_at?: number;
  ended?: boolean;
  interventions: InterventionEntry[];
  issues: IssueEntry[];
  checkpoints: CheckpointEntry[];
  /** Recent proposed actions (id, time), to date an issue from its evidence. */
  actions: { id: string; at: number }[];
  /** Recent outcomes, for the safety of checkpoints. */
  outcomes: { action_id: string; at: number; ok: boolean }[];
  totals: { actions: number; errors: number; tokens: number; files_touched: string[] };
  limits: SessionLimits;
  stopped?: { at: number; incident_id: string; control_id: string; confirmed_at?: number };
  /** Ids of the last messages applied, so that a redelivered one changes nothing. */
  processed: string[];
  /**
   * The session's clock: the latest time its own messages carried (`at`), and when that was read on the
   * controller's clock (`read_at`). Absent until the session's first message.
   */
  clock?: { at: number; read_at: number };
}

export const RECENT_ACTIONS = 200;
export const RECENT_OUTCOMES = 200;
export const RECENT_ISSUES = 100;
export const REMEMBERED_MESSAGES = 128;
export const REMEMBERED_FILES = 500;

export function emptyRecord(agentId: string, sessionId: string, limits: SessionLimits): SessionRecord {
  return {
    version: 1,
    agent_id: agentId,
    session_id: sessionId,
    context: {},
    interventions: [],
    issues: [],
    checkpoints: [],
    actions: [],
    outcomes: [],
    totals: { actions: 0, errors: 0, tokens: 0, files_touched: [] },
    limits: { ...limits },
    processed: [],
  };
}

/** Appends and keeps the newest `max`. */
export function pushBounded<T>(list: T[], item: T, max: number): void {
  list.push(item);
  if (list.length > max) list.splice(0, list.length - max);
}
