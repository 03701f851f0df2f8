import type { BreakerStateRecord } from '@warden/contracts';
import { actionTarget } from '@warden/signatures';
import type { ParsedAction } from '../parsing/parsed-action.js';

type OpenBreaker = BreakerStateRecord['breakers'][number];

/**
 * Whether an open breaker holds this action back. It holds what continues the runaway, not the agent's
 * way out: a breaker opened on one action failing again and again holds back only that action (same
 * tool, same target); any other open breaker holds back what changes something, and lets reads, status
 * checks and messages through, so that the agent can look, report and stop.
 */
export function holdsBack(breaker: OpenBreaker, action: { tool: string; input: Record<string, unknown> }, parsed: ParsedAction): boolean {
  if (breaker.repeated_action) return breaker.repeated_action.tool === action.tool && breaker.repeated_action.target === actionTarget(action.input);
  return !parsed.readOnly;
}
