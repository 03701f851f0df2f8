import { readFileSync } from 'node:fs';
import { parse as parseYaml } from 'yaml';
import { PatternSettingsError, resolvePatternSettings } from './detector-settings-file.js';
import { DEFAULT_PATTERN_SETTINGS } from './detector-settings.js';

describe('pattern detector settings', () => {
  it('defaults to the documented values, and deploy/pattern-detector/patterns.yaml repeats every one of them', () => {
    expect(resolvePatternSettings()).toEqual(DEFAULT_PATTERN_SETTINGS);
    const file = parseYaml(readFileSync(new URL('../../../deploy/pattern-detector/patterns.yaml', import.meta.url), 'utf8'));
    expect(resolvePatternSettings(file)).toEqual(DEFAULT_PATTERN_SETTINGS);
    expect(Object.keys(file.patterns).sort()).toEqual(Object.keys(DEFAULT_PATTERN_SETTINGS).sort());
  });

  it('overrides parts and keeps the rest', () => {
    const settings = resolvePatternSettings({ patterns: { polling_loop: { mode: 'shadow', severity: { medium: 20 } }, resource_spiral: { pricing: { 'my-model': { input: 0.001, output: 0.002 } } } } });
    expect(settings.polling_loop).toMatchObject({ mode: 'shadow', enabled: true, severity: { medium: 20, high: 25 } });
    expect(settings.resource_spiral.pricing['my-model']).toEqual({ input: 0.001, output: 0.002 });
    expect(Object.keys(settings.resource_spiral.pricing)).toEqual(['my-model']);
  });

  it.each([
    [{ polling_loop: { severty: { medium: 3 } } }, 'polling_loop.severty is not a pattern detector setting'],
    [{ window: { max_actions: 'many' } }, 'window.max_actions must be a number >= 0'],
    [{ stagnation: { mode: 'loud' } }, 'stagnation.mode must be enforce or shadow'],
    [{ goal_drift: { severity: { urgent: 3 } } }, 'goal_drift.severity.urgent: severities are low, medium, high, critical'],
    [{ window: { max_actions: 0 } }, 'window.max_actions must be a whole number >= 1'],
    [{ stagnation: { severity: { high: 2.5 } } }, 'stagnation.severity.high must be a whole number >= 1'],
    [{ polling_loop: { severity: { high: 5 } } }, 'polling_loop.severity must not fall from low to critical (high is 5)'],
    [{ episode: { escalation_growth: 1 } }, 'episode.escalation_growth must be greater than 1'],
    [{ resource_spiral: { pricing: { x: { input: 1 } } } }, 'resource_spiral.pricing.x must be { input, output, cache_read?, cache_write? }'],
  ])('refuses %j', (document, message) => {
    expect(() => resolvePatternSettings(document)).toThrow(PatternSettingsError);
    expect(() => resolvePatternSettings(document)).toThrow(message);
  });
});
