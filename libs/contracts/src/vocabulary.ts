import Type from 'typebox';

/** The seven Warden services. Each is deployed and scaled on its own. */
export const SERVICES = [
  'reviewer',
  'pattern-detector',
  'intervention-controller',
  'breaker',
  'gate',
  'ladder',
  'audit',
] as const;
export type ServiceName = (typeof SERVICES)[number];

/** Everyone who sends or receives messages: the services, the supervised agent, and human operators. */
export const PARTICIPANTS = [...SERVICES, 'agent', 'operator'] as const;
export type Participant = (typeof PARTICIPANTS)[number];

export function isServiceName(value: string): value is ServiceName {
  return (SERVICES as readonly string[]).includes(value);
}

/**
 * Identifiers that travel inside subjects (agent and session ids) must be single NATS tokens:
 * no dots, wildcards or whitespace.
 */
export const SUBJECT_TOKEN_PATTERN = '^[A-Za-z0-9_-]{1,128}$';
const subjectToken = new RegExp(SUBJECT_TOKEN_PATTERN);
export function isSubjectToken(value: string): boolean {
  return subjectToken.test(value);
}

/** Placeholder for the session or agent of a message that belongs to none (suite-wide events, queries). */
export const NO_SCOPE = '_';

export const SubjectToken = (description: string) =>
  Type.String({ pattern: SUBJECT_TOKEN_PATTERN, description });

/** Message ids double as `Nats-Msg-Id`: printable, no whitespace, bounded. */
export const MessageId = Type.String({
  pattern: '^[A-Za-z0-9][A-Za-z0-9_.:-]{0,127}$',
  description: 'Unique message id; also sent as the Nats-Msg-Id header so a re-publish is deduplicated.',
});

export const Timestamp = Type.String({ format: 'date-time', description: 'ISO 8601 UTC timestamp.' });

export const Probability = (description: string) => Type.Number({ minimum: 0, maximum: 1, description });

export const SEVERITIES = ['low', 'medium', 'high', 'critical'] as const;
export type Severity = (typeof SEVERITIES)[number];
export const SeveritySchema = Type.Enum([...SEVERITIES], { description: 'low < medium < high < critical' });

/** Phases of an agent run (seed 002). Per-phase limits in the breaker and gates key on these. */
export const PHASES = ['planning', 'implementation', 'review', 'testing', 'deployment'] as const;
export type Phase = (typeof PHASES)[number];
export const PhaseSchema = Type.Enum([...PHASES]);

/** What the reviewer can say about a proposed action (seed 001 plus require_approval). */
export const VERDICTS = ['allow', 'warn', 'modify', 'require_approval', 'block'] as const;
export type VerdictKind = (typeof VERDICTS)[number];
export const VerdictKindSchema = Type.Enum([...VERDICTS]);

/** The one final answer an agent gets for a proposed action. */
export const DECISIONS = ['allow', 'deny'] as const;
export type DecisionKind = (typeof DECISIONS)[number];

/** The action kinds the step reviewer's parser knows (seed 001). Other values are accepted on the wire. */
export const ACTION_KINDS = ['tool_use', 'message', 'file_operation', 'system_command'] as const;
export type ActionKind = (typeof ACTION_KINDS)[number];

export const PATTERN_TYPES = [
  'repetitive_errors',
  'polling_loop',
  'scope_creep',
  'goal_drift',
  'resource_spiral',
  'hallucination',
  'installation_trap',
  'bypass_trap',
  'complexity_trap',
  'assumption_trap',
  'stagnation',
] as const;
export type PatternType = (typeof PATTERN_TYPES)[number];

export const INTERVENTION_TYPES = [
  'soft_correction',
  'context_reinforcement',
  'resource_throttling',
  'checkpoint_rollback',
  'emergency_stop',
] as const;
export type InterventionType = (typeof INTERVENTION_TYPES)[number];

export const BREAKER_KINDS = ['iteration', 'cost', 'time', 'error_rate'] as const;
export type BreakerKind = (typeof BREAKER_KINDS)[number];

export const BREAKER_STATES = ['closed', 'open', 'half_open'] as const;
export type BreakerStateName = (typeof BREAKER_STATES)[number];

export const HITL_COMMANDS = ['hitl_pause', 'hitl_unpause', 'hitl_rewrite', 'hitl_inject'] as const;
export type HitlCommandType = (typeof HITL_COMMANDS)[number];

/** Automation ladder levels 0-4 (seed 002 §7). */
export const AUTOMATION_LEVELS = [0, 1, 2, 3, 4] as const;
export type AutomationLevel = (typeof AUTOMATION_LEVELS)[number];
