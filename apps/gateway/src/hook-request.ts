import { ANSWER_DEFAULTS, APPROVAL_ROUTES, type AnswerPolicy, type ApprovalRoute } from '@warden/agent-edge';
import { isSubjectToken } from '@warden/contracts';

/** A refusal of the HTTP request itself, with the status and the reason the caller reads. */
export class HookRequestError extends Error {
  constructor(
    readonly status: 400 | 401 | 403 | 413 | 503,
    message: string,
  ) {
    super(message);
  }
}

/** Who the caller says it is: an agent id and its secret. */
export interface AgentCredentials {
  agentId: string;
  secret: string;
}

/**
 * Reads `Authorization: Bearer <agent id>.<secret>`: the agent's token as `warden up --agent` and
 * `warden hook install` issue it (the secret is the agent's NATS password, which nats-server checks).
 */
export function credentialsOf(authorization: string | undefined): AgentCredentials {
  if (!authorization) throw new HookRequestError(401, 'missing Authorization header: send "Authorization: Bearer <agent token>" (warden hook install writes it)');
  const match = /^Bearer\s+(\S+)$/i.exec(authorization.trim());
  if (!match) throw new HookRequestError(401, 'the Authorization header must be "Bearer <agent token>"');
  const token = match[1]!;
  const dot = token.indexOf('.');
  const agentId = dot > 0 ? token.slice(0, dot) : '';
  const secret = dot > 0 ? token.slice(dot + 1) : '';
  if (!isSubjectToken(agentId) || !secret) throw new HookRequestError(401, 'the agent token is malformed: expected <agent id>.<secret>');
  return { agentId, secret };
}

const truthy = (value: string) => /^(1|true|yes|on)$/i.test(value);
const falsy = (value: string) => /^(0|false|no|off)$/i.test(value);

/** The answer settings of a hook URL's query: `decide`, `approvals`, `failOpen` (comma-separated tools). */
export function policyOf(query: Record<string, unknown>): AnswerPolicy {
  const text = (name: string): string | undefined => {
    const value = query[name];
    if (value === undefined) return undefined;
    if (typeof value !== 'string') throw new HookRequestError(400, `the query parameter ${name} must be given once`);
    return value;
  };
  const decide = text('decide');
  if (decide !== undefined && !truthy(decide) && !falsy(decide)) throw new HookRequestError(400, `decide must be true or false (got "${decide}")`);
  const approvals = text('approvals');
  if (approvals !== undefined && !(APPROVAL_ROUTES as readonly string[]).includes(approvals)) {
    throw new HookRequestError(400, `approvals must be one of ${APPROVAL_ROUTES.join(', ')} (got "${approvals}")`);
  }
  const failOpen = text('failOpen');
  return {
    decide: decide === undefined ? ANSWER_DEFAULTS.decide : truthy(decide),
    approvals: (approvals as ApprovalRoute | undefined) ?? ANSWER_DEFAULTS.approvals,
    failOpenTools: failOpen ? failOpen.split(',').map((t) => t.trim()).filter(Boolean) : [...ANSWER_DEFAULTS.failOpenTools],
  };
}

/**
 * The `usage` query parameter: `transcript` when the agent's telemetry does not reach Warden, so that the
 * gateway (on the agent's machine) reads the session's usage from its transcript; `telemetry` (the
 * default) otherwise.
 */
export function usageFromTranscriptOf(query: Record<string, unknown>): boolean {
  const usage = query.usage;
  if (usage === undefined || usage === 'telemetry') return false;
  if (usage === 'transcript') return true;
  throw new HookRequestError(400, `usage must be telemetry or transcript (got ${JSON.stringify(usage)})`);
}
