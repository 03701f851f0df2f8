import { readFileSync } from 'node:fs';
import { dirname, isAbsolute, resolve } from 'node:path';
import { parseSettingsText, SettingsFileError } from '@warden/settings';

/** The text of a settings file; a file that cannot be read is a SettingsFileError naming it. */
export function readSettingsText(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    throw new SettingsFileError(`cannot read ${path}: ${(error as Error).message}`);
  }
}

/** The document of a settings file: JSON when its name ends in .json, YAML otherwise, `{}` when empty (see @warden/settings). */
export function readSettingsDocument(path: string): unknown {
  return parseSettingsText(readSettingsText(path), path);
}

export interface LoadSettingsOptions {
  /** The error to throw (a service's ConfigurationError); SettingsFileError by default. */
  error?: new (message: string) => Error;
}

/**
 * How every service loads a settings file: `resolve` (the service's domain: the documented defaults, the
 * merge rule of @warden/settings, its checks) of the file's document, or of `{}` without a file. Whatever
 * goes wrong is one error that names what the file is for (`BREAKER_CONFIG`) and the file:
 * `BREAKER_CONFIG: cannot read /etc/b.yaml: ...`, `BREAKER_CONFIG: /etc/b.yaml is not valid YAML: ...`,
 * `BREAKER_CONFIG: /etc/b.yaml: invalid breaker configuration: ...`.
 */
export function loadSettingsFile<T>(what: string, path: string | undefined, resolveSettings: (document: unknown) => T, options: LoadSettingsOptions = {}): T {
  const fail = options.error ?? SettingsFileError;
  let document: unknown = {};
  if (path) {
    try {
      document = readSettingsDocument(path);
    } catch (error) {
      throw new fail(`${what}: ${(error as Error).message}`);
    }
  }
  try {
    return resolveSettings(document);
  } catch (error) {
    throw new fail(`${what}: ${path ? `${path}: ` : ''}${(error as Error).message}`);
  }
}

/** A path written in a settings file, taken from the file's directory unless absolute (from the working directory without a file). */
export function settingsPathNear(file: string | undefined, path: string): string {
  return isAbsolute(path) || !file ? resolve(path) : resolve(dirname(resolve(file)), path);
}
