import { Injectable } from '@nestjs/common';
import { entryContent, stateHash, type PauseTrigger, type PendingRequest } from '@warden/gate';
import { GateStores } from '../core/gate-stores.js';

export interface SessionSummary {
  session_id: string;
  agent_id: string;
  status: 'paused' | 'flushing';
  paused_at: string;
  paused_by: string;
  reason: string;
  trigger: PauseTrigger;
  buffered: number;
  pending_requests: number;
}

export interface SessionView {
  session_id: string;
  agent_id: string;
  status: 'normal' | 'paused' | 'flushing';
  paused_at?: string;
  paused_by?: string;
  reason?: string;
  trigger?: PauseTrigger;
  messages: Record<string, unknown>[];
  pending_requests: PendingRequest[];
}

/** Read-only views of paused sessions for operators, straight from the stores: any replica can answer. */
@Injectable()
export class SessionViews {
  constructor(private readonly stores: GateStores) {}

  async list(): Promise<SessionSummary[]> {
    const [sessions, counts] = await Promise.all([this.stores.states.list(), this.stores.buffer.counts()]);
    const summaries: SessionSummary[] = [];
    for (const { agentId, sessionId } of sessions) {
      const { state } = await this.stores.states.load(agentId, sessionId);
      if (!state) continue;
      summaries.push({
        session_id: sessionId,
        agent_id: agentId,
        status: state.status,
        paused_at: state.window.opened_at,
        paused_by: state.window.operator_id,
        reason: state.window.reason,
        trigger: state.window.trigger,
        buffered: counts.get(`${agentId}.${sessionId}`) ?? 0,
        pending_requests: state.requests.length,
      });
    }
    return summaries.sort((a, b) => a.paused_at.localeCompare(b.paused_at));
  }

  /** The agents with a stored (paused) state in a session. */
  async agentsOf(sessionId: string): Promise<string[]> {
    return (await this.stores.states.list()).filter((s) => s.sessionId === sessionId).map((s) => s.agentId);
  }

  /** A session's state and its buffered messages in order, each with the content a rewrite replaces and its SHA-256. */
  async view(agentId: string, sessionId: string): Promise<SessionView> {
    const { state } = await this.stores.states.load(agentId, sessionId);
    if (!state) return { session_id: sessionId, agent_id: agentId, status: 'normal', messages: [], pending_requests: [] };
    const entries = (await this.stores.buffer.read(agentId, sessionId)).filter((e) => e.entry.window_id === state.window.id);
    return {
      session_id: sessionId,
      agent_id: agentId,
      status: state.status,
      paused_at: state.window.opened_at,
      paused_by: state.window.operator_id,
      reason: state.window.reason,
      trigger: state.window.trigger,
      messages: entries.map(({ seq, entry }) => {
        const rewrite = state.rewrites[entry.trace_id];
        const content = entryContent(entry, rewrite?.new_content);
        return {
          seq,
          kind: entry.kind,
          trace_id: entry.trace_id,
          buffered_at: entry.buffered_at,
          ...(entry.kind === 'decision'
            ? {
                action_id: entry.action_id,
                verdict: entry.verdict.payload.verdict,
                reasons: entry.verdict.payload.reasons,
                risk: entry.verdict.payload.risk.severity,
                needs_approval: entry.needs_approval,
                holds: entry.holds,
                ...(entry.gate_ids ? { gate_ids: entry.gate_ids } : {}),
              }
            : { operator_id: entry.operator_id }),
          rewritten: !!rewrite,
          content,
          content_sha256: stateHash(content),
        };
      }),
      pending_requests: state.requests,
    };
  }
}
