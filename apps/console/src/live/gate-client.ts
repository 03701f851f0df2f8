import { OPERATOR_ID_HEADER, OPERATOR_REJECTION_PROMPT } from '@warden/contracts';

/** One call the console made to the gate's operator API, as the operator's page is told. */
export interface GateCall {
  method: 'GET' | 'POST';
  path: string;
  status: number;
  body: Record<string, unknown>;
}

export type ConsoleAction = 'approve' | 'rewrite' | 'reject' | 'stop' | 'resume';

const CALL_TIMEOUT_MS = 20_000;

/**
 * The console's side of the gate's operator API, calling it as the logged-in operator (their login
 * token as the bearer, and the FRD's X-Observatory-Operator-Id naming them). Each operator action is
 * the calls FR-11.10 lists, in order, and stops at the first refusal:
 *
 * - Approve: `POST …/unpause`;
 * - Rewrite: `POST …/rewrite` with the edited tool input as `new_content` for the held message's trace
 *   id, then `POST …/unpause`;
 * - Reject: `POST …/inject` with "action rejected by operator, do not retry", then `POST …/unpause`
 *   (with `resolution: reject`, so that what waited is denied rather than run);
 * - Emergency stop: `POST …/stop`; Resume: `POST …/unpause` of the stop's pause.
 */
export class GateClient {
  constructor(private readonly gateUrl: string) {}

  async perform(
    action: ConsoleAction,
    target: { sessionId: string; agentId: string },
    operator: { id: string; token: string },
    fields: { traceId?: string; input?: Record<string, unknown>; reason?: string } = {},
  ): Promise<GateCall[]> {
    const calls: GateCall[] = [];
    const call = async (endpoint: string, body: Record<string, unknown>) => {
      const result = await this.post(target.sessionId, endpoint, { agent_id: target.agentId, timestamp: new Date().toISOString(), ...body }, operator);
      calls.push(result);
      return result.status < 300;
    };
    switch (action) {
      case 'approve':
      case 'resume':
        await call('unpause', {});
        break;
      case 'rewrite':
        if (await call('rewrite', { original_trace_id: fields.traceId, new_content: JSON.stringify(fields.input) })) await call('unpause', {});
        break;
      case 'reject':
        if (await call('inject', { prompt: OPERATOR_REJECTION_PROMPT })) await call('unpause', { resolution: 'reject', ...(fields.reason ? { reason: fields.reason } : {}) });
        break;
      case 'stop':
        await call('stop', fields.reason ? { reason: fields.reason } : {});
        break;
    }
    return calls;
  }

  /** A human gate's request as the gate holds it now (`GET /gateway/requests/<id>`), read as the operator. */
  async request(requestId: string, operator: { id: string; token: string }): Promise<{ status: number; body: Record<string, unknown> }> {
    const { status, body } = await this.call('GET', `/gateway/requests/${encodeURIComponent(requestId)}`, undefined, operator);
    return { status, body };
  }

  /**
   * The answer to a human gate's request (`POST /gateway/requests/<id>/respond`) with the digest of what
   * the operator was shown: the gate refuses it (409 digest_mismatch) when the action changed since.
   */
  respond(requestId: string, answer: { approved: boolean; digest: string; reason?: string }, operator: { id: string; token: string }): Promise<GateCall> {
    return this.call('POST', `/gateway/requests/${encodeURIComponent(requestId)}/respond`, { ...answer, channel: 'console' }, operator);
  }

  private post(sessionId: string, endpoint: string, body: Record<string, unknown>, operator: { id: string; token: string }): Promise<GateCall> {
    return this.call('POST', `/gateway/sessions/${encodeURIComponent(sessionId)}/${endpoint}`, body, operator);
  }

  private async call(method: 'GET' | 'POST', path: string, body: Record<string, unknown> | undefined, operator: { id: string; token: string }): Promise<GateCall> {
    try {
      const response = await fetch(`${this.gateUrl}${path}`, {
        method,
        headers: { ...(body ? { 'content-type': 'application/json' } : {}), authorization: `Bearer ${operator.token}`, [OPERATOR_ID_HEADER]: operator.id },
        ...(body ? { body: JSON.stringify(body) } : {}),
        signal: AbortSignal.timeout(CALL_TIMEOUT_MS),
      });
      const text = await response.text();
      let parsed: Record<string, unknown>;
      try {
        parsed = text ? (JSON.parse(text) as Record<string, unknown>) : {};
      } catch {
        parsed = { status: 'error', reason: text.slice(0, 200) };
      }
      return { method, path, status: response.status, body: parsed };
    } catch (error) {
      return { method, path, status: 503, body: { status: 'error', reason: `gate_unreachable: ${(error as Error).message}` } };
    }
  }
}
