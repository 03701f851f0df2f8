import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { VerdictKind } from '@warden/contracts';
import { parseAction } from '../parsing/parsed-action.js';
import { ReviewSession } from '../session/review-session.js';
import { BUILT_IN_RULES } from './built-in-rules.js';
import type { CustomRuleDefinition } from './custom-rule-definition.js';
import { compileCustomRule } from './custom-rules.js';
import type { ReviewRule, RuleContext, RuleFinding, RuleNeeds } from './review-rule.js';
import { severityOf } from './rule-severity.js';
import { byStrength, DuplicateRuleError, RulesEngine } from './rules-engine.js';

function bash(command: string): RuleContext {
  const action = parseAction({ kind: 'tool_use', tool: 'Bash', input: { command } }, '/work/app');
  return { action, session: new ReviewSession('agent-1', 's1', Date.now()), limits: { maxFileOperations: 500 }, inScope: (p) => p.startsWith('/work/app') };
}

type CountingRule = ReviewRule & { calls: number };

function fixed(name: string, verdict: VerdictKind | null, score = 0.5, reads: 'action' | 'session' = 'action', needs?: RuleNeeds): CountingRule {
  const rule: CountingRule = {
    name,
    description: name,
    reads,
    ...(needs ? { needs } : {}),
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

  it('runs a rule that needs a program or an origin only for an action that has one, in its place among the others', () => {
    const terraform = fixed('needs_terraform', 'warn', 0.5, 'action', { programs: ['terraform', 'tofu'] });
    const api = fixed('needs_api', 'warn', 0.5, 'action', { origins: ['https://api.example.com'] });
    const before = fixed('before', 'warn', 0.5);
    const after = fixed('after', 'warn', 0.5);
    const engine = new RulesEngine([before, terraform, api, after]);
    const names = (command: string) => engine.evaluate(bash(command)).findings.map((f) => f.rule);
    expect(names('ls && git status')).toEqual(['before', 'after']);
    expect([terraform.calls, api.calls]).toEqual([0, 0]);
    // Equal verdicts and scores keep the rules' order: the index changes which rules run, not the order.
    expect(names('cd infra && tofu plan')).toEqual(['before', 'needs_terraform', 'after']);
    expect(names('curl -s HTTPS://API.example.com/v1/items && terraform apply')).toEqual(['before', 'needs_terraform', 'needs_api', 'after']);
    expect(names('curl https://api.example.com.evil.io/x')).toEqual(['before', 'after']);
    expect([terraform.calls, api.calls]).toEqual([2, 1]);
  });

  it('finds with its index exactly what every rule run one by one finds, on the project\'s labelled commands', () => {
    // Rules of the shapes teams write, naming programs and hosts the commands below use and others they do not.
    const definitions: CustomRuleDefinition[] = [
      ...['git push*', 'rm -rf *', 'npm install*', 'docker run *', 'kubectl delete *', 'curl *', 'teamctl deploy*', 'aws s3 *'].map((command, i) => ({ name: `command_${i}`, match: { command }, verdict: 'warn' as const, reason: command })),
      ...['https://github.com/**', 'http://localhost:9200/**', 'https://api.example.com/v1*', 'HTTPS://Registry.npmjs.org/**', 'https://svc-7.internal.example.com/**'].map((url, i) => ({ name: `url_${i}`, match: { url }, verdict: 'require_approval' as const, reason: url })),
      { name: 'both', match: { command: 'git push*', url: 'https://github.com/**' }, verdict: 'block', reason: 'both' },
      { name: 'unindexed', match: { command: '*deploy*' }, verdict: 'warn', reason: 'unindexed' },
    ];
    const rules = [...BUILT_IN_RULES, ...definitions.map((d) => compileCustomRule(d, 'rules.yaml'))];
    expect(rules.filter((r) => r.needs).length).toBe(definitions.length - 1);
    const engine = new RulesEngine(rules);
    const directory = fileURLToPath(new URL('../../corpus/', import.meta.url));
    const commands = readdirSync(directory)
      .filter((f) => f.endsWith('.jsonl'))
      .flatMap((f) => readFileSync(`${directory}${f}`, 'utf8').split('\n').filter(Boolean))
      .map((line) => (JSON.parse(line) as { input: { command?: string } }).input.command)
      .filter((c): c is string => typeof c === 'string');
    expect(commands.length).toBeGreaterThan(600);
    let indexedHits = 0;
    for (const command of commands) {
      const direct = rules.flatMap((rule) => rule.evaluate(bash(command)) ?? []).sort(byStrength);
      const found = engine.evaluate(bash(command)).findings;
      expect({ command, findings: found.map((f) => f.rule) }).toEqual({ command, findings: direct.map((f) => f.rule) });
      indexedHits += found.filter((f) => /^(?:command|url)_|^both$/.test(f.rule)).length;
    }
    // The indexed rules do fire on these commands: the comparison covers them.
    expect(indexedHits).toBeGreaterThan(20);
  });
});
