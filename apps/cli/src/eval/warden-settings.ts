import { resolveBreakerSettings } from '@warden/breakers';
import { resolveInterventionSettings, resolvePromptTemplates } from '@warden/interventions';
import { resolvePatternSettings } from '@warden/patterns';
import { readReviewSources } from '@warden/review';
import { SettingsFileError } from '@warden/settings';
import { loadProjectKnowledge, loadSettingsFile, readSettingsText, settingsPathNear } from '@warden/settings-loader';
import type { WardenSettings } from './in-process-warden.js';

/** The services' configuration files an evaluation judges with (the files their *_CONFIG variables name). */
export interface SettingsFiles {
  reviewer?: string;
  breakers?: string;
  patterns?: string;
  interventions?: string;
}

export { SettingsFileError };

/** Runs `read`, naming what the file is for and the file in any error it throws. */
function from<T>(what: string, path: string | undefined, read: () => T): T {
  try {
    return read();
  } catch (error) {
    throw new SettingsFileError(`${what}${path ? ` (${path})` : ''}: ${(error as Error).message}`);
  }
}

/**
 * What the four services would run with: each file as its service reads it (paths inside a file are
 * relative to it), Warden's documented defaults for any file not given.
 */
export function loadWardenSettings(files: SettingsFiles = {}): WardenSettings {
  const reviewer = from('reviewer configuration', files.reviewer, () => readReviewSources(files.reviewer, readSettingsText));
  const breakers = loadSettingsFile('breaker configuration', files.breakers, resolveBreakerSettings);
  const patterns = loadSettingsFile('pattern detector configuration', files.patterns, resolvePatternSettings);
  const patternKnowledge = from('pattern detector knowledge files', files.patterns, () => patterns.knowledge_files.map((path) => loadProjectKnowledge(settingsPathNear(files.patterns, path))));
  const interventions = loadSettingsFile('intervention configuration', files.interventions, resolveInterventionSettings);
  const promptsPath = interventions.soft_correction.custom_prompts_path ?? undefined;
  const templates = loadSettingsFile('prompt templates', promptsPath ? settingsPathNear(files.interventions, promptsPath) : undefined, resolvePromptTemplates);
  return { reviewer, breakers, patterns, patternKnowledge, interventions, templates };
}
