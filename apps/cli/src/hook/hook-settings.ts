import { existsSync, readFileSync } from 'node:fs';
import { isAbsolute, join, resolve } from 'node:path';
import { ANSWER_DEFAULTS, APPROVAL_ROUTES, type AnswerPolicy, type ApprovalRoute } from '@warden/agent-edge';

/**
 * Everything `warden hook` can be told, with its defaults in one place. Read from `.warden/hook.json`
 * in the project (or WARDEN_HOOK_CONFIG), then overridden by the environment.
 */
export const HOOK_DEFAULTS = {
  servers: 'nats://127.0.0.1:4222',
  agentId: 'claude-code',
  /** The project's hook configuration, relative to the project directory. */
  configFile: '.warden/hook.json',
  /** Per-session state (session declared, control messages already shown), relative to the project. */
  stateDir: '.warden/hook-state',
  /**
   * How long one hook run may wait for Warden, from start to answer. Well under Claude Code's 60 s hook
   * timeout (what `warden hook install` writes), so that the adapter, not Claude Code, says what happened.
   */
  deadlineMs: 45_000,
  /** How long connecting to NATS may take before the adapter gives up (fails closed). */
  connectTimeoutMs: 3_000,
  /** How long a run looks for control messages stored since its previous run. */
  controlReadMs: 1_500,
  /** Tools left to Claude Code's own rules when Warden cannot answer; none: every tool fails closed. */
  failOpenTools: [] as string[],
  /** Approve on the user's behalf what Warden has no objection to; off: Claude Code's own permissions apply. */
  decide: ANSWER_DEFAULTS.decide,
  /** Who answers a require_approval: auto (the terminal when interactive, an operator when headless), terminal, operator. */
  approvals: ANSWER_DEFAULTS.approvals,
} as const;

export interface HookSettings extends AnswerPolicy {
  servers: string;
  agentId: string;
  password?: string;
  deadlineMs: number;
  connectTimeoutMs: number;
  controlReadMs: number;
  /** Globs the session is expected to touch; default `<cwd>/**`. */
  expectedPaths?: string[];
  stateDir: string;
  /** What the agent was asked to do, when the project wants to declare it rather than read it from the transcript. */
  goal?: string;
  environment?: string;
  /** Read the session's model usage from its transcript (no telemetry of the agent reaches Warden). */
  usageFromTranscript: boolean;
}

/** The shape of `.warden/hook.json`. */
export interface HookConfigFile {
  servers?: string;
  agentId?: string;
  password?: string;
  /** A credentials file as `warden up` writes it (`agents: {<id>: <password>}`), so no password is copied. */
  credentialsFile?: string;
  deadlineMs?: number;
  connectTimeoutMs?: number;
  failOpenTools?: string[];
  decide?: boolean;
  approvals?: ApprovalRoute;
  expectedPaths?: string[];
  stateDir?: string;
  goal?: string;
  environment?: string;
  /** Where the session's spend comes from: `transcript` when the agent's telemetry does not reach Warden (warden hook install writes it). */
  usage?: 'telemetry' | 'transcript';
}

export class HookSettingsError extends Error {}

function positiveInteger(value: unknown, name: string): number | undefined {
  if (value === undefined || value === '') return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new HookSettingsError(`${name} must be a positive integer (got ${JSON.stringify(value)})`);
  return n;
}

function stringList(value: unknown, name: string): string[] | undefined {
  if (value === undefined) return undefined;
  if (typeof value === 'string') return value.split(',').map((s) => s.trim()).filter(Boolean);
  if (Array.isArray(value) && value.every((v) => typeof v === 'string')) return value as string[];
  throw new HookSettingsError(`${name} must be a list of strings`);
}

function booleanSetting(value: unknown, name: string): boolean | undefined {
  if (value === undefined || value === '') return undefined;
  if (value === true || value === false) return value;
  if (typeof value === 'string' && /^(1|true|yes|on)$/i.test(value)) return true;
  if (typeof value === 'string' && /^(0|false|no|off)$/i.test(value)) return false;
  throw new HookSettingsError(`${name} must be true or false (got ${JSON.stringify(value)})`);
}

function approvalRoute(value: unknown, name: string): ApprovalRoute | undefined {
  if (value === undefined || value === '') return undefined;
  if (typeof value === 'string' && (APPROVAL_ROUTES as readonly string[]).includes(value)) return value as ApprovalRoute;
  throw new HookSettingsError(`${name} must be one of ${APPROVAL_ROUTES.join(', ')} (got ${JSON.stringify(value)})`);
}

function readConfigFile(path: string): HookConfigFile {
  if (!existsSync(path)) return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    throw new HookSettingsError(`${path} is not valid JSON: ${(error as Error).message}`);
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw new HookSettingsError(`${path} must hold a JSON object`);
  return parsed as HookConfigFile;
}

function passwordFromCredentials(path: string, agentId: string): string {
  let credentials: { agents?: Record<string, string> };
  try {
    credentials = JSON.parse(readFileSync(path, 'utf8')) as typeof credentials;
  } catch (error) {
    throw new HookSettingsError(`cannot read the credentials file ${path}: ${(error as Error).message}`);
  }
  const password = credentials.agents?.[agentId];
  if (!password) throw new HookSettingsError(`${path} has no password for agent ${agentId} (start the suite with --agent ${agentId})`);
  return password;
}

/**
 * The hook's settings for a project directory: file, then environment (WARDEN_NATS_URL, WARDEN_AGENT_ID,
 * WARDEN_AGENT_PASSWORD, WARDEN_HOOK_DEADLINE_MS, WARDEN_HOOK_FAIL_OPEN_TOOLS, WARDEN_HOOK_STATE_DIR,
 * WARDEN_HOOK_DECIDE, WARDEN_HOOK_APPROVALS).
 */
export function loadHookSettings(projectDir: string, env: NodeJS.ProcessEnv = process.env): HookSettings {
  const configPath = env.WARDEN_HOOK_CONFIG ? resolve(env.WARDEN_HOOK_CONFIG) : join(projectDir, HOOK_DEFAULTS.configFile);
  const file = readConfigFile(configPath);
  const relativeTo = (path: string) => (isAbsolute(path) ? path : join(projectDir, path));
  const agentId = env.WARDEN_AGENT_ID || file.agentId || HOOK_DEFAULTS.agentId;
  let password = env.WARDEN_AGENT_PASSWORD || file.password;
  if (!password && file.credentialsFile) password = passwordFromCredentials(relativeTo(file.credentialsFile), agentId);
  return {
    servers: env.WARDEN_NATS_URL || file.servers || HOOK_DEFAULTS.servers,
    agentId,
    ...(password ? { password } : {}),
    deadlineMs: positiveInteger(env.WARDEN_HOOK_DEADLINE_MS, 'WARDEN_HOOK_DEADLINE_MS') ?? positiveInteger(file.deadlineMs, 'deadlineMs') ?? HOOK_DEFAULTS.deadlineMs,
    connectTimeoutMs: positiveInteger(file.connectTimeoutMs, 'connectTimeoutMs') ?? HOOK_DEFAULTS.connectTimeoutMs,
    controlReadMs: HOOK_DEFAULTS.controlReadMs,
    failOpenTools: stringList(env.WARDEN_HOOK_FAIL_OPEN_TOOLS, 'WARDEN_HOOK_FAIL_OPEN_TOOLS') ?? stringList(file.failOpenTools, 'failOpenTools') ?? [...HOOK_DEFAULTS.failOpenTools],
    decide: booleanSetting(env.WARDEN_HOOK_DECIDE, 'WARDEN_HOOK_DECIDE') ?? booleanSetting(file.decide, 'decide') ?? HOOK_DEFAULTS.decide,
    approvals: approvalRoute(env.WARDEN_HOOK_APPROVALS, 'WARDEN_HOOK_APPROVALS') ?? approvalRoute(file.approvals, 'approvals') ?? HOOK_DEFAULTS.approvals,
    ...(file.expectedPaths ? { expectedPaths: stringList(file.expectedPaths, 'expectedPaths')! } : {}),
    stateDir: relativeTo(env.WARDEN_HOOK_STATE_DIR || file.stateDir || HOOK_DEFAULTS.stateDir),
    ...(file.goal ? { goal: file.goal } : {}),
    ...(file.environment ? { environment: file.environment } : {}),
    usageFromTranscript: (env.WARDEN_HOOK_USAGE || file.usage) === 'transcript',
  };
}
