import { readFileSync } from 'node:fs';
import { dirname, extname, isAbsolute, resolve } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { resolveBreakerSettings } from '@warden/breakers';
import { resolveInterventionSettings, resolvePromptTemplates } from '@warden/interventions';
import { resolvePatternSettings } from '@warden/patterns';
import { readReviewSources } from '@warden/review';
import { loadProjectKnowledge, readSettingsText } from '@warden/settings-loader';
import type { WardenSettings } from './in-process-warden.js';

/** The services' configuration files an evaluation judges with (the files their *_CONFIG variables name). */
export interface SettingsFiles {
  reviewer?: string;
  breakers?: string;
  patterns?: string;
  interventions?: string;
}

export class SettingsFileError extends Error {}

function readDocument(path: string, what: string): unknown {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new SettingsFileError(`${what}: cannot read ${path}: ${(error as Error).message}`);
  }
  try {
    return (extname(path).toLowerCase() === '.json' ? JSON.parse(text) : parseYaml(text)) ?? {};
  } catch (error) {
    throw new SettingsFileError(`${what}: ${path} is not valid ${extname(path).toLowerCase() === '.json' ? 'JSON' : 'YAML'}: ${(error as Error).message}`);
  }
}

/** Runs `read`, naming the file in any error it throws. */
function from<T>(what: string, path: string | undefined, read: () => T): T {
  try {
    return read();
  } catch (error) {
    if (error instanceof SettingsFileError) throw error;
    throw new SettingsFileError(`${what}${path ? ` (${path})` : ''}: ${(error as Error).message}`);
  }
}

/**
 * What the four services would run with: each file as its service reads it (paths inside a file are
 * relative to it), Warden's documented defaults for any file not given.
 */
export function loadWardenSettings(files: SettingsFiles = {}): WardenSettings {
  const reviewer = from('reviewer configuration', files.reviewer, () => readReviewSources(files.reviewer, readSettingsText));
  const breakers = from('breaker configuration', files.breakers, () => resolveBreakerSettings(files.breakers ? readDocument(files.breakers, 'breaker configuration') : {}));
  const patterns = from('pattern detector configuration', files.patterns, () => resolvePatternSettings(files.patterns ? readDocument(files.patterns, 'pattern detector configuration') : {}));
  const near = (file: string | undefined, path: string) => (isAbsolute(path) || !file ? resolve(path) : resolve(dirname(resolve(file)), path));
  const patternKnowledge = from('pattern detector knowledge files', files.patterns, () => patterns.knowledge_files.map((path) => loadProjectKnowledge(near(files.patterns, path))));
  const interventions = from('intervention configuration', files.interventions, () =>
    resolveInterventionSettings(files.interventions ? readDocument(files.interventions, 'intervention configuration') : {}),
  );
  const promptsPath = interventions.soft_correction.custom_prompts_path ?? undefined;
  const templates = from('prompt templates', promptsPath, () => resolvePromptTemplates(promptsPath ? readDocument(near(files.interventions, promptsPath), 'prompt templates') : undefined));
  return { reviewer, breakers, patterns, patternKnowledge, interventions, templates };
}
