import { commandName } from '../parsing/command-facts.js';
import type { ShellSegment } from '../parsing/shell-command.js';
import { applyEdits, shellCommands, type TextEdit } from '../rules/shell-words.js';
import type { ParsedAction } from '../parsing/parsed-action.js';

export interface ActionModification {
  input: Record<string, unknown>;
  /** What changed, for the agent. */
  description: string;
}

/** What taking sudo away would not make safe: deletions and git operations that discard work or history. */
function destroys(segment: ShellSegment): boolean {
  const cmd = commandName(segment);
  if (cmd === 'rm' || cmd === 'rmdir' || cmd === 'shred' || cmd === 'dd') return true;
  const sub = segment.argv.slice(1).find((a) => !a.startsWith('-'));
  return cmd === 'git' && /^(?:reset|clean|push|checkout|restore|switch|branch|stash|filter-branch|filter-repo|reflog|gc|worktree|update-ref)$/.test(sub ?? '');
}

/** The line with each `sudo` word and its own options (`-u root`, `--`) removed in place; null when none could be. */
function withoutSudo(command: string): string | null {
  const edits: TextEdit[] = [];
  for (const words of shellCommands(command)) {
    let i = words.findIndex((w) => w.value === 'sudo');
    if (i < 0) continue;
    const start = words[i]!.start;
    i++;
    while (i < words.length && words[i]!.value.startsWith('-')) {
      const option = words[i]!.value;
      i += /^-[ugCDhprtTU]$/.test(option) ? 2 : 1;
      if (option === '--') break;
    }
    if (i >= words.length) return null;
    edits.push({ start, end: words[i]!.start, text: '' });
  }
  return edits.length ? applyEdits(command, edits) : null;
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
    if (action.privileged && action.segments.every((s) => !s.privileged || (PROJECT_TOOLS.has(commandName(s)) && !destroys(s)))) {
      const rewritten = withoutSudo(command);
      if (rewritten !== null) return { input: { ...action.input, command: rewritten }, description: 'Runs the project tool without sudo.' };
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
