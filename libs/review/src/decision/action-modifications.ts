import { commandName } from '../parsing/command-facts.js';
import type { ParsedAction } from '../parsing/parsed-action.js';

export interface ActionModification {
  input: Record<string, unknown>;
  /** What changed, for the agent. */
  description: string;
}

const PROJECT_TOOLS = new Set(['npm', 'npx', 'pnpm', 'yarn', 'pip', 'pip3', 'python', 'python3', 'node', 'cargo', 'go', 'make', 'git', 'pytest', 'bundle', 'gem']);

/**
 * Safer versions of an action Warden can offer when its decision is `modify` and no rule brought its own
 * rewrite. Each is a change an agent would accept without losing what it wanted: drop sudo from project
 * tooling, install into the project instead of globally, preview `git clean`, fetch over https.
 */
export function proposeModification(action: ParsedAction): ActionModification | null {
  const command = action.command;
  if (command !== undefined && action.segments.length) {
    if (action.privileged && action.segments.every((s) => !s.privileged || PROJECT_TOOLS.has(commandName(s)))) {
      const rewritten = command.replace(/\bsudo\s+(?:-[A-Za-z]+\s+)*/g, '');
      if (rewritten !== command) return { input: { ...action.input, command: rewritten }, description: 'Runs the project tool without sudo.' };
    }
    if (action.intents.includes('package_install') && action.segments.some((s) => ['npm', 'pnpm', 'yarn'].includes(commandName(s)) && (s.argv.includes('-g') || s.argv.includes('--global')))) {
      const rewritten = command.replace(/\s(?:-g|--global)(?=\s|$)/g, ' --save-dev');
      return { input: { ...action.input, command: rewritten }, description: 'Installs into the project (--save-dev) instead of globally.' };
    }
    const clean = action.segments.find((s) => commandName(s) === 'git' && s.argv[1] === 'clean' && s.argv.some((a) => /^-[a-z]*f/.test(a)));
    if (clean) {
      const rewritten = command.replace(/(git\s+clean\s+)-([a-z]*)f([a-z]*)/, '$1-$2n$3');
      return { input: { ...action.input, command: rewritten }, description: 'Previews what git clean would delete (-n) instead of deleting it.' };
    }
  }
  const url = typeof action.input['url'] === 'string' ? action.input['url'] : undefined;
  if (url?.startsWith('http://') && !/^http:\/\/(localhost|127\.|\[::1\])/.test(url)) {
    return { input: { ...action.input, url: `https://${url.slice('http://'.length)}` }, description: 'Fetches over https.' };
  }
  return null;
}
