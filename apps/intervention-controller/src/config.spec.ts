import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ConfigurationError } from '@warden/service-bootstrap';
import { loadInterventionControllerConfig } from './config.js';
import { DEFAULT_INTERVENTION_SETTINGS } from '@warden/interventions';
import { DEFAULT_PROMPTS } from '@warden/interventions';

const deployed = join(dirname(fileURLToPath(import.meta.url)), '../../../deploy/intervention-controller/interventions.yaml');

describe('configuration', () => {
  it('the deployed file states the documented defaults, and its prompts file the built-in texts', () => {
    const config = loadInterventionControllerConfig({ INTERVENTIONS_CONFIG: deployed });
    expect(config.settings).toEqual({ ...DEFAULT_INTERVENTION_SETTINGS, soft_correction: { ...DEFAULT_INTERVENTION_SETTINGS.soft_correction, custom_prompts_path: './intervention_prompts.yaml' } });
    expect(config.templates).toEqual(DEFAULT_PROMPTS);
    expect(config.sweepMs).toBe(5000);
  });

  it('without a file uses the defaults; a bad file or path stops the start with the setting named', () => {
    expect(loadInterventionControllerConfig({}).settings).toEqual(DEFAULT_INTERVENTION_SETTINGS);
    const dir = mkdtempSync(join(tmpdir(), 'warden-ic-config-'));
    try {
      const path = join(dir, 'i.yaml');
      writeFileSync(path, 'interventions:\n  cooldown: 3\n');
      expect(() => loadInterventionControllerConfig({ INTERVENTIONS_CONFIG: path })).toThrow(ConfigurationError);
      writeFileSync(path, 'interventions:\n  soft_correction: { custom_prompts_path: ./missing.yaml }\n');
      expect(() => loadInterventionControllerConfig({ INTERVENTIONS_CONFIG: path })).toThrow(/custom_prompts_path: cannot read .*missing\.yaml/);
      writeFileSync(path, 'interventions:\n  custom_handlers: [./handler.mjs]\n');
      expect(loadInterventionControllerConfig({ INTERVENTIONS_CONFIG: path }).handlerPaths).toEqual([join(dir, 'handler.mjs')]);
      expect(() => loadInterventionControllerConfig({ INTERVENTIONS_SWEEP_MS: '5' })).toThrow('INTERVENTIONS_SWEEP_MS');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
