import { dirname, isAbsolute, resolve } from 'node:path';
import { knowledgeFormatOf, parseProjectKnowledge, type ProjectKnowledge } from '@warden/project-knowledge';
import { parseSettingsText, settingsFormatOf, settingsSection } from '@warden/settings';
import type { CustomRuleDefinition } from '../rules/custom-rule-definition.js';
import { loadCustomRules } from '../rules/custom-rules.js';
import type { RuleOverrideDefinition } from '../rules/rule-override-definition.js';
import { loadRuleOverrides } from '../rules/rule-overrides.js';

/** Everything the step reviewer is built from, read from disk. */
export interface ReviewSources {
  settings: unknown;
  extraRules: CustomRuleDefinition[];
  extraRulesSource?: string;
  /** Overrides of built-in rules from the same file. */
  ruleOverrides: RuleOverrideDefinition[];
  knowledge: ProjectKnowledge[];
  /** Every file read, to watch for changes. */
  files: string[];
}

/** The text of a file (the service passes the settings loader's reader; this library touches no disk). */
export type ReadText = (path: string) => string;

/**
 * Reads the review configuration, the custom rules file it names and the project knowledge files it
 * lists, each through `read`. Paths inside the configuration are relative to the configuration file.
 * Throws with the file and the problem when anything is missing or malformed.
 */
export function readReviewSources(configPath: string | undefined, read: ReadText): ReviewSources {
  if (!configPath) return { settings: {}, extraRules: [], ruleOverrides: [], knowledge: [], files: [] };
  const path = resolve(configPath);
  const document = parseSettingsText(read(path), path);
  const root = settingsSection(document, 'step_reviewer');
  const base = dirname(path);
  const relative = (file: string) => (isAbsolute(file) ? file : resolve(base, file));
  const files = [path];
  const sources: ReviewSources = { settings: document, extraRules: [], ruleOverrides: [], knowledge: [], files };

  const rules = (root as { rules?: { custom_rules_path?: unknown } }).rules;
  if (typeof rules?.custom_rules_path === 'string') {
    const rulesPath = relative(rules.custom_rules_path);
    files.push(rulesPath);
    const text = read(rulesPath);
    sources.extraRules = loadCustomRules(text, settingsFormatOf(rulesPath), rulesPath);
    sources.ruleOverrides = loadRuleOverrides(text, settingsFormatOf(rulesPath), rulesPath);
    sources.extraRulesSource = rulesPath;
  }
  const knowledge = (root as { knowledge?: { files?: unknown } }).knowledge;
  if (Array.isArray(knowledge?.files)) {
    for (const file of knowledge.files) {
      if (typeof file !== 'string') continue;
      const knowledgePath = relative(file);
      files.push(knowledgePath);
      const format = knowledgeFormatOf(knowledgePath);
      sources.knowledge.push(parseProjectKnowledge(read(knowledgePath), format, knowledgePath));
    }
  }
  return sources;
}
