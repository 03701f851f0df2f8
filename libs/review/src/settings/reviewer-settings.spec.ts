import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parse as parseYaml } from 'yaml';
import { BUILT_IN_RULES } from '../rules/built-in-rules.js';
import { packSwitches, RULE_PACKS } from '../rules/rule-packs.js';
import { DEFAULT_REVIEWER_SETTINGS, resolveSettings, settingsFor, SettingsError } from './reviewer-settings.js';

describe('reviewer settings', () => {
  it('are the documented defaults when nothing is configured', () => {
    expect(resolveSettings()).toEqual(DEFAULT_REVIEWER_SETTINGS);
    expect(resolveSettings().risk).toEqual({ low_threshold: 0.3, medium_threshold: 0.6, high_threshold: 0.8, critical_threshold: 0.95 });
  });

  it("accept the seed's document layout under step_reviewer and merge it over the defaults", () => {
    const settings = resolveSettings({ step_reviewer: { mode: 'async', risk: { high_threshold: 0.7 }, cache: { max_size: 50 } } });
    expect(settings.mode).toBe('async');
    expect(settings.risk).toEqual({ low_threshold: 0.3, medium_threshold: 0.6, high_threshold: 0.7, critical_threshold: 0.95 });
    expect(settings.cache).toEqual({ enabled: true, ttl_minutes: 5, max_size: 50 });
  });

  it('name the setting that is wrong, and refuse unknown keys', () => {
    expect(() => resolveSettings({ mode: 'sometimes' })).toThrow(SettingsError);
    expect(() => resolveSettings({ mode: 'sometimes' })).toThrow('/mode');
    expect(() => resolveSettings({ cahce: { enabled: false } })).toThrow('invalid reviewer configuration');
    expect(() => resolveSettings({ risk: { low_threshold: 0.9 } })).toThrow('risk thresholds must rise');
    expect(() => resolveSettings({ pipelines: { ci: { risk: { critical_threshold: 0.1 } } } })).toThrow('pipelines.ci.risk thresholds must rise');
  });

  it('refuse two custom rules with the same name', () => {
    const rule = { name: 'no_tf', match: { command: 'terraform apply*' }, verdict: 'block', reason: 'no' };
    expect(() => resolveSettings({ rules: { custom: [rule, rule] } })).toThrow('custom rule "no_tf" is defined twice');
  });

  it('apply a pipeline over the base, adding its rule lists to the base ones', () => {
    const base = resolveSettings({ rules: { disabled: ['force_push'] } });
    const ci = settingsFor(base, { agents: ['ci-*'], risk: { high_threshold: 0.7 }, rules: { disabled: ['limit_file_operations'] }, mode: 'async' });
    expect(ci.risk.high_threshold).toBe(0.7);
    expect(ci.mode).toBe('async');
    expect(ci.rules.disabled).toEqual(['force_push', 'limit_file_operations']);
    expect(base.rules.disabled).toEqual(['force_push']);
  });
});

describe('deploy/reviewer/reviewer.yaml', () => {
  it('documents every setting with its default (the rules file, knowledge file and pipelines are examples)', () => {
    const path = fileURLToPath(new URL('../../../../deploy/reviewer/reviewer.yaml', import.meta.url));
    const document = parseYaml(readFileSync(path, 'utf8')) as { step_reviewer: Record<string, unknown> };
    const settings = resolveSettings(document);
    expect(settings.rules.custom_rules_path).toBe('rules.yaml');
    expect(settings.knowledge.files).toEqual(['knowledge.toml']);
    expect(Object.keys(settings.pipelines)).toEqual(['ci', 'production']);
    const examples = { rules: { ...settings.rules, custom_rules_path: null }, knowledge: { files: [] }, pipelines: {} };
    expect({ ...settings, ...examples }).toEqual(DEFAULT_REVIEWER_SETTINGS);
    // Written out, not left to the defaults: every key of every section.
    const written = document.step_reviewer;
    for (const [section, value] of Object.entries(DEFAULT_REVIEWER_SETTINGS)) {
      expect(written).toHaveProperty([section]);
      if (value && typeof value === 'object' && !Array.isArray(value)) for (const key of Object.keys(value)) expect(written[section]).toHaveProperty([key]);
    }
  });
});

describe('rule packs', () => {
  it('hold every built-in rule exactly once, and a pack switched off or to shadow takes its rules along', () => {
    const packed = RULE_PACKS.flatMap((p) => p.rules);
    expect([...packed].sort()).toEqual(BUILT_IN_RULES.map((r) => r.name).sort());
    expect(new Set(packed).size).toBe(packed.length);
    const switches = packSwitches(resolveSettings({ rules: { packs: { git: { enabled: false }, cloud: { shadow: true } } } }).rules.packs);
    expect(switches).toEqual({ disabled: ['history_destruction', 'force_push', 'hook_bypass', 'secret_commit', 'secret_push'], shadow: ['cloud_destruction'] });
    expect(() => resolveSettings({ rules: { packs: { gti: { enabled: false } } } })).toThrow(SettingsError);
  });
});
