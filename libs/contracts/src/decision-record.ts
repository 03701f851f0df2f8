import { createHash } from 'node:crypto';
import type { MessageOf } from './catalog.js';
import { canonicalJson } from './canonical-json.js';

/**
 * The decided actions, one record per action id: `<agent>.<session>.<action>`, written by the gate
 * before it sends the decision. Proposing an action id again returns the stored decision at once (the
 * agent reads its own records only, see libs/messaging `agentPermissions`), and a different action
 * under an id already decided is refused.
 */
export const DECISION_RECORD_BUCKET = 'warden_decisions';

/** Records are kept as long as the decision stream keeps decisions (7 days). */
export const DECISION_RECORD_TTL_MS = 7 * 24 * 3_600_000;

export interface DecisionRecord {
  /** `actionDigest` of the action decided. */
  action_digest: string;
  decision: MessageOf<'decision.made'>;
}

export function decisionRecordKey(agentId: string, sessionId: string, actionId: string): string {
  return `${agentId}.${sessionId}.${actionId}`;
}

/** The subject an agent reads a record at with a JetStream direct get (last message of the key). */
export function decisionRecordSubject(agentId: string, sessionId: string, actionId: string): string {
  return `$JS.API.DIRECT.GET.KV_${DECISION_RECORD_BUCKET}.$KV.${DECISION_RECORD_BUCKET}.${decisionRecordKey(agentId, sessionId, actionId)}`;
}

/**
 * Why a different action proposed under an action id already decided is refused. The agent's client
 * (reading the stored record) and the gate (seeing the proposal after JetStream's de-duplication window)
 * both refuse it; which one sees it first depends on timing, so both give these words.
 */
export function reusedActionIdDetail(actionId: string, sessionId: string): string {
  return `action id ${actionId} was already decided for a different action in session ${sessionId}; propose a new action under a new id`;
}

/**
 * What makes two proposals the same action: kind, tool and input (key order aside). The description,
 * phase and context may differ between two deliveries of one tool call.
 */
export function actionDigest(action: { kind: string; tool: string; input: Record<string, unknown> }): string {
  return createHash('sha256').update(canonicalJson({ kind: action.kind, tool: action.tool, input: action.input })).digest('hex');
}
