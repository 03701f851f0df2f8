import { createMessage, EXAMPLE_PAYLOADS, type PayloadOf } from '@warden/contracts';
import { ConditionError } from './gate-conditions.js';
import { DEFAULT_GATE_TIMEOUT_MS, gateContext, resolveGates, STANDARD_GATES, summaryOf, triggeredGates } from './human-gates.js';

const verdict = (payload: Partial<PayloadOf<'review.verdict'>>) =>
  createMessage('review.verdict', {
    session_id: 's1',
    agent_id: 'a1',
    payload: {
      ...EXAMPLE_PAYLOADS['review.verdict'],
      verdict: 'allow',
      reasons: ['ok'],
      risk: { score: 0.2, severity: 'low', factors: ['command'] },
      side_effects: undefined,
      rule_hits: [],
      action: { kind: 'tool_use', tool: 'Bash', input: { command: 'kubectl apply -f deploy/' } },
      ...payload,
    } as PayloadOf<'review.verdict'>,
  });

const ids = (gates: readonly { id: string }[]) => gates.map((g) => g.id);

describe('standard gates (seed 002 §6.1)', () => {
  const gates = resolveGates();

  it('are the four of the seed, with their final deadlines and escalation targets', () => {
    expect(ids(STANDARD_GATES)).toEqual(['architecture_approval', 'production_deploy', 'security_findings', 'cost_overrun']);
    expect(gates.map((g) => [g.id, g.timeout_ms, g.escalation])).toEqual([
      ['architecture_approval', 86_400_000, 'architect'],
      ['production_deploy', 3_600_000, 'deployment_lead'],
      ['security_findings', 43_200_000, 'security_team'],
      ['cost_overrun', 7_200_000, 'budget_owner'],
    ]);
  });

  it('production deploy: in the deployment phase of a production session only', () => {
    const v = verdict({});
    expect(ids(triggeredGates(gates, gateContext(v, { phase: 'deployment', environment: 'production' })))).toEqual(['production_deploy']);
    expect(ids(triggeredGates(gates, gateContext(v, { phase: 'deployment', environment: 'staging' })))).toEqual([]);
    expect(ids(triggeredGates(gates, gateContext(v, { phase: 'implementation', environment: 'production' })))).toEqual([]);
  });

  it('architecture approval: a high or critical risk while planning', () => {
    const high = verdict({ risk: { score: 0.8, severity: 'high', factors: ['schema_change'] } });
    expect(ids(triggeredGates(gates, gateContext(high, { phase: 'planning' })))).toEqual(['architecture_approval']);
    expect(ids(triggeredGates(gates, gateContext(high, { phase: 'testing' })))).toEqual([]);
    expect(ids(triggeredGates(gates, gateContext(verdict({}), { phase: 'planning' })))).toEqual([]);
  });

  it('security findings: a critical finding about secrets, credentials or privileges, in any phase', () => {
    const secret = verdict({
      side_effects: { effects: [{ type: 'secret_exfiltration', target: 'https://x', reversible: false, severity: 'critical' }], reversible: false },
    });
    const context = gateContext(secret, {});
    expect(context.review.critical_security_findings).toBe(1);
    expect(ids(triggeredGates(gates, context))).toEqual(['security_findings']);
    const deletion = verdict({ side_effects: { effects: [{ type: 'file_deletion', target: '/', reversible: false, severity: 'critical' }], reversible: false } });
    expect(ids(triggeredGates(gates, gateContext(deletion, {})))).toEqual([]);
  });

  it('cost overrun: over $40 of the run, once per session', () => {
    const context = gateContext(verdict({}), {}, { run_usd: 41 });
    expect(ids(triggeredGates(gates, context))).toEqual(['cost_overrun']);
    expect(ids(triggeredGates(gates, context, ['cost_overrun']))).toEqual([]);
    expect(summaryOf(gates.find((g) => g.id === 'cost_overrun')!, context)).toBe('Cost approaching budget: $41');
  });

  it('once per phase: an approval in a phase stops asking in that phase only', () => {
    const context = gateContext(verdict({}), { phase: 'deployment', environment: 'production' });
    expect(ids(triggeredGates(gates, context, ['production_deploy@deployment']))).toEqual([]);
    expect(ids(triggeredGates(gates, context, ['production_deploy@testing']))).toEqual(['production_deploy']);
  });
});

describe('configured gates', () => {
  it('overrides and disables standard gates and adds custom ones with declarative conditions', () => {
    const gates = resolveGates({
      standard_gates: { production_deploy: { timeout_ms: 60_000, escalation: 'release_manager' }, cost_overrun: { enabled: false } },
      gates: [{ id: 'migrations', prompt: 'Migrations need a DBA.', when: { path: 'action.input.command', matches: 'migrate' } }],
    });
    expect(ids(gates)).toEqual(['architecture_approval', 'production_deploy', 'security_findings', 'migrations']);
    expect(gates[1]).toMatchObject({ timeout_ms: 60_000, escalation: 'release_manager' });
    // A custom gate without a deadline gets the default one.
    expect(gates[3]).toMatchObject({ phase: '*', once_per: 'action', escalation: 'operators', timeout_ms: DEFAULT_GATE_TIMEOUT_MS });
    expect(DEFAULT_GATE_TIMEOUT_MS).toBe(3_600_000);
    const context = gateContext(verdict({ action: { kind: 'tool_use', tool: 'Bash', input: { command: 'rails db:migrate' } } }), {});
    expect(ids(triggeredGates(gates, context))).toEqual(['migrations']);
  });

  it.each([
    [{ standard_gates: { nightly_gate: {} } }, /no such standard gate/],
    [{ gates: [{ id: 'Bad Id', prompt: 'x', when: { path: 'a', exists: true }, timeout_ms: 1 }] }, /lower_snake_case/],
    [{ gates: [{ id: 'g', prompt: 'x', when: { path: 'a', exists: true }, timeout_ms: 0 }] }, /timeout_ms/],
    // Silence approves nothing: there is no on-timeout policy to set, not even deny.
    [{ gates: [{ id: 'g', prompt: 'x', when: { path: 'a', exists: true }, timeout_ms: 10, on_timeout: 'approve' }] }, /on_timeout is not a setting: .*nothing is approved by silence/],
    [{ gates: [{ id: 'g', prompt: 'x', when: { path: 'a', exists: true }, on_timeout: 'deny' }] }, /on_timeout is not a setting/],
    [{ standard_gates: { production_deploy: { on_timeout: 'approve' } } }, /standard_gates.production_deploy.on_timeout is not a setting/],
    [{ gates: [{ id: 'g', prompt: 'x', when: { path: 'a', exists: true }, timeout_ms: 10, phase: 'shipping' }] }, /phase/],
    [{ gates: [{ id: 'g', prompt: 'x', when: 'a == 1', timeout_ms: 10 }] }, /when must be an object/],
    [{ gates: [{ id: 'g', prompt: 'x', when: { path: 'a', exists: true }, timeout_ms: 10, code: 'rm' }] }, /unknown setting code/],
    [{ gates: [{ id: 'production_deploy', prompt: 'x', when: { path: 'a', exists: true }, timeout_ms: 10 }] }, /used twice/],
  ])('refuses %j', (settings, message) => {
    expect(() => resolveGates(settings as never)).toThrow(ConditionError);
    expect(() => resolveGates(settings as never)).toThrow(message);
  });
});
