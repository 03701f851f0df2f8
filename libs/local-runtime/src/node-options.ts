import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** A Node runtime option an app asks to be started with is malformed. */
export class NodeOptionsError extends Error {
  constructor(
    readonly file: string,
    detail: string,
  ) {
    super(`${file}: "nodeOptions" ${detail}`);
    this.name = 'NodeOptionsError';
  }
}

/** `apps/<app>/package.json`, where an app declares how it is run (its Node options, its CPU priority). */
export function appManifest(root: string, app: string): { file: string; manifest: Record<string, unknown> } {
  const file = join(root, 'apps', app, 'package.json');
  return { file, manifest: JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown> };
}

/**
 * The Node runtime options an app is started with, wherever it runs (`warden up`, the benchmark, the
 * container image): the `nodeOptions` list of `apps/<app>/package.json`, empty when it has none. One
 * place, so that what the benchmark measures is how the service runs.
 */
export function nodeOptionsOf(root: string, app: string): string[] {
  const { file, manifest } = appManifest(root, app);
  const options = manifest['nodeOptions'];
  if (options === undefined) return [];
  if (!Array.isArray(options)) throw new NodeOptionsError(file, 'must be a list of options, e.g. ["--max-semi-space-size=32"]');
  for (const option of options) {
    if (typeof option !== 'string' || !/^--[a-z][a-z0-9-]*(?:=\S+)?$/.test(option)) {
      throw new NodeOptionsError(file, `holds ${JSON.stringify(option)}: each entry is one option of the form --name or --name=value`);
    }
  }
  return options as string[];
}
