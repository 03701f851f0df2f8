import type { Phase } from '@warden/contracts';
import type { EscalationRun } from './approval-deadlines.js';
import { stateHash } from './canonical-hash.js';

export type RequestStatus = 'pending' | 'approved' | 'approved_with_conditions' | 'rejected' | 'timed_out';

/** An approval request of a human gate (seed 002 §6.2 GateRequest) and, once answered, its response. */
export interface GateRequestRecord {
  request_id: string;
  gate_id: string;
  session_id: string;
  agent_id: string;
  trace_id: string;
  action_id?: string;
  phase?: Phase;
  prompt: string;
  summary: string;
  details: Record<string, unknown>;
  /** The final deadline after the request (the gate's or its agent's): unanswered then, it is denied. */
  timeout_ms: number;
  escalation: string;
  requested_at: string;
  expires_at: string;
  status: RequestStatus;
  answered_at?: string;
  approver?: string;
  reason?: string;
  conditions?: string[];
  /** When it was first escalated (its first escalation step, or its final deadline). */
  escalated_at?: string;
  /** The approval channels asked so far: at once, then by its escalation steps. */
  asked?: string[];
  /** The escalation steps that ran. */
  escalations?: EscalationRun[];
  /**
   * The approval digest: SHA-256 of what an approver is shown (see approvalDigest). An approval must
   * carry it; one whose digest is not the request's current one approved something else and is refused.
   */
  digest?: string;
  /** Which approval channel the answer came through (api, console, slack), when it came from an operator. */
  channel?: string;
  /** The digest the operator's answer carried (equal to `digest` when it was taken). */
  answered_digest?: string;
}

/** The request after an escalation step asked more channels; the same record when that step is recorded already. */
export function withEscalation(record: GateRequestRecord, run: EscalationRun): GateRequestRecord {
  if (record.escalations?.some((e) => e.step === run.step)) return record;
  return {
    ...record,
    escalated_at: record.escalated_at ?? run.at,
    asked: [...(record.asked ?? []), ...run.channels.filter((c) => !record.asked?.includes(c))],
    escalations: [...(record.escalations ?? []), run],
  };
}

/** What an approver is shown of a request, and so what its digest covers. */
export interface ShownRequest {
  session_id: string;
  agent_id: string;
  gate_id: string;
  tool: string;
  input: unknown;
  reason: string;
}

/** The content an approver is shown: the session, the action's tool and input, and why the gate held it. */
export function shownRequest(record: Pick<GateRequestRecord, 'session_id' | 'agent_id' | 'gate_id' | 'summary' | 'details'>): ShownRequest {
  const action = (record.details.action ?? {}) as { tool?: unknown; input?: unknown };
  return {
    session_id: record.session_id,
    agent_id: record.agent_id,
    gate_id: record.gate_id,
    tool: typeof action.tool === 'string' ? action.tool : '',
    input: action.input ?? null,
    reason: record.summary,
  };
}

/**
 * The approval digest of a request: SHA-256 (hex) of the canonical JSON of exactly what every channel
 * shows the approver (session, agent, gate, tool, input, reason). A rewrite of the action changes it.
 */
export function approvalDigest(record: Pick<GateRequestRecord, 'session_id' | 'agent_id' | 'gate_id' | 'summary' | 'details'>): string {
  return stateHash({ v: 1, ...shownRequest(record) });
}

/** The request after an operator rewrote its action's input: the new input shown, a new digest. */
export function rewrittenRequest(record: GateRequestRecord, newInput: unknown): GateRequestRecord {
  const action = (record.details.action ?? {}) as Record<string, unknown>;
  const next = { ...record, details: { ...record.details, action: { ...action, input: newInput } } };
  return { ...next, digest: approvalDigest(next) };
}

const DIGEST = /^[a-f0-9]{64}$/;

/** Why an approval's digest cannot be taken (409), or null: it is the request's current digest. */
export function digestProblem(record: GateRequestRecord, digest: string | undefined): string | null {
  const current = record.digest ?? approvalDigest(record);
  if (digest === current) return null;
  return 'digest_mismatch: the action changed since it was shown; read the request again and answer what it shows now';
}

/** An operator's answer to a request (seed 002 GateResponse, minus what the gate fills in). */
export interface GateAnswer {
  approved: boolean;
  /** The approval digest of what the approver was shown (required to approve). */
  digest?: string;
  /** The approval channel it came through (default api). */
  channel?: string;
  reason?: string;
  conditions?: string[];
}

export type AnswerCheck = { ok: true; answer: GateAnswer } | { ok: false; reason: string };

/** Validates the body of `POST /gateway/requests/:id/respond`. */
export function checkAnswer(body: unknown): AnswerCheck {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return { ok: false, reason: 'body_must_be_a_json_object' };
  const raw = body as Record<string, unknown>;
  if (raw.approved === undefined || raw.approved === null) return { ok: false, reason: 'missing_required_field: approved' };
  if (typeof raw.approved !== 'boolean') return { ok: false, reason: 'invalid_field: approved (true or false)' };
  const answer: GateAnswer = { approved: raw.approved };
  if (raw.digest !== undefined && raw.digest !== null) {
    if (typeof raw.digest !== 'string' || !DIGEST.test(raw.digest)) return { ok: false, reason: 'invalid_field: digest (the 64 hex digits of the request\'s digest)' };
    answer.digest = raw.digest;
  } else if (raw.approved) {
    return { ok: false, reason: 'missing_required_field: digest (approve exactly what was shown: send the digest of the request you read)' };
  }
  if (raw.reason !== undefined && raw.reason !== null) {
    if (typeof raw.reason !== 'string' || raw.reason.length > 2000) return { ok: false, reason: 'invalid_field: reason (a text of up to 2000 characters)' };
    if (raw.reason.trim()) answer.reason = raw.reason.trim();
  }
  if (raw.channel !== undefined && raw.channel !== null) {
    if (typeof raw.channel !== 'string' || !/^[a-z][a-z0-9_-]{0,31}$/.test(raw.channel)) return { ok: false, reason: 'invalid_field: channel (a channel name, e.g. api, console)' };
    answer.channel = raw.channel;
  }
  if (raw.conditions !== undefined && raw.conditions !== null) {
    const conditions = raw.conditions;
    if (!Array.isArray(conditions) || conditions.length > 32 || !conditions.every((c) => typeof c === 'string' && c.trim() && c.length <= 1000)) {
      return { ok: false, reason: 'invalid_field: conditions (up to 32 non-empty strings)' };
    }
    if (!answer.approved && conditions.length) return { ok: false, reason: 'invalid_field: conditions (only an approval has conditions)' };
    if (conditions.length) answer.conditions = conditions.map((c: string) => c.trim());
  }
  return { ok: true, answer };
}

/** Why an answer cannot be taken: unknown request (404) or one that is no longer pending (409). */
export function answerProblem(record: GateRequestRecord | undefined): { code: 404 | 409; reason: string } | null {
  if (!record) return { code: 404, reason: 'unknown_request' };
  if (record.status !== 'pending') return { code: 409, reason: `request_already_answered: ${record.status}` };
  return null;
}

/** The status a request ends in when its session is resumed. */
export function outcomeOf(resolution: 'approve' | 'reject', conditions: readonly string[] | undefined, timedOut: boolean): Exclude<RequestStatus, 'pending'> {
  if (timedOut) return 'timed_out';
  if (resolution === 'reject') return 'rejected';
  return conditions?.length ? 'approved_with_conditions' : 'approved';
}
