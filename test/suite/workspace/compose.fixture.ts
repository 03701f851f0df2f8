// docker-compose.yml as Compose itself resolves it (`docker compose config`), and the pieces of a resolved
// service the workspace tests read: environment, dependencies, build, mounts.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
export const COMPOSE_FILE = join(ROOT, 'docker-compose.yml');

// Compose v2 (`docker compose`, JSON) and Debian's docker-compose 1.29 (YAML) print the resolved file
// differently; these are the shapes both can take.
export type EnvSpec = Record<string, string | number | boolean | null> | string[] | undefined;
export type DependsSpec = Record<string, { condition?: string }> | string[] | undefined;
export type VolumeSpec = string | { source?: string; target: string };
export interface RawService {
  image?: string;
  build?: string | { context: string; dockerfile?: string; args?: Record<string, string> | string[] };
  command?: string | string[];
  environment?: EnvSpec;
  depends_on?: DependsSpec;
  healthcheck?: { test?: string | string[] };
  volumes?: VolumeSpec[];
  ports?: unknown[];
  container_name?: string;
}

export function env(service: RawService): Record<string, string> {
  const spec = service.environment;
  if (!spec) return {};
  if (Array.isArray(spec)) {
    return Object.fromEntries(spec.map((item) => [item.slice(0, item.indexOf('=')), item.slice(item.indexOf('=') + 1)]));
  }
  return Object.fromEntries(Object.entries(spec).map(([k, v]) => [k, v === null ? '' : String(v)]));
}

/** Dependency name → condition; a plain list means "started". */
export function dependsOn(service: RawService): Record<string, string> {
  const spec = service.depends_on;
  if (!spec) return {};
  if (Array.isArray(spec)) return Object.fromEntries(spec.map((name) => [name, 'service_started']));
  return Object.fromEntries(Object.entries(spec).map(([name, dep]) => [name, dep.condition ?? 'service_started']));
}

export function buildOf(service: RawService): { dockerfile: string; args: Record<string, string> } {
  const build = typeof service.build === 'string' ? { context: service.build } : service.build;
  if (!build) throw new Error('service has no build section');
  const args = Array.isArray(build.args)
    ? Object.fromEntries(build.args.map((item) => [item.slice(0, item.indexOf('=')), item.slice(item.indexOf('=') + 1)]))
    : (build.args ?? {});
  return { dockerfile: resolve(build.context, build.dockerfile ?? 'Dockerfile'), args };
}

export function mounts(service: RawService): { source: string; target: string }[] {
  return (service.volumes ?? []).map((volume) => {
    if (typeof volume !== 'string') return { source: volume.source ?? '', target: volume.target };
    const [source, target] = volume.split(':');
    return { source, target };
  });
}

export const words = (value: string | string[] | undefined): string => (Array.isArray(value) ? value.join(' ') : (value ?? ''));

export const run = (command: string, args: string[], childEnv: NodeJS.ProcessEnv) =>
  spawnSync(command, args, { cwd: ROOT, env: childEnv, encoding: 'utf8', timeout: 60_000 });

/**
 * The resolved compose file. The caller's WARDEN_* variables and any .env file are kept out (an empty
 * --env-file), so that the file's own defaults are what is checked, plus `extra`.
 */
export function composeConfig(extra: Record<string, string> = {}): Record<string, RawService> {
  const childEnv: NodeJS.ProcessEnv = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('WARDEN_') && k !== 'LOG_LEVEL'));
  Object.assign(childEnv, extra);
  const dir = mkdtempSync(join(tmpdir(), 'warden-compose-'));
  const envFile = join(dir, 'empty.env');
  writeFileSync(envFile, '');
  try {
    const common = ['-f', COMPOSE_FILE, '--env-file', envFile, 'config'];
    const plugin = run('docker', ['compose', 'version'], childEnv);
    const result =
      plugin.status === 0
        ? run('docker', ['compose', ...common, '--format', 'json'], childEnv)
        : run('docker-compose', common, childEnv);
    if (plugin.status !== 0 && (result.error as NodeJS.ErrnoException | undefined)?.code === 'ENOENT') {
      throw new Error('Neither the Compose plugin (`docker compose`) nor `docker-compose` is installed: run `apt-get install -y docker-compose`.');
    }
    if (result.status !== 0) throw new Error(`compose config failed (exit ${result.status}):\n${result.stderr}`);
    // JSON is YAML, so one parser reads both outputs.
    return (parse(result.stdout) as { services: Record<string, RawService> }).services;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
