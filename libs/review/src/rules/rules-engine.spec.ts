import type { VerdictKind } from '@warden/contracts';
import { parseAction } from '../parsing/parsed-action.js';
import { ReviewSession } from '../session/review-session.js';
import { BUILT_IN_RULES } from './built-in-rules.js';
import { compileCustomRule } from './custom-rules.js';
import type { ReviewRule, RuleContext, RuleFinding } from './review-rule.js';
import { severityOf } from './rule-severity.js';
import { DuplicateRuleError, RulesEngine } from './rules-engine.js';

function bash(command: string): RuleContext {
  const action = parseAction({ kind: 'tool_use', tool: 'Bash', input: { command } }, '/work/app');
  return { action, session: new ReviewSession('agent-1', 's1', Date.now()), limits: { maxFileOperations: 500 }, inScope: (p) => p.startsWith('/work/app') };
}

type CountingRule = ReviewRule & { calls: number };

function fixed(name: string, verdict: VerdictKind | null, score = 0.5, reads: 'action' | 'session' = 'action'): CountingRule {
  const rule: CountingRule = {
    name,
    description: name,
    reads,
    calls: 0,
    evaluate(): RuleFinding | null {
      rule.calls++;
      return verdict ? { rule: name, verdict, score, severity: severityOf(score), factors: [], reason: name } : null;
    },
  };
  return rule;
}

describe('RulesEngine', () => {
  it('orders findings block > require_approval > modify > warn > allow, then by score', () => {
    const engine = new RulesEngine([
      fixed('a_warn', 'warn', 0.9),
      fixed('an_allow', 'allow', 0.1),
      fixed('a_modify', 'modify', 0.7),
      fixed('a_weak_block', 'block', 0.8),
      fixed('an_approval', 'require_approval', 0.8),
      fixed('a_strong_block', 'block', 1),
      fixed('nothing', null),
    ]);
    expect(engine.evaluate(bash('ls')).findings.map((f) => f.rule)).toEqual(['a_strong_block', 'a_weak_block', 'an_approval', 'a_modify', 'a_warn', 'an_allow']);
  });

  it('reports a rule that throws and still runs the others', () => {
    const broken: ReviewRule = {
      name: 'broken',
      description: 'throws',
      reads: 'action',
      evaluate: () => {
        throw new TypeError('kaput');
      },
    };
    const evaluation = new RulesEngine([broken, fixed('after', 'warn')]).evaluate(bash('ls'));
    expect(evaluation.errors).toEqual([{ rule: 'broken', message: 'Rule broken failed: kaput' }]);
    expect(evaluation.findings.map((f) => f.rule)).toEqual(['after']);
  });

  it('does not evaluate disabled rules', () => {
    const off = fixed('off', 'block');
    const engine = new RulesEngine([off, fixed('on', 'warn')], { disabled: ['off', 'some_validator'] });
    expect(engine.evaluate(bash('ls')).findings.map((f) => f.rule)).toEqual(['on']);
    expect(off.calls).toBe(0);
    expect(engine.names).toEqual(['on']);
  });

  it('evaluates shadow rules and reports them apart, never enforced', () => {
    const engine = new RulesEngine([fixed('watched', 'block', 1), fixed('watched_too', 'warn'), fixed('enforced', 'warn')], { shadow: ['watched', 'watched_too'] });
    const evaluation = engine.evaluate(bash('ls'));
    expect(evaluation.findings.map((f) => f.rule)).toEqual(['enforced']);
    expect(evaluation.shadow.map((f) => f.rule)).toEqual(['watched', 'watched_too']);
    expect(engine.names).toEqual(['enforced', 'watched', 'watched_too']);
  });

  it('evaluates only the rules that read the action, or the session', () => {
    const engine = new RulesEngine([fixed('on_action', 'warn'), fixed('on_session', 'warn', 0.5, 'session'), fixed('shadow_session', 'warn', 0.5, 'session')], {
      shadow: ['shadow_session'],
    });
    expect(engine.evaluate(bash('ls'), 'action')).toMatchObject({ findings: [{ rule: 'on_action' }], shadow: [] });
    expect(engine.evaluate(bash('ls'), 'session')).toMatchObject({ findings: [{ rule: 'on_session' }], shadow: [{ rule: 'shadow_session' }] });
    expect(engine.evaluate(bash('ls')).findings).toHaveLength(2);
  });

  it('refuses two rules of the same name', () => {
    expect(() => new RulesEngine([fixed('twice', 'warn'), fixed('twice', 'block')])).toThrow(DuplicateRuleError);
    const custom = compileCustomRule({ name: 'fork_bomb', match: { tool: 'Bash' }, verdict: 'warn', reason: 'r' }, 'rules.yaml');
    expect(() => new RulesEngine(RulesEngine.select('all', [custom]))).toThrow('Rule "fork_bomb" is defined twice');
  });

  it('selects all built-in rules, the essential ones, or none, then the custom ones', () => {
    const custom = fixed('team_rule', 'warn');
    expect(RulesEngine.select('all', [custom])).toEqual([...BUILT_IN_RULES, custom]);
    const essential = RulesEngine.select('essential', [custom]);
    expect(essential.slice(0, -1).every((r) => r.essential)).toBe(true);
    expect(essential).toHaveLength(BUILT_IN_RULES.filter((r) => r.essential).length + 1);
    expect(RulesEngine.select('none', [custom])).toEqual([custom]);
  });

  it('runs built-in and custom rules together', () => {
    const custom = compileCustomRule({ name: 'no_terraform_apply', match: { command: 'terraform apply*' }, verdict: 'require_approval', reason: 'Ask first.' }, 'rules.yaml');
    const engine = new RulesEngine(RulesEngine.select('all', [custom]));
    expect(engine.evaluate(bash('terraform apply && rm -rf ~')).findings.map((f) => [f.rule, f.verdict])).toEqual([
      ['destructive_root_deletion', 'block'],
      ['deletion_outside_project', 'block'],
      ['no_terraform_apply', 'require_approval'],
    ]);
  });
});
