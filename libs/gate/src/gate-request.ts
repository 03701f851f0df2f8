import type { Phase } from '@warden/contracts';

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
  timeout_ms: number;
  escalation: string;
  on_timeout: 'deny' | 'approve';
  requested_at: string;
  expires_at: string;
  status: RequestStatus;
  answered_at?: string;
  approver?: string;
  reason?: string;
  conditions?: string[];
  escalated_at?: string;
}

/** An operator's answer to a request (seed 002 GateResponse, minus what the gate fills in). */
export interface GateAnswer {
  approved: boolean;
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
  if (raw.reason !== undefined && raw.reason !== null) {
    if (typeof raw.reason !== 'string' || raw.reason.length > 2000) return { ok: false, reason: 'invalid_field: reason (a text of up to 2000 characters)' };
    if (raw.reason.trim()) answer.reason = raw.reason.trim();
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
