import { REPLAYED_TYPES, type ProposedAction, type SessionEvent } from '@warden/review';
import type { RecordedVerdict } from './explanation-text.js';

export const DEFAULT_AUDIT_URL = 'http://127.0.0.1:3107';

const REPLAYED = new Set(REPLAYED_TYPES);
const PAGE = 1000;
/** Pages of a timeline read at most: a session of 50,000 events. */
const MAX_PAGES = 50;

interface TimelineRow {
  type: string;
  agent_id: string;
  at: string;
  payload: Record<string, unknown>;
}

/** An action as the audit recorded it, with its session's messages before it. */
export interface AuditedAction {
  agentId: string;
  action: ProposedAction;
  at: string;
  history: SessionEvent[];
  recorded?: RecordedVerdict;
  level?: number;
  /** The session's spend the review read (the verdict's session_spend_usd). */
  spendUsd?: number;
}

export class AuditLookupError extends Error {}

async function page(url: string, token: string, sessionId: string, cursor: string | undefined): Promise<{ rows: TimelineRow[]; next_cursor?: string }> {
  const query = `limit=${PAGE}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
  let response: Response;
  try {
    response = await fetch(`${url}/audit/sessions/${encodeURIComponent(sessionId)}/timeline?${query}`, { headers: { authorization: `Bearer ${token}` }, signal: AbortSignal.timeout(30_000) });
  } catch (error) {
    throw new AuditLookupError(`cannot reach the audit service at ${url} (${(error as Error).cause ?? (error as Error).message}); set --audit-url or WARDEN_AUDIT_URL`);
  }
  const text = await response.text();
  let body: { rows?: TimelineRow[]; next_cursor?: string; reason?: string } = {};
  try {
    body = JSON.parse(text) as typeof body;
  } catch {
    // Reported below with the status.
  }
  if (response.status !== 200) throw new AuditLookupError(`the audit service answered ${response.status}${body.reason ? ` (${body.reason})` : `: ${text.slice(0, 200)}`}`);
  return { rows: body.rows ?? [], ...(body.next_cursor ? { next_cursor: body.next_cursor } : {}) };
}

/**
 * Reads an action from the audit's HTTP API (`GET /audit/sessions/:id/timeline`, as the operator): the
 * session's timeline page by page up to the action's proposal, and on to its verdict for what was recorded.
 */
export async function auditedAction(url: string, token: string, sessionId: string, actionId: string): Promise<AuditedAction> {
  const before: { agent: string; event: SessionEvent }[] = [];
  let found: { agentId: string; action: ProposedAction; at: string } | undefined;
  let recorded: Pick<AuditedAction, 'recorded' | 'level' | 'spendUsd'> = {};
  let cursor: string | undefined;
  search: for (let pages = 0; pages < MAX_PAGES; pages++) {
    const { rows, next_cursor } = await page(url, token, sessionId, cursor);
    for (const row of rows) {
      const id = row.payload['action_id'];
      if (!found) {
        if (row.type === 'action.proposed' && id === actionId) found = { agentId: row.agent_id, action: row.payload as unknown as ProposedAction, at: row.at };
        else if (REPLAYED.has(row.type)) before.push({ agent: row.agent_id, event: { type: row.type, at: row.at, payload: row.payload } });
      } else if (row.type === 'review.verdict' && id === actionId && row.agent_id === found.agentId) {
        const verdict = row.payload as { verdict: string; decided_by?: string; rule_hits?: string[]; automation_level?: number; session_spend_usd?: number };
        recorded = {
          recorded: { verdict: verdict.verdict, ...(verdict.decided_by ? { decided_by: verdict.decided_by } : {}), rule_hits: verdict.rule_hits ?? [] },
          ...(verdict.automation_level !== undefined ? { level: verdict.automation_level } : {}),
          ...(verdict.session_spend_usd !== undefined ? { spendUsd: verdict.session_spend_usd } : {}),
        };
        break search;
      }
    }
    if (!next_cursor) break;
    cursor = next_cursor;
  }
  if (!found) throw new AuditLookupError(`the audit has no action ${actionId} in session ${sessionId}`);
  const { agentId } = found;
  // Only the action's own agent's messages: several agents may share a session id.
  return { ...found, history: before.filter((e) => e.agent === agentId).map((e) => e.event), ...recorded };
}
