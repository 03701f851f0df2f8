import { existsSync, statSync } from 'node:fs';
import { isAbsolute, join, relative, resolve } from 'node:path';
import { UsageError } from '../command.js';

/** The project's example deployment keeps its policy here (docker compose and the Kubernetes base mount it). */
export const DEPLOYMENT_POLICY = 'deploy/reviewer';
const CONFIG_NAMES = ['reviewer.yaml', 'reviewer.yml', 'reviewer.json'];

/** A policy to read: the reviewer configuration file, or none (the reviewer's defaults). */
export interface PolicyLocation {
  config: string | undefined;
  /** How to name it to the user. */
  shown: string;
}

/** A path as the user knows it: relative inside the current folder, else whole. */
export function shownPath(path: string): string {
  const inside = relative(process.cwd(), path);
  return inside && !inside.startsWith('..') && !isAbsolute(inside) ? inside : path;
}

/** The configuration a path names: the file, or a folder's reviewer.yaml (.yml, .json). */
export function configIn(path: string): string {
  const full = resolve(path);
  if (!existsSync(full)) throw new UsageError(`${path} does not exist`);
  if (statSync(full).isFile()) return full;
  const found = CONFIG_NAMES.map((name) => join(full, name)).find((file) => existsSync(file));
  if (!found) throw new UsageError(`${path} holds no reviewer configuration (${CONFIG_NAMES.join(', ')})`);
  return found;
}

/**
 * The policy a command works with: --policy (a folder or a configuration file); else the one the reviewer
 * is given here (REVIEWER_CONFIG); else the deployment's (deploy/reviewer, from the project's folder);
 * else none: the reviewer's defaults, built-in rules only.
 */
export function locatePolicy(given: string | undefined, env: NodeJS.ProcessEnv = process.env): PolicyLocation {
  if (given !== undefined) {
    const config = configIn(given);
    return { config, shown: shownPath(config) };
  }
  const fromEnv = env.REVIEWER_CONFIG?.trim();
  if (fromEnv) {
    if (!existsSync(resolve(fromEnv))) throw new UsageError(`REVIEWER_CONFIG names ${fromEnv}, which does not exist`);
    return { config: resolve(fromEnv), shown: `${shownPath(resolve(fromEnv))} (REVIEWER_CONFIG)` };
  }
  if (existsSync(resolve(DEPLOYMENT_POLICY))) {
    const config = configIn(DEPLOYMENT_POLICY);
    return { config, shown: shownPath(config) };
  }
  return { config: undefined, shown: `the reviewer's defaults (built-in rules only: no --policy, no REVIEWER_CONFIG, no ${DEPLOYMENT_POLICY} here)` };
}
