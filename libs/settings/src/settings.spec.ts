import { mergeSettings, parseSettingsText, SettingsFileError, settingsSection } from './settings.js';

describe('settings', () => {
  const defaults = { mode: 'enforce', limits: { max: 10, min: 1, nested: { a: 1, b: 2 } }, tools: ['Bash', 'Edit'], pricing: { small: { input: 1 } } };

  it('merges a file over the defaults: mappings key by key, lists and values whole, left-out keys kept', () => {
    const merged = mergeSettings(defaults, { limits: { max: 20, nested: { b: 3 } }, tools: ['Read'], pricing: { large: { input: 5 } } });
    expect(merged).toEqual({ mode: 'enforce', limits: { max: 20, min: 1, nested: { a: 1, b: 3 } }, tools: ['Read'], pricing: { small: { input: 1 }, large: { input: 5 } } });
    expect(defaults.limits.max).toBe(10);
    expect(mergeSettings(defaults, undefined)).toBe(defaults);
    expect(mergeSettings(defaults, { mode: undefined }).mode).toBe('enforce');
    // A value of the wrong kind replaces the default; the service's schema check then names it.
    expect(mergeSettings(defaults, { limits: 3 })).toMatchObject({ limits: 3 });
    expect(mergeSettings(defaults, { tools: { a: 1 } })).toMatchObject({ tools: { a: 1 } });
  });

  it("takes the service's section of a document, or the whole document", () => {
    expect(settingsSection({ breakers: { cost: 1 }, other: 2 }, 'breakers')).toEqual({ cost: 1 });
    expect(settingsSection({ cost: 1 }, 'breakers')).toEqual({ cost: 1 });
    expect(settingsSection({ breakers: 'x' }, 'breakers')).toEqual({ breakers: 'x' });
    expect(settingsSection(null, 'breakers')).toEqual({});
    expect(settingsSection(undefined, 'breakers')).toEqual({});
    expect(settingsSection([1], 'breakers')).toEqual([1]);
  });

  it('parses JSON by the name, YAML otherwise, an empty file as {}, and names the file it cannot parse', () => {
    expect(parseSettingsText('{"a": 1}', 'b.JSON')).toEqual({ a: 1 });
    expect(parseSettingsText('a: 1\n', 'b.yml')).toEqual({ a: 1 });
    expect(parseSettingsText('{"a": 1}', 'b.conf')).toEqual({ a: 1 });
    expect(parseSettingsText('', 'b.yaml')).toEqual({});
    expect(() => parseSettingsText('', 'b.json')).toThrow(/^b\.json is not valid JSON: /);
    expect(() => parseSettingsText('a: [1', 'b.yaml')).toThrow(SettingsFileError);
    expect(() => parseSettingsText('a: [1', 'b.yaml')).toThrow(/^b\.yaml is not valid YAML: /);
    expect(() => parseSettingsText('{', '/etc/b.json')).toThrow(/^\/etc\/b\.json is not valid JSON: /);
  });
});
