import type { LadderAction } from '@warden/contracts';
import { commandName } from '../parsing/command-facts.js';
import type { ParsedAction } from '../parsing/parsed-action.js';
import type { ShellSegment } from '../parsing/shell-command.js';
import { ownEntry } from '../own-entry.js';

const DEPLOY_COMMANDS: Record<string, (argv: readonly string[]) => boolean> = {
  kubectl: (argv) => ['apply', 'delete', 'replace', 'rollout', 'scale', 'patch', 'create'].includes(argv[1] ?? ''),
  helm: (argv) => ['install', 'upgrade', 'uninstall', 'rollback'].includes(argv[1] ?? ''),
  terraform: (argv) => ['apply', 'destroy', 'import'].includes(argv[1] ?? ''),
  tofu: (argv) => ['apply', 'destroy'].includes(argv[1] ?? ''),
  pulumi: (argv) => ['up', 'destroy'].includes(argv[1] ?? ''),
  vercel: (argv) => argv.includes('--prod') || argv[1] === 'deploy',
  fly: (argv) => argv[1] === 'deploy',
  flyctl: (argv) => argv[1] === 'deploy',
  serverless: (argv) => argv[1] === 'deploy',
  sls: (argv) => argv[1] === 'deploy',
  cdk: (argv) => argv[1] === 'deploy' || argv[1] === 'destroy',
  netlify: (argv) => argv[1] === 'deploy',
  heroku: (argv) => argv.includes('releases:rollback') || argv[1]?.startsWith('container:release') === true,
  ansible: () => true,
  'ansible-playbook': () => true,
  eb: (argv) => argv[1] === 'deploy',
  gcloud: (argv) => argv.includes('deploy'),
  az: (argv) => argv.includes('deploy') || argv.includes('create'),
};

function deploys(segment: ShellSegment): boolean {
  const cmd = commandName(segment);
  if (ownEntry(DEPLOY_COMMANDS, cmd)?.(segment.argv)) return true;
  const script = ['npm', 'pnpm', 'yarn'].includes(cmd) ? segment.argv[segment.argv[1] === 'run' ? 2 : 1] ?? '' : '';
  return /^(deploy|release|publish)(:|$)/.test(script) || (cmd === 'npm' && segment.argv[1] === 'publish');
}

function merges(segment: ShellSegment): boolean {
  const cmd = commandName(segment);
  if (cmd === 'gh' && segment.argv[1] === 'pr' && segment.argv[2] === 'merge') return true;
  if (cmd !== 'git') return false;
  if (segment.argv[1] === 'merge') return true;
  return segment.argv[1] === 'push' && segment.argv.slice(2).some((a) => /^(HEAD:)?(refs\/heads\/)?(main|master|trunk|release.*)$/.test(a));
}

/**
 * The ladder's name (seed 002 §7.2) for what an action does: merging and deploying are named, every other
 * change is an auto fix. Reading and talking are not autonomous actions, so they are never gated (null).
 */
export function ladderActionOf(action: ParsedAction, environment?: string): LadderAction | null {
  if (action.readOnly || action.intent === 'message' || action.intent === 'delegation') return null;
  const production = (text: string) => /\b(prod|production)\b/i.test(text);
  if (action.segments.some(deploys)) {
    return production(action.command ?? '') || (environment !== undefined && production(environment)) ? 'auto_deploy_production' : 'auto_deploy_staging';
  }
  if (action.segments.some(merges) || (action.mcp && /merge/i.test(action.mcp.tool))) return 'auto_merge';
  return 'auto_fix';
}
