import { readFileSync } from 'node:fs';
import { KnowledgeFileError, knowledgeFormatOf, parseProjectKnowledge, type ProjectKnowledge } from '@warden/project-knowledge';

/**
 * Reads a project knowledge file; the format comes from the extension (.toml, .yaml, .yml, .json). Throws
 * KnowledgeFileError naming the file, and the field when the content is wrong.
 */
export function loadProjectKnowledge(path: string): ProjectKnowledge {
  const format = knowledgeFormatOf(path);
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new KnowledgeFileError(path, `cannot be read: ${error instanceof Error ? error.message : String(error)}`);
  }
  return parseProjectKnowledge(text, format, path);
}
