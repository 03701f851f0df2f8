import { booleanFromEnv, ConfigurationError, integerFromEnv, loadServiceRuntime, type ServiceRuntime } from '@warden/service-bootstrap';
import { loadSettingsFile } from '@warden/settings-loader';
import { checkDeadlines, resolveGateSettings, type HumanGate } from '@warden/gate';
import { resolveApprovalSettings, type ApprovalDelivery, type ApprovalSettings } from './approvals/approval-settings.js';

/**
 * The defaults of the approval channels' delivery (GATE_CONFIG `approvals.delivery` overrides each, in
 * snake_case): 8 attempts, the first retry after 1 s, doubling up to 60 s; 10 s per HTTP call; a
 * replica's claim on a delivery lapses after 30 s and every replica looks for deliveries left undone
 * every 15 s; Slack requests more than 300 s (5 minutes, Slack's own advice) from now are refused.
 */
export const APPROVAL_DELIVERY_DEFAULTS: ApprovalDelivery = {
  attempts: 8,
  backoffMs: 1_000,
  maxBackoffMs: 60_000,
  timeoutMs: 10_000,
  claimMs: 30_000,
  sweepMs: 15_000,
  slackToleranceS: 300,
};

/**
 * The gate's configuration. Its environment is the shared one (see loadServiceRuntime; HTTP port 3105
 * by default) plus:
 *
 * - `GATE_CONFIG`: path of the human gates configuration (JSON when its name ends in .json, YAML otherwise):
 *   overrides of the standard gates and custom gates, over their defaults by the settings merge rule
 *   (@warden/settings). Absent: the four standard gates of seed 002 §6.1 with their defaults. Read at start.
 *   Its `approvals` section lists the approval channels (Slack, signed webhooks; none by default) and
 *   their delivery settings over APPROVAL_DELIVERY_DEFAULTS; secrets there may be named by environment
 *   variable (`secret_env`, `bot_token_env`, `signing_secret_env`) or file (`…_file`). Deadlines: a
 *   request's final deadline is its gate's `timeout_ms` (standard gates: their own; custom gates:
 *   DEFAULT_GATE_TIMEOUT_MS of @warden/gate, 1 hour) or `approvals.agents.<agent>.timeout_ms`; its
 *   escalation steps are `approvals.escalation.<the gate's escalation target>` (or `.default`), none by
 *   default. Unanswered at the final deadline, a request is denied.
 * - `GATE_INBOX_DIR`: the command inbox directory of FR-11.4 (`<dir>/<session_id>/<id>.json`). Absent:
 *   no inbox; commands come over HTTP and the bus only.
 * - `GATE_INBOX_SCAN_MS` (default 1000): how often the inbox is scanned besides file-system events.
 * - `GATE_COMMAND_REPLY_TIMEOUT_MS` (default 15000): how long an HTTP command waits for the replica that
 *   owns the session to apply it before answering 202 (stored, applied when that replica is back).
 * - `GATE_AGENT_USER_APPROVALS` (default true): a proposal may hand a require_approval to the person at
 *   the agent's own terminal (control `approver: agent_user`, e.g. an interactive Claude Code session):
 *   the decision is allow with `ask_user`. False keeps every require_approval for operators.
 */
export interface GateConfig extends ServiceRuntime {
  gate: GateOptions;
}

export interface GateOptions {
  configPath?: string;
  gates: HumanGate[];
  inbox?: { dir: string; scanMs: number };
  commandReplyTimeoutMs: number;
  agentUserApprovals: boolean;
  approvals: ApprovalSettings;
}

export function loadGateConfig(env: NodeJS.ProcessEnv = process.env): GateConfig {
  const configPath = env.GATE_CONFIG?.trim() || undefined;
  const inboxDir = env.GATE_INBOX_DIR?.trim() || undefined;
  return {
    ...loadServiceRuntime('gate', env),
    gate: {
      ...(configPath ? { configPath } : {}),
      ...loadSettingsFile(
        'GATE_CONFIG',
        configPath,
        (document) => {
          const gates = resolveGateSettings(document);
          const approvals = resolveApprovalSettings(document, APPROVAL_DELIVERY_DEFAULTS, env);
          checkDeadlines(approvals.deadlines, gates);
          return { gates, approvals };
        },
        { error: ConfigurationError },
      ),
      ...(inboxDir ? { inbox: { dir: inboxDir, scanMs: integerFromEnv(env, 'GATE_INBOX_SCAN_MS', 1000, 10) } } : {}),
      commandReplyTimeoutMs: integerFromEnv(env, 'GATE_COMMAND_REPLY_TIMEOUT_MS', 15_000, 1),
      agentUserApprovals: booleanFromEnv(env, 'GATE_AGENT_USER_APPROVALS', true),
    },
  };
}
