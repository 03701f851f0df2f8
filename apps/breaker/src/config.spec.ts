import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { resolveBreakerSettings } from '@warden/breakers';
import { ConfigurationError } from '@warden/service-bootstrap';
import { loadBreakerConfig } from './config.js';

const DEFAULT_BREAKER_SETTINGS = resolveBreakerSettings();

describe('breaker configuration', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'warden-breaker-config-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('runs on the documented defaults without a file, and puts a file over them', () => {
    expect(loadBreakerConfig({}).settings).toEqual(DEFAULT_BREAKER_SETTINGS);
    writeFileSync(join(dir, 'b.yaml'), 'breakers:\n  iteration:\n    warning: 0.5\n');
    const config = loadBreakerConfig({ BREAKER_CONFIG: join(dir, 'b.yaml') });
    expect(config.settings.iteration).toEqual({ ...DEFAULT_BREAKER_SETTINGS.iteration, warning: 0.5 });
    expect(config.settings.cost).toEqual(DEFAULT_BREAKER_SETTINGS.cost);
  });

  it('stops the start on a file it cannot use, naming BREAKER_CONFIG and the file', () => {
    const missing = join(dir, 'missing.yaml');
    expect(() => loadBreakerConfig({ BREAKER_CONFIG: missing })).toThrow(ConfigurationError);
    expect(() => loadBreakerConfig({ BREAKER_CONFIG: missing })).toThrow(`BREAKER_CONFIG: cannot read ${missing}`);
    writeFileSync(join(dir, 'typo.yaml'), 'breakers:\n  iteration:\n    warnin: 0.5\n');
    expect(() => loadBreakerConfig({ BREAKER_CONFIG: join(dir, 'typo.yaml') })).toThrow(new RegExp(`^BREAKER_CONFIG: ${join(dir, 'typo.yaml')}: invalid breaker configuration: `));
  });
});
