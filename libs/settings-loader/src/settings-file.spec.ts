import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { mergeSettings, SettingsFileError } from '@warden/settings';
import { loadSettingsFile, readSettingsDocument, settingsPathNear } from './settings-file.js';

class ConfigurationError extends Error {}

const DEFAULTS = { limits: { max: 10, min: 1 }, tools: ['Bash'] };
const resolveLimits = (document: unknown) => {
  const settings = mergeSettings(DEFAULTS, document);
  if (settings.limits.max < settings.limits.min) throw new Error('limits.max must not be below limits.min');
  return settings;
};

describe('settings loader', () => {
  let dir: string;
  beforeAll(() => (dir = mkdtempSync(join(tmpdir(), 'warden-settings-'))));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('resolves the defaults without a file, and the file over them with one', () => {
    expect(loadSettingsFile('LIMITS_CONFIG', undefined, resolveLimits)).toEqual(DEFAULTS);
    writeFileSync(join(dir, 'limits.yaml'), 'limits:\n  max: 20\n');
    expect(loadSettingsFile('LIMITS_CONFIG', join(dir, 'limits.yaml'), resolveLimits)).toEqual({ limits: { max: 20, min: 1 }, tools: ['Bash'] });
    writeFileSync(join(dir, 'limits.json'), '{"tools": ["Read", "Edit"]}');
    expect(loadSettingsFile('LIMITS_CONFIG', join(dir, 'limits.json'), resolveLimits)).toEqual({ limits: { max: 10, min: 1 }, tools: ['Read', 'Edit'] });
    writeFileSync(join(dir, 'empty.yaml'), '');
    expect(readSettingsDocument(join(dir, 'empty.yaml'))).toEqual({});
  });

  it('names what the file is for and the file in every error, with the error type the service asks for', () => {
    const missing = join(dir, 'missing.yaml');
    expect(() => loadSettingsFile('LIMITS_CONFIG', missing, resolveLimits)).toThrow(new SettingsFileError(`LIMITS_CONFIG: cannot read ${missing}: ENOENT: no such file or directory, open '${missing}'`));
    writeFileSync(join(dir, 'broken.json'), '{');
    expect(() => loadSettingsFile('LIMITS_CONFIG', join(dir, 'broken.json'), resolveLimits)).toThrow(new RegExp(`^LIMITS_CONFIG: ${join(dir, 'broken.json')} is not valid JSON: `));
    writeFileSync(join(dir, 'wrong.yaml'), 'limits: { max: 0, min: 5 }\n');
    const wrong = () => loadSettingsFile('LIMITS_CONFIG', join(dir, 'wrong.yaml'), resolveLimits, { error: ConfigurationError });
    expect(wrong).toThrow(ConfigurationError);
    expect(wrong).toThrow(`LIMITS_CONFIG: ${join(dir, 'wrong.yaml')}: limits.max must not be below limits.min`);
  });

  it('takes paths written in a file from its directory', () => {
    expect(settingsPathNear('/etc/warden/patterns.yaml', 'knowledge.toml')).toBe('/etc/warden/knowledge.toml');
    expect(settingsPathNear('/etc/warden/patterns.yaml', '../shared/k.toml')).toBe('/etc/shared/k.toml');
    expect(settingsPathNear('/etc/warden/patterns.yaml', '/srv/k.toml')).toBe('/srv/k.toml');
    expect(settingsPathNear(undefined, 'k.toml')).toBe(resolve('k.toml'));
  });
});
