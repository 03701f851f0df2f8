import { readFileSync } from 'node:fs';

export class SettingsFileError extends Error {}

/** The text of a settings file; a file that cannot be read is a SettingsFileError naming it. */
export function readSettingsText(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    throw new SettingsFileError(`cannot read ${path}: ${(error as Error).message}`);
  }
}
