import { isSubjectToken } from '@warden/contracts';
import { isSettingsMapping } from '@warden/settings';
import { ConditionError } from './gate-conditions.js';
import { MAX_GATE_TIMEOUT_MS, type HumanGate } from './human-gates.js';
import type { PendingRequest } from './relay-state.js';

/**
 * The deadlines of an approval request. Its final deadline is the gate's `timeout_ms` (or its agent's);
 * before it, its escalation runs step by step: each step, `after_ms` from the request, asks more
 * approval channels. At the final deadline it is denied. Nothing waits forever, and nothing is ever
 * approved because nobody answered.
 */

/** One step of an escalation: when nobody answered `after_ms` after the request, `channels` are asked too. */
export interface EscalationStep {
  after_ms: number;
  channels: string[];
}

/** Per agent: its final deadline and escalation target, over those of the gate that asks. */
export interface AgentDeadlines {
  timeout_ms?: number;
  escalation?: string;
}

/** GATE_CONFIG `approvals.escalation` and `approvals.agents`, with the names of the approval channels. */
export interface DeadlineSettings {
  /** Every approval channel; those named in no step of a request's escalation are asked at once. */
  channels: string[];
  /** Escalation steps by escalation target (a gate's `escalation`); `default` serves the targets without a list. */
  escalation: Record<string, EscalationStep[]>;
  agents: Record<string, AgentDeadlines>;
}

export const NO_DEADLINE_SETTINGS: DeadlineSettings = { channels: [], escalation: {}, agents: {} };

/** The list of escalation steps that serves targets without a list of their own. */
export const DEFAULT_ESCALATION = 'default';

/** One escalation step as a request carries it: when it is due and whom it asks. */
export interface PlannedStep {
  at: string;
  channels: string[];
}

/** An escalation step that ran: its number (from 1), when, whom it asked, how long after the request. */
export interface EscalationRun {
  step: number;
  at: string;
  after_ms: number;
  channels: string[];
}

const fail = (message: string): never => {
  throw new ConditionError(message);
};

function wholeMs(value: unknown, where: string): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1 || value > MAX_GATE_TIMEOUT_MS) {
    fail(`${where} must be a whole number of milliseconds between 1 and ${MAX_GATE_TIMEOUT_MS}`);
  }
  return value as number;
}

function steps(raw: unknown, channels: readonly string[], where: string): EscalationStep[] {
  if (!Array.isArray(raw) || !raw.length) return fail(`${where} must be a list of steps ({after_ms, channels})`);
  const seen = new Set<string>();
  let last = 0;
  return raw.map((item, i) => {
    const at = `${where}[${i}]`;
    if (!isSettingsMapping(item)) fail(`${at} must be a mapping with after_ms and channels`);
    const step = item as Record<string, unknown>;
    const extra = Object.keys(step).filter((k) => k !== 'after_ms' && k !== 'channels');
    if (extra.length) fail(`${at}: unknown setting ${extra.join(', ')} (after_ms, channels)`);
    const after = wholeMs(step.after_ms, `${at}.after_ms`);
    if (after <= last) fail(`${at}.after_ms must be later than the step before it`);
    last = after;
    const names = step.channels;
    if (!Array.isArray(names) || !names.length) fail(`${at}.channels must name approval channels`);
    for (const name of names as unknown[]) {
      if (typeof name !== 'string' || !channels.includes(name)) fail(`${at}.channels: ${String(name)} is not an approval channel (${channels.join(', ') || 'none configured'})`);
      if (seen.has(name as string)) fail(`${at}.channels: ${String(name)} is asked twice in this escalation`);
      seen.add(name as string);
    }
    return { after_ms: after, channels: [...(names as string[])] };
  });
}

/**
 * `escalation` and `agents` of GATE_CONFIG `approvals` (absent: no escalation steps, the gates' own
 * deadlines). Throws ConditionError naming the setting.
 */
export function resolveDeadlineSettings(approvals: Record<string, unknown>, channels: readonly string[]): DeadlineSettings {
  const escalation: Record<string, EscalationStep[]> = {};
  if (approvals.escalation !== undefined) {
    if (!isSettingsMapping(approvals.escalation)) fail('approvals.escalation must map escalation targets (a gate\'s escalation, or default) to steps');
    for (const [target, list] of Object.entries(approvals.escalation as Record<string, unknown>)) {
      if (!isSubjectToken(target)) fail(`approvals.escalation: ${target} is not a name (letters, digits, - and _)`);
      escalation[target] = steps(list, channels, `approvals.escalation.${target}`);
    }
  }
  const agents: Record<string, AgentDeadlines> = {};
  if (approvals.agents !== undefined) {
    if (!isSettingsMapping(approvals.agents)) fail('approvals.agents must map agent ids to {timeout_ms, escalation}');
    for (const [agent, raw] of Object.entries(approvals.agents as Record<string, unknown>)) {
      const where = `approvals.agents.${agent}`;
      if (!isSubjectToken(agent)) fail(`approvals.agents: ${agent} is not an agent id`);
      if (!isSettingsMapping(raw)) fail(`${where} must be a mapping (timeout_ms, escalation)`);
      const settings = raw as Record<string, unknown>;
      const extra = Object.keys(settings).filter((k) => k !== 'timeout_ms' && k !== 'escalation');
      if (extra.length) fail(`${where}: unknown setting ${extra.join(', ')} (timeout_ms, escalation)`);
      const own: AgentDeadlines = {};
      if (settings.timeout_ms !== undefined) own.timeout_ms = wholeMs(settings.timeout_ms, `${where}.timeout_ms`);
      if (settings.escalation !== undefined) {
        if (typeof settings.escalation !== 'string' || !escalation[settings.escalation]) fail(`${where}.escalation must name a list of approvals.escalation (${Object.keys(escalation).join(', ') || 'none'})`);
        own.escalation = settings.escalation as string;
      }
      agents[agent] = own;
    }
  }
  return { channels: [...channels], escalation, agents };
}

/** The escalation steps of a target: its own list, or the default one, or none. */
function stepsOf(settings: DeadlineSettings, target: string): EscalationStep[] {
  return settings.escalation[target] ?? settings.escalation[DEFAULT_ESCALATION] ?? [];
}

/**
 * Checks the escalation lists against the gates in effect: each names a gate's escalation target (or
 * is `default`, or an agent's), so that a misspelt target is not a list that never runs. Throws
 * ConditionError naming the setting.
 */
export function checkDeadlines(settings: DeadlineSettings, gates: readonly Pick<HumanGate, 'escalation'>[]): void {
  const targets = new Set([DEFAULT_ESCALATION, ...gates.map((g) => g.escalation), ...Object.values(settings.agents).flatMap((a) => (a.escalation ? [a.escalation] : []))]);
  for (const target of Object.keys(settings.escalation)) {
    if (!targets.has(target)) fail(`approvals.escalation.${target}: no gate escalates to ${target} (the gates' targets: ${[...new Set(gates.map((g) => g.escalation))].join(', ')})`);
  }
}

/** What a new request carries of its deadlines: computed once, stored with it, so a restart changes none. */
export type RequestDeadlines = Pick<PendingRequest, 'timeout_ms' | 'expires_at' | 'escalation' | 'asked' | 'escalation_steps' | 'escalated'>;

/**
 * The deadlines of a request of `gate` for `agentId` made at `requestedAt`. A step due at or after the
 * final deadline does not run (the request is denied first): its channels are not asked.
 */
export function requestDeadlines(settings: DeadlineSettings, gate: Pick<HumanGate, 'timeout_ms' | 'escalation'>, agentId: string, requestedAt: Date): RequestDeadlines {
  const own = settings.agents[agentId] ?? {};
  const timeout = own.timeout_ms ?? gate.timeout_ms;
  const escalation = own.escalation ?? gate.escalation;
  const list = stepsOf(settings, escalation);
  const later = new Set(list.flatMap((s) => s.channels));
  const at = (ms: number) => new Date(requestedAt.getTime() + ms).toISOString();
  return {
    timeout_ms: timeout,
    expires_at: at(timeout),
    escalation,
    asked: settings.channels.filter((c) => !later.has(c)),
    escalation_steps: list.filter((s) => s.after_ms < timeout).map((s) => ({ at: at(s.after_ms), channels: s.channels })),
    escalated: 0,
  };
}

/** When the request next needs the gate: its next escalation step, or its final deadline (ms since the epoch). */
export function nextDeadline(pending: PendingRequest): number {
  const step = (pending.escalation_steps ?? [])[pending.escalated ?? 0];
  const final = Date.parse(pending.expires_at);
  return step ? Math.min(Date.parse(step.at), final) : final;
}

/** What is due for a pending request at `now`: nothing yet, its next escalation step, or its final deadline. */
export type DeadlineDue = { kind: 'wait'; at: number } | { kind: 'escalate'; run: EscalationRun } | { kind: 'expire' };

export function deadlineDue(pending: PendingRequest, now: Date): DeadlineDue {
  const t = now.getTime();
  if (t >= Date.parse(pending.expires_at)) return { kind: 'expire' };
  const done = pending.escalated ?? 0;
  const step = (pending.escalation_steps ?? [])[done];
  if (!step || t < Date.parse(step.at)) return { kind: 'wait', at: nextDeadline(pending) };
  return {
    kind: 'escalate',
    run: { step: done + 1, at: now.toISOString(), after_ms: Date.parse(step.at) - Date.parse(pending.requested_at), channels: step.channels },
  };
}

/** The request after an escalation step ran: one step further, its channels asked. */
export function escalatedPending(pending: PendingRequest, run: EscalationRun): PendingRequest {
  return { ...pending, escalated: run.step, asked: [...(pending.asked ?? []), ...run.channels.filter((c) => !pending.asked?.includes(c))] };
}

/** A duration as people read it: 850 ms, 1.5 s, 40 s, 5 min, 2 h. */
export function durationText(ms: number): string {
  if (ms < 1_000) return `${ms} ms`;
  if (ms < 10_000) return `${Math.round(ms / 100) / 10} s`;
  if (ms < 120_000) return `${Math.round(ms / 1_000)} s`;
  if (ms < 2 * 3_600_000) return `${Math.round(ms / 60_000)} min`;
  return `${Math.round((ms / 3_600_000) * 10) / 10} h`;
}

/**
 * Why a request nobody answered is denied, as the agent reads it: the gate, the final deadline, the
 * approval channels asked (in the order they were), and that silence approves nothing.
 */
export function timeoutReason(pending: PendingRequest): string {
  const first = (pending.asked ?? []).filter((c) => !(pending.escalation_steps ?? []).some((s) => s.channels.includes(c)));
  const rounds = [first, ...(pending.escalation_steps ?? []).slice(0, pending.escalated ?? 0).map((s) => s.channels)].filter((r) => r.length);
  const asked = rounds.length ? rounds.map((r) => r.join(', ')).join(', then ') : "the operators' queue only (no approval channel)";
  return `Nobody answered the approval request of gate ${pending.gate_id} within ${durationText(pending.timeout_ms)} (asked: ${asked}); the action is denied: nothing is approved without an answer.`;
}
