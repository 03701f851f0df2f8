import { parseAction } from '../parsing/parsed-action.js';
import { DecisionEngine } from './decision-engine.js';

const engine = new DecisionEngine({
  risk: { low_threshold: 0.3, medium_threshold: 0.6, high_threshold: 0.8, critical_threshold: 0.95 },
  rationality: { high_threshold: 0.8, medium_threshold: 0.5 },
});

describe('DecisionEngine (seed 001)', () => {
  it('blocks high risk low rationality actions', () => {
    const decision = engine.decide({ risk: { score: 0.9 }, rationality: { score: 0.2 }, sideEffects: { severity: 'high' } });
    expect(decision.verdict).toBe('block');
    expect(decision.reasoning.primary_reason).toMatch(/^High risk/);
  });

  it.each([
    [0.1, 0.9, 'allow'],
    [0.1, 0.6, 'allow'],
    [0.1, 0.2, 'warn'],
    [0.4, 0.9, 'allow'],
    [0.4, 0.6, 'warn'],
    [0.7, 0.9, 'warn'],
    [0.9, 0.2, 'block'],
    [0.97, 0.9, 'block'],
  ])('follows the matrix: risk %d, rationality %d → %s', (risk, rationality, verdict) => {
    expect(engine.decide({ risk: { score: risk }, rationality: { score: rationality }, sideEffects: { severity: null } }).verdict).toBe(verdict);
  });

  it('always blocks critical side effects', () => {
    expect(engine.decide({ risk: { score: 0.1 }, rationality: { score: 1 }, sideEffects: { severity: 'critical' } }).verdict).toBe('block');
  });

  it('lets a first-time action through where the matrix would only warn', () => {
    const decision = engine.decide({ risk: { score: 0.7 }, rationality: { score: 0.9 }, sideEffects: { severity: 'medium' }, firstTime: true });
    expect(decision.matrix).toMatchObject({ base: 'warn', adjusted: 'allow' });
    expect(decision.verdict).toBe('allow');
  });

  it('escalates a warn to modify under a dangerous pattern, and rewrites the action when it can', () => {
    const action = parseAction({ kind: 'tool_use', tool: 'Bash', input: { command: 'sudo npm install' } });
    const decision = engine.decide({ action, risk: { score: 0.7 }, rationality: { score: 0.9 }, sideEffects: { severity: 'medium' }, dangerousPattern: true });
    expect(decision.verdict).toBe('modify');
    expect(decision.modifiedInput).toEqual({ command: 'npm install' });
  });

  it('without a rewrite, warns and names the concern: holding for a person is for the rules, which name what is at stake', () => {
    const high = engine.decide({ risk: { score: 0.85, factors: ['file_deletion', 'system_command'] }, rationality: { score: 0.6, issues: ['repeats_previous'] }, sideEffects: { severity: 'high' } });
    expect(high.verdict).toBe('warn');
    expect(high.reasoning.all_reasons.at(-1)).toBe('Warden has no safer form of this action to offer (risk 0.85 from file deletion, system command; rationality issues: repeats previous): go ahead only if that is what the task needs.');
    const medium = engine.decide({ risk: { score: 0.4 }, rationality: { score: 0.3 }, sideEffects: { severity: 'low' } });
    expect(medium.verdict).toBe('warn');
    expect(medium.reasoning.all_reasons.join(' ')).not.toMatch(/should be reconsidered/);
  });

  it('lets the strongest of matrix, rules, validators, breaker and ladder win, and says who decided', () => {
    const base = { risk: { score: 0.1 }, rationality: { score: 1 }, sideEffects: { severity: null } } as const;
    const finding = { rule: 'force_push', verdict: 'warn' as const, score: 0.7, severity: 'high' as const, factors: [], reason: 'force push' };
    expect(engine.decide({ ...base, findings: [finding] })).toMatchObject({ verdict: 'warn', source: 'rule' });
    expect(engine.decide({ ...base, findings: [finding], openBreakers: [{ breaker: 'cost', reason: 'budget spent' }] })).toMatchObject({
      verdict: 'block',
      source: 'breaker',
      reasoning: { primary_reason: 'The cost breaker of this session is open: budget spent. Stop and wait for it to close or for an operator to reset it.' },
    });
    expect(
      engine.decide({ ...base, openBreakers: [{ breaker: 'cost', reason: 'RUN_BUDGET_EXCEEDED', suggestion: 'Run exceeded $50.00 total budget.' }] }).reasoning
        .primary_reason,
    ).toBe('The cost breaker of this session is open: RUN_BUDGET_EXCEEDED. Run exceeded $50.00 total budget.');
    expect(engine.decide({ ...base, ladder: { level: 1, levelName: 'AI Suggests', action: 'auto_fix', allowed: false } })).toMatchObject({ verdict: 'require_approval', source: 'ladder' });
    const prerequisites = {
      validator: 'installation_prevention',
      shadow: false,
      alternatives: ['Check connection configuration'],
      result: { kind: 'require_prerequisites' as const, reason: 'Install after a connection failure.', checks: [{ description: 'Test the endpoint', method: { type: 'endpoint_test' as const, url: 'http://x' }, success_criteria: 'it answers', priority: 9 }] },
    };
    const decision = engine.decide({ ...base, validations: [prerequisites] });
    expect(decision).toMatchObject({ verdict: 'block', source: 'validator' });
    expect(decision.alternatives).toContain('First: Test the endpoint (it answers).');
    expect(engine.decide({ ...base, validations: [{ ...prerequisites, shadow: true }] }).verdict).toBe('allow');
  });
});
