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
