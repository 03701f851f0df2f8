import { readFileSync } from 'node:fs';
import { parse as parseYaml } from 'yaml';
import { BreakerSettingsError, resolveBreakerSettings } from './breaker-settings-file.js';
import { DEFAULT_BREAKER_SETTINGS } from './breaker-settings.js';

describe('resolveBreakerSettings', () => {
  it('is the documented defaults without a document', () => {
    expect(resolveBreakerSettings()).toEqual(DEFAULT_BREAKER_SETTINGS);
  });

  it('overrides any part, under `breakers:` or at the top, and adds models to the seed\'s pricing', () => {
    const settings = resolveBreakerSettings({
      breakers: {
        iteration: { limits: { implementation: 100 } },
        cost: { budgets: { per_day: 500 }, pricing: { 'local-llama': { input: 0, output: 0 } } },
        error_rate: { mode: 'metrics_only' },
      },
    });
    expect(settings.iteration.limits).toEqual({ ...DEFAULT_BREAKER_SETTINGS.iteration.limits, implementation: 100 });
    expect(settings.cost.budgets.per_day).toBe(500);
    expect(settings.cost.budgets.per_run).toBe(50);
    expect(Object.keys(settings.cost.pricing)).toEqual([...Object.keys(DEFAULT_BREAKER_SETTINGS.cost.pricing), 'local-llama']);
    expect(settings.error_rate.mode).toBe('metrics_only');
    expect(resolveBreakerSettings({ time: { timeouts: { total: 1000 } } }).time.timeouts.total).toBe(1000);
  });

  it('is what deploy/breaker/breakers.yaml documents', () => {
    const file = new URL('../../../deploy/breaker/breakers.yaml', import.meta.url);
    expect(resolveBreakerSettings(parseYaml(readFileSync(file, 'utf8')))).toEqual(DEFAULT_BREAKER_SETTINGS);
  });

  it('names the setting that is wrong', () => {
    expect(() => resolveBreakerSettings({ cost: { budgets: { per_runn: 5 } } })).toThrow(BreakerSettingsError);
    expect(() => resolveBreakerSettings({ cost: { budgets: { per_runn: 5 } } })).toThrow(/\/cost\/budgets/);
    expect(() => resolveBreakerSettings({ iteration: { limits: { testing: 0 } } })).toThrow(/\/iteration\/limits\/testing/);
    expect(() => resolveBreakerSettings({ error_rate: { mode: 'sometimes' } })).toThrow(/\/error_rate\/mode/);
    expect(() => resolveBreakerSettings({ error_rate: { thresholds: { warning: 0.5, critical: 0.2 } } })).toThrow(/warning must not exceed/);
    expect(() => resolveBreakerSettings({ time: { max_reset_after_ms: 10 } })).toThrow(/max_reset_after_ms/);
    expect(() => resolveBreakerSettings(['not', 'a', 'mapping'])).toThrow(/must be a mapping/);
  });
});
