import type { MessageOf, VerdictKind } from '@warden/contracts';

/**
 * Who settled a decision: a service (reviewer, operator, gate timeout, policy), Warden's rejection of
 * the message (`rejected`, with the reason, also for a different action under an action id already
 * used), or this SDK's fallback when Warden could not be reached or
 * did not answer in time (`fallback`), or the session having been stopped by Warden (`stopped`, not sent).
 */
export type DecidedBy = MessageOf<'decision.made'>['payload']['decided_by'] | 'rejected' | 'fallback' | 'stopped';

/** The one final answer to a proposed action. */
export interface ActionDecision {
  actionId: string;
  /** True when the action may run (with `updatedInput` instead of the proposed input when present). */
  allowed: boolean;
  /** The reviewer's verdict behind the decision; null when nobody reviewed the action. */
  verdict: VerdictKind | null;
  /** Written for the agent (a model) to understand. */
  reason: string;
  reasons: string[];
  updatedInput?: Record<string, unknown>;
  /**
   * Warden hands the approval to the agent's user: the action runs only if the person at the agent's
   * terminal agrees (set when the proposal named `approver: 'agent_user'`).
   */
  askUser?: boolean;
  decidedBy: DecidedBy;
  /** From proposing to deciding. */
  latencyMs: number;
  /** The decision message as the gate sent it, when there is one. */
  message?: MessageOf<'decision.made'>;
}

/** What the SDK does when Warden cannot decide in time: deny (fail closed, the default) or allow. */
export type TimeoutPolicy = 'deny' | 'allow';
