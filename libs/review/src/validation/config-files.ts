import { basename } from '../parsing/shell-command.js';

/**
 * Which files hold configuration or environment. The seed matches any path containing "config" or "env",
 * which also catches `src/environment.ts`, `tsconfig.json` or a Python `env/` folder; Warden names the
 * files that configure how a program reaches its services and environment instead:
 *
 * - env files: `.env`, `.env.*`, `*.env`, `.envrc`
 * - files named `config.*` or `settings.*`, tool configs `*.config.{js,ts,mjs,cjs,mts,cts,json,yaml,yml,toml}`
 * - `*.conf`, `*.ini`, `*.cfg`, `*.properties`
 * - `.npmrc`, `.yarnrc`, `.yarnrc.yml`, `.pypirc`, `.netrc`, `.pgpass`, `docker-compose*.y(a)ml`, `compose*.y(a)ml`
 * - `config` or `credentials` inside a dot-folder (`~/.ssh/config`, `.git/config`, `~/.aws/credentials`)
 * - data files (json, yaml, yml, toml, xml, ini, conf, env, properties) inside a `config`, `configs`,
 *   `conf`, `settings`, `.config` or `environments` folder
 * - anything under `/etc/`
 */

const ENV_TEMPLATE = /\.(example|sample|template|dist|defaults?)$/;
const NAMED_CONFIG = new Set(['.npmrc', '.yarnrc', '.yarnrc.yml', '.pypirc', '.netrc', '.pgpass']);
const CONFIG_EXTENSION = /\.(conf|ini|cfg|properties)$/;
const CONFIG_BASENAME = /^(config|settings)\.[a-z0-9]+$/i;
const TOOL_CONFIG = /\.config\.([cm]?[jt]s|json|ya?ml|toml)$/;
const COMPOSE_FILE = /^(docker-)?compose([.-][\w.-]+)?\.ya?ml$/;
const DOT_FOLDER_CONFIG = new Set(['config', 'credentials']);
const CONFIG_FOLDERS = new Set(['config', 'configs', 'conf', 'settings', '.config', 'environments']);
const DATA_EXTENSION = /\.(json|ya?ml|toml|xml|ini|conf|env|properties)$/;

function parentName(path: string): string {
  const parts = path.split('/');
  return parts.length > 1 ? parts[parts.length - 2]! : '';
}

/** `.env`, `.env.local`, `production.env`, `.envrc`. */
export function isEnvFile(path: string): boolean {
  const name = basename(path);
  return name === '.env' || name.startsWith('.env.') || name === '.envrc' || (name.endsWith('.env') && name.length > 4);
}

/** An env file with real values, not a template such as `.env.example`. */
export function isSecretsEnvFile(path: string): boolean {
  return isEnvFile(path) && !ENV_TEMPLATE.test(basename(path));
}

/** The folder part of a path, with its trailing slash (empty for a bare name). */
const folderOf = (path: string) => path.slice(0, path.lastIndexOf('/') + 1);

/**
 * Whether `template` is an env template (`.env.example`, `.env.local.sample` …) in the same folder as the
 * env file `path`: what a new project's env file is set up from.
 */
export function isEnvTemplateBeside(template: string, path: string): boolean {
  return isEnvFile(template) && ENV_TEMPLATE.test(basename(template)) && folderOf(template) === folderOf(path);
}

export function isConfigFile(path: string): boolean {
  const name = basename(path);
  if (!name) return false;
  if (isEnvFile(path) || NAMED_CONFIG.has(name) || CONFIG_EXTENSION.test(name) || CONFIG_BASENAME.test(name)) return true;
  if (TOOL_CONFIG.test(name) || COMPOSE_FILE.test(name)) return true;
  if (path.startsWith('/etc/')) return true;
  const parent = parentName(path);
  if (DOT_FOLDER_CONFIG.has(name) && parent.startsWith('.') && parent.length > 1) return true;
  return path.split('/').slice(0, -1).some((folder) => CONFIG_FOLDERS.has(folder)) && DATA_EXTENSION.test(name);
}
