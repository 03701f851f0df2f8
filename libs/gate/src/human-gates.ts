import { PHASES, type Phase } from '@warden/contracts';
import { isSettingsMapping, mergeSettings } from '@warden/settings';
import type { Verdict } from './buffer-entry.js';
import { compileCondition, ConditionError, valueAt, type CompiledCondition } from './gate-conditions.js';

/** A human gate (seed 002 §6.1): in which phase it applies, when it asks, whom it escalates to. */
export interface HumanGate {
  id: string;
  /** The session phase it applies in; `*` for any phase. */
  phase: Phase | '*';
  /** The condition, as configured (kept to show it). */
  when: unknown;
  condition: CompiledCondition;
  prompt: string;
  /** Summary template: `{path}` is replaced by the value at that path of the gate context. */
  summary?: string;
  /** The final deadline of its requests: unanswered then, the action is denied (nothing is approved by silence). */
  timeout_ms: number;
  /** Whom it escalates to: the escalation target whose steps (GATE_CONFIG approvals.escalation) ask more channels. */
  escalation: string;
  /** Once approved, it does not ask again for the rest of this scope. */
  once_per: 'action' | 'phase' | 'session';
}

/** What a gate condition sees (seed 002 GateContext, for one held action of a session). */
export interface GateContext {
  session_id: string;
  agent_id: string;
  trace_id: string;
  phase?: Phase;
  environment?: string;
  goal?: string;
  action: { id: string; kind: string; tool: string; input: Record<string, unknown>; summary: string };
  review: {
    verdict: string;
    risk: { score: number; severity: string; factors: string[] };
    reasons: string[];
    rule_hits: string[];
    findings: Finding[];
    critical_security_findings: number;
    reversible?: boolean;
  };
  /** Spend of the run, when known (the breaker does not share it yet). */
  cost?: { run_usd?: number };
}

export interface Finding {
  category: 'security' | 'other';
  severity: string;
  source: 'risk_factor' | 'side_effect' | 'rule' | 'validation';
  name: string;
}

/** What the gate remembers of a session between actions (from its lifecycle messages). */
export interface SessionFacts {
  phase?: Phase;
  environment?: string;
  goal?: string;
  /** Gates approved for the rest of a phase or the session (`<gate>` or `<gate>@<phase>`). */
  approvals?: string[];
}

const HOUR = 3_600_000;
// One timer per request: Node timers hold at most 24.8 days.
export const MAX_GATE_TIMEOUT_MS = 7 * 24 * HOUR;
/** The final deadline of a custom gate that sets none. */
export const DEFAULT_GATE_TIMEOUT_MS = HOUR;

const compiled = (gate: Omit<HumanGate, 'condition'>): HumanGate => ({ ...gate, condition: compileCondition(gate.when, `gates.${gate.id}.when`) });

/**
 * The four gates of seed 002 §6.1 on Warden's gate context. The plan risk of architecture approval is
 * the reviewed risk of an action taken while planning; security findings apply in every phase, since
 * Warden reviews every action and not only a review phase.
 */
export const STANDARD_GATES: readonly HumanGate[] = [
  compiled({
    id: 'architecture_approval',
    phase: 'planning',
    when: { path: 'review.risk.severity', in: ['high', 'critical'] },
    prompt: 'Review proposed architecture before implementation begins.',
    summary: 'High-risk proposal while planning: {action.summary}',
    timeout_ms: 24 * HOUR,
    escalation: 'architect',
    once_per: 'action',
  }),
  compiled({
    id: 'production_deploy',
    phase: 'deployment',
    when: { path: 'environment', equals: 'production' },
    prompt: 'Approve production deployment.',
    summary: 'Production deployment requested: {action.summary}',
    timeout_ms: HOUR,
    escalation: 'deployment_lead',
    once_per: 'phase',
  }),
  compiled({
    id: 'security_findings',
    phase: '*',
    when: { path: 'review.critical_security_findings', gt: 0 },
    prompt: 'Critical security finding requires human review.',
    summary: '{review.critical_security_findings} critical security finding(s) detected: {action.summary}',
    timeout_ms: 12 * HOUR,
    escalation: 'security_team',
    once_per: 'action',
  }),
  compiled({
    id: 'cost_overrun',
    phase: '*',
    when: { path: 'cost.run_usd', gt: 40 },
    prompt: 'Approaching cost budget. Continue?',
    summary: 'Cost approaching budget: ${cost.run_usd}',
    timeout_ms: 2 * HOUR,
    escalation: 'budget_owner',
    once_per: 'session',
  }),
];

const SECURITY = /secret|credential|privilege|security|exfiltrat|permission|auth|token|password/i;

function shortInput(input: Record<string, unknown>): string {
  const main = input.command ?? input.file_path ?? input.path ?? input.url ?? input.query;
  const text = typeof main === 'string' ? main : JSON.stringify(input);
  return text.length > 200 ? `${text.slice(0, 199)}…` : text;
}

/** The gate context of a verdict in a session. */
export function gateContext(verdict: Verdict, facts: SessionFacts | undefined, cost?: { run_usd?: number }): GateContext {
  const review = verdict.payload;
  const severity = review.risk.severity;
  const findings: Finding[] = [
    ...review.risk.factors.map((name) => ({ category: SECURITY.test(name) ? 'security' : 'other', severity, source: 'risk_factor', name }) as Finding),
    ...(review.side_effects?.effects ?? []).map(
      (e) => ({ category: SECURITY.test(e.type) ? 'security' : 'other', severity: e.severity, source: 'side_effect', name: e.type }) as Finding,
    ),
    ...(review.rule_hits ?? []).map((name) => ({ category: SECURITY.test(name) ? 'security' : 'other', severity, source: 'rule', name }) as Finding),
    ...(review.validations ?? []).map(
      (v) => ({ category: SECURITY.test(`${v.validator} ${v.reason}`) ? 'security' : 'other', severity, source: 'validation', name: v.validator }) as Finding,
    ),
  ];
  return {
    session_id: verdict.session_id,
    agent_id: verdict.agent_id,
    trace_id: verdict.trace_id,
    ...(facts?.phase ? { phase: facts.phase } : {}),
    ...(facts?.environment ? { environment: facts.environment } : {}),
    ...(facts?.goal ? { goal: facts.goal } : {}),
    action: {
      id: review.action_id,
      kind: review.action.kind,
      tool: review.action.tool,
      input: review.action.input,
      summary: `${review.action.tool} ${shortInput(review.action.input)}`,
    },
    review: {
      verdict: review.verdict,
      risk: { score: review.risk.score, severity, factors: review.risk.factors },
      reasons: review.reasons,
      rule_hits: review.rule_hits ?? [],
      findings,
      critical_security_findings: findings.filter((f) => f.category === 'security' && f.severity === 'critical').length,
      ...(review.side_effects ? { reversible: review.side_effects.reversible } : {}),
    },
    ...(cost ? { cost } : {}),
  };
}

/** The approval key that stops a gate from asking again in its scope. */
export function approvalKey(gate: Pick<HumanGate, 'id' | 'once_per'>, phase: Phase | undefined): string | null {
  if (gate.once_per === 'action') return null;
  return gate.once_per === 'session' ? gate.id : `${gate.id}@${phase ?? '-'}`;
}

/** The gates that ask for an approval in this context (seed 002 GateManager.checkGates). */
export function triggeredGates(gates: readonly HumanGate[], context: GateContext, approvals: readonly string[] = []): HumanGate[] {
  return gates.filter((gate) => {
    if (gate.phase !== '*' && gate.phase !== context.phase) return false;
    const key = approvalKey(gate, context.phase);
    if (key && approvals.includes(key)) return false;
    return gate.condition(context);
  });
}

/** The request's summary: the gate's template filled from the context, or its prompt. */
export function summaryOf(gate: HumanGate, context: GateContext): string {
  const template = gate.summary ?? gate.prompt;
  const text = template.replace(/\{([A-Za-z0-9_.]+)\}/g, (_, path: string) => {
    const value = valueAt(context, path.split('.'));
    if (value === undefined || value === null) return '?';
    return typeof value === 'number' ? String(Math.round(value * 100) / 100) : typeof value === 'string' ? value : JSON.stringify(value);
  });
  return text.length > 4000 ? `${text.slice(0, 3999)}…` : text;
}

/** The request's details (seed 002 generateDetails): what the operator needs to decide. */
export function detailsOf(context: GateContext): Record<string, unknown> {
  return {
    phase: context.phase ?? null,
    environment: context.environment ?? null,
    goal: context.goal ?? null,
    action: { id: context.action.id, kind: context.action.kind, tool: context.action.tool, input: context.action.input },
    review: {
      verdict: context.review.verdict,
      risk: context.review.risk,
      reasons: context.review.reasons,
      findings: context.review.findings.filter((f) => f.category === 'security' || f.severity === 'critical' || f.severity === 'high'),
    },
    ...(context.cost ? { cost: context.cost } : {}),
  };
}

/** Overrides of a standard gate, or a whole custom gate, as read from the configuration file. */
export interface GateSettings {
  /** Overrides of the standard gates by id; `enabled: false` turns one off. */
  standard_gates?: Record<string, Partial<Pick<HumanGate, 'timeout_ms' | 'escalation' | 'once_per' | 'prompt' | 'summary'>> & { enabled?: boolean }>;
  /** Custom gates. */
  gates?: unknown[];
}

const GATE_ID = /^[a-z][a-z0-9_]{0,63}$/;

/** What a custom gate leaves out. */
const CUSTOM_GATE_DEFAULTS = { phase: '*', once_per: 'action', escalation: 'operators', timeout_ms: DEFAULT_GATE_TIMEOUT_MS };

/**
 * The gates in effect for a human gates document (GATE_CONFIG, read by the services' shared loader; `{}`
 * without a file): `standard_gates` and `gates`, nothing else. Throws ConditionError naming the setting.
 */
export function resolveGateSettings(document: unknown = {}): HumanGate[] {
  if (!isSettingsMapping(document)) throw new ConditionError('human gates configuration must be a mapping');
  // `approvals` (the approval channels) is the gate service's own section of the same file.
  const unknown = Object.keys(document).filter((k) => k !== 'standard_gates' && k !== 'gates' && k !== 'approvals');
  if (unknown.length) throw new ConditionError(`unknown setting ${unknown.join(', ')} (standard_gates, gates, approvals)`);
  return resolveGates(document as GateSettings);
}

/**
 * The gates in effect: the standard ones with their overrides, then the custom ones over their defaults,
 * both by the settings merge rule (@warden/settings). A standard gate keeps its condition. Throws
 * ConditionError on bad settings.
 */
export function resolveGates(settings: GateSettings = {}): HumanGate[] {
  const overrides = settings.standard_gates ?? {};
  if (typeof overrides !== 'object' || Array.isArray(overrides)) throw new ConditionError('standard_gates must be a map from gate id to overrides');
  for (const id of Object.keys(overrides)) {
    if (!STANDARD_GATES.some((g) => g.id === id)) throw new ConditionError(`standard_gates.${id}: no such standard gate (${STANDARD_GATES.map((g) => g.id).join(', ')})`);
  }
  const gates: HumanGate[] = [];
  for (const standard of STANDARD_GATES) {
    const override = (overrides[standard.id] ?? {}) as Record<string, unknown>;
    if (override.enabled === false) continue;
    const { enabled: _enabled, ...rest } = override;
    gates.push(checkedGate({ ...mergeSettings<Record<string, unknown>>({ ...standard }, rest), when: standard.when }, `standard_gates.${standard.id}`, standard.condition));
  }
  const custom = settings.gates ?? [];
  if (!Array.isArray(custom)) throw new ConditionError('gates must be a list');
  for (const [i, raw] of custom.entries()) {
    if (!raw || typeof raw !== 'object') throw new ConditionError(`gates[${i}] must be an object`);
    const gate = raw as Record<string, unknown>;
    const id = String(gate.id ?? '');
    if (gates.some((g) => g.id === id)) throw new ConditionError(`gates[${i}]: gate id ${id} is used twice`);
    gates.push(checkedGate(mergeSettings<Record<string, unknown>>(CUSTOM_GATE_DEFAULTS, gate), `gates[${i}]`));
  }
  return gates;
}

function checkedGate(raw: Record<string, unknown>, where: string, condition?: CompiledCondition): HumanGate {
  if (raw.on_timeout !== undefined) {
    throw new ConditionError(`${where}.on_timeout is not a setting: a request nobody answers is denied at its final deadline (timeout_ms); nothing is approved by silence`);
  }
  const known = ['id', 'phase', 'when', 'condition', 'prompt', 'summary', 'timeout_ms', 'escalation', 'once_per'];
  const unknown = Object.keys(raw).filter((k) => !known.includes(k));
  if (unknown.length) throw new ConditionError(`${where}: unknown setting ${unknown.join(', ')}`);
  if (typeof raw.id !== 'string' || !GATE_ID.test(raw.id)) throw new ConditionError(`${where}.id must be lower_snake_case (letters, digits, _)`);
  if (raw.phase !== '*' && !(PHASES as readonly unknown[]).includes(raw.phase)) throw new ConditionError(`${where}.phase must be * or one of ${PHASES.join(', ')}`);
  if (typeof raw.prompt !== 'string' || !raw.prompt.trim() || raw.prompt.length > 4000) throw new ConditionError(`${where}.prompt must be a text of up to 4000 characters`);
  if (raw.summary !== undefined && (typeof raw.summary !== 'string' || raw.summary.length > 4000)) throw new ConditionError(`${where}.summary must be a text`);
  if (typeof raw.timeout_ms !== 'number' || !Number.isInteger(raw.timeout_ms) || raw.timeout_ms < 1 || raw.timeout_ms > MAX_GATE_TIMEOUT_MS) {
    throw new ConditionError(`${where}.timeout_ms must be a whole number of milliseconds between 1 and ${MAX_GATE_TIMEOUT_MS}`);
  }
  if (typeof raw.escalation !== 'string' || !raw.escalation.trim() || raw.escalation.length > 256) throw new ConditionError(`${where}.escalation must be a name`);
  if (!['action', 'phase', 'session'].includes(raw.once_per as string)) throw new ConditionError(`${where}.once_per must be action, phase or session`);
  return {
    id: raw.id,
    phase: raw.phase as Phase | '*',
    when: raw.when,
    condition: condition ?? compileCondition(raw.when, `${where}.when`),
    prompt: raw.prompt,
    ...(raw.summary !== undefined ? { summary: raw.summary as string } : {}),
    timeout_ms: raw.timeout_ms,
    escalation: raw.escalation,
    once_per: raw.once_per as HumanGate['once_per'],
  };
}
