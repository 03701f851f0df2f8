import { readFileSync } from 'node:fs';
import { isSubjectToken } from '@warden/contracts';
import { NO_DEADLINE_SETTINGS, resolveDeadlineSettings, type DeadlineSettings } from '@warden/gate';

/** A signed webhook: every new request, change and answer POSTed as JSON, signed with HMAC-SHA256. */
export interface WebhookChannelSettings {
  type: 'webhook';
  name: string;
  url: string;
  /** The shared secret of the signature (never logged). */
  secret: string;
}

/** A Slack channel: a message with Approve / Reject / Open buttons per request, updated when answered. */
export interface SlackChannelSettings {
  type: 'slack';
  name: string;
  /** The Slack channel id (C…) messages are posted to. */
  channel: string;
  /** The bot token (xoxb-…) of the Slack app (never logged). */
  botToken: string;
  /** The app's signing secret, to verify button clicks (never logged). */
  signingSecret: string;
  /** Slack's Web API base URL (a test points it at its own server). */
  apiUrl: string;
  /** Slack user id → Warden operator id; the operator must have the approver role. */
  users: Record<string, string>;
}

export type ApprovalChannelSettings = WebhookChannelSettings | SlackChannelSettings;

/** The approval channels of GATE_CONFIG (`approvals:`), with the delivery settings over the gate's defaults. */
export interface ApprovalSettings {
  channels: ApprovalChannelSettings[];
  /** The console's public URL, for the Open link of each message (none: no link). */
  consoleUrl?: string;
  delivery: ApprovalDelivery;
  /** Escalation steps by target and per-agent deadlines (`approvals.escalation`, `approvals.agents`). */
  deadlines: DeadlineSettings;
}

export interface ApprovalDelivery {
  /** Attempts of one delivery before it is given up (logged as an error, counted as abandoned). */
  attempts: number;
  /** The first retry waits this long; each next one twice as long, at most maxBackoffMs. */
  backoffMs: number;
  maxBackoffMs: number;
  /** Time allowed for one HTTP call to a channel. */
  timeoutMs: number;
  /** How long a replica's claim on a delivery lasts; a claim of a replica that died lapses after it. */
  claimMs: number;
  /** How often every replica looks for deliveries left undone (a replica that died mid-delivery). */
  sweepMs: number;
  /** Slack's request timestamps older (or newer) than this are refused (Slack documents 5 minutes). */
  slackToleranceS: number;
}

export class ApprovalSettingsError extends Error {}

const fail = (message: string): never => {
  throw new ApprovalSettingsError(message);
};
const isMapping = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * A secret: given in the settings file (`<key>`), or named there and read from the environment
 * (`<key>_env`) or a file (`<key>_file`). The value is never part of an error message.
 */
function secretOf(raw: Record<string, unknown>, key: string, where: string, env: NodeJS.ProcessEnv): string {
  const given = [key, `${key}_env`, `${key}_file`].filter((k) => raw[k] !== undefined);
  if (given.length !== 1) fail(`${where}: give exactly one of ${key}, ${key}_env (an environment variable) or ${key}_file`);
  let value: unknown;
  if (raw[key] !== undefined) value = raw[key];
  else if (raw[`${key}_env`] !== undefined) {
    const name = raw[`${key}_env`];
    if (typeof name !== 'string' || !name) fail(`${where}.${key}_env must name an environment variable`);
    value = env[name as string];
    if (!value) fail(`${where}.${key}_env: the environment variable ${String(name)} is not set`);
  } else {
    const path = raw[`${key}_file`];
    if (typeof path !== 'string' || !path) fail(`${where}.${key}_file must be a path`);
    try {
      value = readFileSync(path as string, 'utf8').trim();
    } catch (error) {
      fail(`${where}.${key}_file: cannot read ${String(path)} (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
    }
  }
  if (typeof value !== 'string' || value.length < 8) fail(`${where}.${key} must be a text of at least 8 characters`);
  return value as string;
}

function httpUrl(value: unknown, where: string): string {
  if (typeof value !== 'string') return fail(`${where} must be an http(s) URL`);
  try {
    const url = new URL(value);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') fail(`${where} must be an http(s) URL`);
  } catch {
    fail(`${where} must be an http(s) URL`);
  }
  return value;
}

/** Reads `approvals` of the gate's settings document (absent: no channels), with `defaults` for delivery. */
export function resolveApprovalSettings(document: unknown, defaults: ApprovalDelivery, env: NodeJS.ProcessEnv = process.env): ApprovalSettings {
  const raw = isMapping(document) ? document.approvals : undefined;
  if (raw === undefined || raw === null) return { channels: [], delivery: defaults, deadlines: NO_DEADLINE_SETTINGS };
  const known = ['channels', 'console_url', 'delivery', 'escalation', 'agents'];
  if (!isMapping(raw)) return fail(`approvals must be a mapping (${known.join(', ')})`);
  const unknown = Object.keys(raw).filter((k) => !known.includes(k));
  if (unknown.length) fail(`approvals: unknown setting ${unknown.join(', ')} (${known.join(', ')})`);
  const delivery = { ...defaults };
  if (raw.delivery !== undefined) {
    if (!isMapping(raw.delivery)) fail('approvals.delivery must be a mapping');
    const names: Record<string, keyof ApprovalDelivery> = {
      attempts: 'attempts',
      backoff_ms: 'backoffMs',
      max_backoff_ms: 'maxBackoffMs',
      timeout_ms: 'timeoutMs',
      claim_ms: 'claimMs',
      sweep_ms: 'sweepMs',
      slack_tolerance_s: 'slackToleranceS',
    };
    for (const [key, value] of Object.entries(raw.delivery as Record<string, unknown>)) {
      const field = names[key];
      if (!field) fail(`approvals.delivery: unknown setting ${key} (${Object.keys(names).join(', ')})`);
      if (typeof value !== 'number' || !Number.isInteger(value) || value < 1) fail(`approvals.delivery.${key} must be a whole number above 0`);
      delivery[field!] = value as number;
    }
  }
  const channels: ApprovalChannelSettings[] = [];
  const list = raw.channels ?? [];
  if (!Array.isArray(list)) fail('approvals.channels must be a list');
  for (const [i, item] of (list as unknown[]).entries()) {
    const where = `approvals.channels[${i}]`;
    if (!isMapping(item)) fail(`${where} must be a mapping with a type (slack or webhook)`);
    const c = item as Record<string, unknown>;
    const name = c.name === undefined ? `${String(c.type)}-${i}` : c.name;
    if (typeof name !== 'string' || !isSubjectToken(name)) fail(`${where}.name must be letters, digits, - and _`);
    if (channels.some((x) => x.name === name)) fail(`${where}: channel name ${String(name)} is used twice`);
    if (name === 'thread') fail(`${where}.name: thread is kept for the Slack channels' threads`);
    if (c.type === 'webhook') {
      const known = ['type', 'name', 'url', 'secret', 'secret_env', 'secret_file'];
      const extra = Object.keys(c).filter((k) => !known.includes(k));
      if (extra.length) fail(`${where}: unknown setting ${extra.join(', ')} (${known.join(', ')})`);
      channels.push({ type: 'webhook', name: name as string, url: httpUrl(c.url, `${where}.url`), secret: secretOf(c, 'secret', where, env) });
    } else if (c.type === 'slack') {
      const known = ['type', 'name', 'channel', 'bot_token', 'bot_token_env', 'bot_token_file', 'signing_secret', 'signing_secret_env', 'signing_secret_file', 'api_url', 'users'];
      const extra = Object.keys(c).filter((k) => !known.includes(k));
      if (extra.length) fail(`${where}: unknown setting ${extra.join(', ')} (${known.join(', ')})`);
      if (typeof c.channel !== 'string' || !/^[A-Z0-9]{2,32}$/.test(c.channel)) fail(`${where}.channel must be a Slack channel id (e.g. C0123456789)`);
      const users = c.users ?? {};
      if (!isMapping(users)) fail(`${where}.users must map Slack user ids to Warden operator ids`);
      for (const [slackUser, operator] of Object.entries(users as Record<string, unknown>)) {
        if (!/^[UW][A-Z0-9]{2,32}$/.test(slackUser)) fail(`${where}.users: ${slackUser} is not a Slack user id (U…)`);
        if (typeof operator !== 'string' || !operator.trim() || operator.length > 256) fail(`${where}.users.${slackUser} must be a Warden operator id`);
      }
      const apiUrl = c.api_url === undefined ? 'https://slack.com/api/' : httpUrl(c.api_url, `${where}.api_url`);
      channels.push({
        type: 'slack',
        name: name as string,
        channel: c.channel as string,
        botToken: secretOf(c, 'bot_token', where, env),
        signingSecret: secretOf(c, 'signing_secret', where, env),
        apiUrl: apiUrl.endsWith('/') ? apiUrl : `${apiUrl}/`,
        users: users as Record<string, string>,
      });
    } else {
      fail(`${where}.type must be slack or webhook`);
    }
  }
  const consoleUrl = raw.console_url === undefined ? undefined : httpUrl(raw.console_url, 'approvals.console_url').replace(/\/+$/, '');
  const deadlines = resolveDeadlineSettings(raw, channels.map((c) => c.name));
  return { channels, delivery, deadlines, ...(consoleUrl ? { consoleUrl } : {}) };
}
