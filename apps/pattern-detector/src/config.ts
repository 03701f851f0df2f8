import { resolvePatternSettings, type PatternSettings } from '@warden/patterns';
import type { ProjectKnowledge } from '@warden/project-knowledge';
import { ConfigurationError, loadServiceRuntime, type ServiceRuntime } from '@warden/service-bootstrap';
import { loadProjectKnowledge, loadSettingsFile, settingsPathNear } from '@warden/settings-loader';

/**
 * The pattern-detector's configuration. Its environment is the shared one (see loadServiceRuntime; HTTP
 * port 3102 by default) plus:
 *
 * - `PATTERN_DETECTOR_CONFIG`: path of the detector configuration (YAML or JSON): windows, episodes,
 *   thresholds, mode (enforce / shadow) per detector, knowledge files. Absent: the documented defaults
 *   of `domain/detector-settings.ts` (DEFAULT_PATTERN_SETTINGS; deploy/pattern-detector/patterns.yaml
 *   repeats them). Read at start.
 * - `PATTERN_KNOWLEDGE`: project knowledge files (seed 004 format, like deploy/reviewer/knowledge.toml),
 *   comma separated, whose known issues the escalation-trap detectors match; added to the
 *   configuration's `knowledge_files`. Relative paths in the configuration file are taken from its directory.
 */
export interface PatternDetectorConfig extends ServiceRuntime {
  configPath: string | undefined;
  settings: PatternSettings;
  knowledge: ProjectKnowledge[];
}

export function loadPatternDetectorConfig(env: NodeJS.ProcessEnv = process.env): PatternDetectorConfig {
  const configPath = env['PATTERN_DETECTOR_CONFIG']?.trim() || undefined;
  const settings = loadSettingsFile('PATTERN_DETECTOR_CONFIG', configPath, resolvePatternSettings, { error: ConfigurationError });
  const files = [
    ...settings.knowledge_files.map((f) => settingsPathNear(configPath, f)),
    ...(env['PATTERN_KNOWLEDGE'] ?? '').split(',').map((f) => f.trim()).filter(Boolean),
  ];
  const knowledge = files.map((file) => {
    try {
      return loadProjectKnowledge(file);
    } catch (error) {
      throw new ConfigurationError(`pattern detector knowledge: ${(error as Error).message}`);
    }
  });
  return { ...loadServiceRuntime('pattern-detector', env), configPath, settings, knowledge };
}
