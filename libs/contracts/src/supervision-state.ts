import Type, { type Static } from 'typebox';
import { Compile } from 'typebox/compile';
import { BREAKER_KINDS, BREAKER_STATES, Timestamp } from './vocabulary.js';

/**
 * State other services read on their hot path instead of asking for it per action: the breaker and the
 * ladder materialise it in JetStream KV buckets, and readers watch the buckets.
 */

/** Breaker state per session. Key: `<agent_id>.<session_id>`. Written by the breaker with compare-and-set. */
export const BREAKER_STATE_BUCKET = 'warden_breaker_state';

/** Automation level per agent. Key: `<agent_id>`. Written by the ladder. */
export const AUTOMATION_LEVEL_BUCKET = 'warden_automation_levels';

/**
 * The breaker's own accounting (iteration counts, costs, error windows, phase clocks) per session
 * (`session.<agent>.<session>`) and per agent for the rolling day (`day.<agent>`). Private to the breaker;
 * it lets a restarted or new replica carry on where the last one stopped.
 */
export const BREAKER_LEDGER_BUCKET = 'warden_breaker_ledger';

/** The ladder's track record per agent (`<agent_id>`): metrics, level, pin. Private to the ladder. */
export const LADDER_RECORD_BUCKET = 'warden_ladder_records';

/**
 * The pattern detector's windows and episodes per session (`session.<agent>.<session>`). Private to the
 * detector; it lets a restarted or new replica carry on where the last one stopped.
 */
export const PATTERN_SESSION_BUCKET = 'warden_pattern_sessions';

/**
 * The intervention controller's record per session (`session.<agent>.<session>`): intervention history,
 * cooldown, counts, known checkpoints. Private to the controller.
 */
export const INTERVENTION_STATE_BUCKET = 'warden_interventions';

/** Sessions silent this long are forgotten by the buckets of per-session working state. */
export const SESSION_STATE_TTL_MS = 7 * 24 * 3_600_000;

export function breakerStateKey(agentId: string, sessionId: string): string {
  return `${agentId}.${sessionId}`;
}

export const BreakerStateRecord = Type.Object(
  {
    agent_id: Type.String(),
    session_id: Type.String(),
    /** The session's overall state: open if any enforced, enabled breaker is open, half_open if any is probing. */
    state: Type.Enum([...BREAKER_STATES]),
    breakers: Type.Array(
      Type.Object({
        breaker: Type.Enum([...BREAKER_KINDS]),
        state: Type.Enum([...BREAKER_STATES]),
        reason: Type.Optional(Type.String({ maxLength: 2000 })),
        /** What the agent should do about it, written for the agent to read. */
        suggestion: Type.Optional(Type.String({ maxLength: 2000 })),
        opened_at: Type.Optional(Timestamp),
        retry_at: Type.Optional(Timestamp),
        /** Set by an operator: the breaker neither trips nor blocks. */
        disabled: Type.Optional(Type.Boolean()),
        /** The breaker is configured to report only: an OPEN state here blocks nothing. */
        metrics_only: Type.Optional(Type.Boolean()),
        /**
         * Set when the breaker opened on one action failing the same way again and again: only that action
         * (same tool, same target: the command line or file) is held back; the agent's other work goes on.
         */
        repeated_action: Type.Optional(Type.Object({ tool: Type.String({ maxLength: 128 }), target: Type.String({ maxLength: 1000 }) })),
      }),
      { maxItems: 16 },
    ),
    /**
     * USD the session's run has cost as the cost breaker counts it (reset with the cost breaker), to the
     * cent; absent before the first cost. Policies read it as session.spend_usd.
     */
    spend_usd: Type.Optional(Type.Number({ minimum: 0 })),
    updated_at: Timestamp,
  },
  { description: 'Value of warden_breaker_state.<agent>.<session>.' },
);
export type BreakerStateRecord = Static<typeof BreakerStateRecord>;

export const AutomationLevelRecord = Type.Object(
  {
    agent_id: Type.String(),
    level: Type.Integer({ minimum: 0, maximum: 4 }),
    updated_at: Timestamp,
  },
  { description: 'Value of warden_automation_levels.<agent>.' },
);
export type AutomationLevelRecord = Static<typeof AutomationLevelRecord>;

const breakerValidator = Compile(BreakerStateRecord);
const levelValidator = Compile(AutomationLevelRecord);

/** Parses a KV value; null when it is not a valid record (a reader never trusts a bucket blindly). */
export function parseBreakerState(data: Uint8Array | string): BreakerStateRecord | null {
  return parseRecord(data, (v) => breakerValidator.Check(v)) as BreakerStateRecord | null;
}

export function parseAutomationLevel(data: Uint8Array | string): AutomationLevelRecord | null {
  return parseRecord(data, (v) => levelValidator.Check(v)) as AutomationLevelRecord | null;
}

function parseRecord(data: Uint8Array | string, check: (value: unknown) => boolean): unknown {
  try {
    const value: unknown = JSON.parse(typeof data === 'string' ? data : new TextDecoder().decode(data));
    return check(value) ? value : null;
  } catch {
    return null;
  }
}
