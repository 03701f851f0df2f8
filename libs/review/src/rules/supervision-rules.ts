import { resolvePath } from '@warden/actions';
import { gitSubcommandIndex } from '../parsing/command-facts.js';
import { segmentDirectory } from '../parsing/segment-paths.js';
import { windowsCommands } from '../parsing/windows-commands.js';
import { inlineCodeText } from './harm-catalogue.js';
import { builtInRule } from './built-in-rule.js';
import type { ParsedAction } from '../parsing/parsed-action.js';

/**
 * The files through which Warden supervises an agent: every supervised agent's hook and settings files
 * (what `warden hook install` writes, apps/cli/src/hook/agents), and Warden's own token and state
 * directory. An agent that rewrites, moves or deletes one of them switches its own supervision off.
 * Matched against resolved paths (`/home/u/…`, `c:/users/u/…`), in the project or in a home directory.
 */
const SUPERVISION_FILE = new RegExp(
  [
    String.raw`\.claude/settings(?:\.local)?\.json`, // Claude Code: hooks and Warden's token (settings.local.json env)
    String.raw`\.claude/hooks(?:/.*)?`,
    String.raw`\.codex/(?:hooks\.json|config\.toml)`, // Codex: hooks.json, hooks in config.toml
    String.raw`\.cursor/hooks\.json`,
    String.raw`\.github/hooks/[^/]+\.json`, // Copilot CLI, repository hooks
    String.raw`\.copilot/(?:hooks(?:/.*)?|config\.json)`, // Copilot CLI, user hooks
    String.raw`\.gemini/settings\.json`, // Gemini CLI
    String.raw`\.gemini/config/hooks\.json`, // Antigravity (user)
    String.raw`\.agents/hooks\.json`, // Antigravity (project)
    String.raw`\.factory/(?:hooks|settings)\.json`, // Factory Droid
    String.raw`(?:\.opencode|\.config/opencode)/plugins?(?:/.*)?`, // OpenCode plugins
    String.raw`\.warden(?:/.*)?`, // Warden's shims, agents' tokens, hook state
  ]
    .map((p) => `(?:^|/)${p}$`)
    .join('|'),
  'i',
);
/** The dot-directories the supervised agents keep their hooks and settings in. */
const AGENT_DIRECTORIES = String.raw`\.claude|\.codex|\.cursor|\.gemini|\.agents|\.factory|\.opencode|\.github|\.copilot`;
/** Directories that hold those files: deleting or moving one of them removes the hooks too. */
const SUPERVISION_DIRECTORY = new RegExp(String.raw`(?:^|/)(?:${AGENT_DIRECTORIES}|\.gemini/config|\.config/opencode)/?$`, 'i');
/** Programs that delete or move what they are given (shell, PowerShell, cmd). */
const REMOVERS = new Set(['rm', 'rmdir', 'unlink', 'shred', 'truncate', 'trash', 'mv', 'remove-item', 'ri', 'del', 'erase', 'rd', 'move-item', 'rename-item']);

/** Whether a path is one of the files Warden supervises an agent through. */
function isSupervisionFile(path: string): boolean {
  return SUPERVISION_FILE.test(path.replace(/\\/g, '/'));
}

/** Where in a path an agent's configuration directory begins. */
const CONFIGURATION_DIRECTORY = new RegExp(String.raw`/(?:${AGENT_DIRECTORIES}|\.warden)(?:/|$)`, 'i');

/**
 * A configuration directory in a subdirectory of the session's project (a vendored library's `.claude` or
 * `.github`): the agents read their project's hooks from where they run and the directories above it, so
 * one below belongs to another project and supervises nothing here.
 */
function belowTheProject(path: string, cwd: string | undefined): boolean {
  if (!cwd) return false;
  const root = resolvePath(cwd).replace(/\/+$/, '');
  const at = path.search(CONFIGURATION_DIRECTORY);
  return at > root.length && path.startsWith(`${root}/`);
}

/** A path named in code (Python, JavaScript, PowerShell …) that is a supervision file. */
const SUPERVISION_IN_CODE = /\.claude[\\/]+(?:settings(?:\.local)?\.json|hooks)|\.codex[\\/]+(?:hooks\.json|config\.toml)|\.cursor[\\/]+hooks\.json|\.github[\\/]+hooks|\.copilot[\\/]+hooks|\.gemini[\\/]+(?:settings\.json|config[\\/]+hooks\.json)|\.agents[\\/]+hooks\.json|\.factory[\\/]+(?:hooks|settings)\.json|opencode[\\/]+plugins?|\.warden[\\/]/i;
/** Code that writes, moves or deletes a file (Python, JavaScript, Deno, Ruby, Perl's `open(F, ">…")`, PHP, PowerShell). */
const WRITES_IN_CODE = /\bopen\s*\([^)]*['"][wax]\+?b?['"]|write_text|write_bytes|\.write\s*\(|write(?:Text)?File|appendFile|copyFile|file_put_contents|fopen\s*\([^)]*['"][wax]|Deno\.(?:remove|rename|truncate)|createWriteStream|\bunlink|\brmSync|\brmdir|\brename|\bremove\s*\(|os\.replace|shutil\.(?:move|copy\w*|rmtree)|json\.dump\s*\(|Set-Content|Add-Content|Out-File|Remove-Item|Move-Item|Copy-Item|File\.(?:write|delete|open\s*\([^)]*['"]w)|IO\.write|FileUtils\.|truncate|\bopen\s*\(?\s*(?:my\s+)?\$?\w+\s*,\s*['"]\s*\+?>/i;

/** `claude plugin disable warden`, `claude config set hooks …`, `warden hook uninstall`: hooks switched off through the agent's own CLI. */
const AGENT_CLIS = new Set(['claude', 'gemini', 'codex', 'cursor-agent', 'copilot', 'droid', 'opencode', 'warden']);

function hookSwitchedOff(argv: readonly string[], name: string, lineMentionsSwitch: boolean): string | null {
  if (!AGENT_CLIS.has(name) && !(lineMentionsSwitch && argv.some((a) => /disableallhooks/i.test(a)))) return null;
  const args = argv.slice(1).map((a) => a.toLowerCase());
  const sub = args.filter((a) => !a.startsWith('-'));
  if (name === 'claude' && sub[0] === 'plugin' && /^(?:disable|uninstall|remove|rm)$/.test(sub[1] ?? '')) return `claude plugin ${sub[1]}`;
  if (name === 'claude' && sub[0] === 'config' && /^(?:set|remove|rm|add|unset)$/.test(sub[1] ?? '') && args.some((a) => /hook/.test(a))) return `claude config ${sub[1]} (hooks)`;
  if (/^(?:gemini|codex|cursor-agent|copilot|droid|opencode)$/.test(name) && args.some((a) => /hook/.test(a)) && args.some((a) => /^(?:disable|remove|uninstall|off|rm|delete)$/.test(a))) return `${name} ${sub.slice(0, 2).join(' ')}`;
  if (name === 'warden' && sub[0] === 'hook' && /^(?:uninstall|remove|off|disable)$/.test(sub[1] ?? '')) return `warden hook ${sub[1]}`;
  if (args.some((a) => /disableallhooks/.test(a))) return 'disableAllHooks';
  return null;
}

const REASON = (what: string) =>
  `${what} configures Warden's supervision of this agent; changing, moving or deleting it is not allowed. Ask the user if the hooks need to change.`;

/**
 * Self-protection: an agent's action that writes, moves, deletes or reconfigures the hooks Warden
 * supervises it through is blocked, whatever the tool: Write/Edit of any agent, shell redirections, cp/mv,
 * sed -i, tee, rm, interpreters' code, or the agent's own CLI switching hooks off. Reading them is fine.
 * It overrides the default scope (which counts ~/.claude/** as the session's own).
 */
export const supervisionTamperingRule = builtInRule({
  name: 'supervision_tampering',
  description: "Writing, moving or deleting Warden's hook configuration (every supervised agent's hook and settings files, .warden/) or switching hooks off through the agent's CLI is never allowed.",
  essential: true,
  reads: 'action',
  check({ action }) {
    const hit = tampering(action);
    if (!hit) return null;
    return {
      verdict: 'block',
      score: 1,
      factors: ['supervision', 'safety_control', 'file_modification'],
      reason: hit,
      alternative: 'Leave the hook and settings files as they are; if they get in the way of the task, stop and ask the user.',
    };
  },
});

/** Warden's own processes, services, containers and packages by name (`warden up`, `nats-server`, `@warden/cli`), not `vaultwarden`. */
const WARDEN_NAME = /(?:^|[\s/'"@=:])(?:warden(?:[-.\w]*)?|nats-server)(?=$|[\s'".:@,)/])/i;
/** Verbs that stop, disable or remove a service, container, deployment or package. */
const STOPPING = /(?:^|\s)(?:stop|disable|kill|mask|unload|bootout|rm|remove|delete|pause|uninstall|un|scale)(?:\s|$)/;

/** Stopping or removing Warden itself: its processes, its service, its containers or deployments, its package. */
function stopsWarden(action: ParsedAction): string | null {
  for (const segment of action.segments) {
    const name = segment.program;
    const args = segment.argv.slice(1).join(' ');
    if ((name === 'pkill' || name === 'killall') && WARDEN_NAME.test(args)) return `${name} ${args}`;
    if (name === 'kill' && action.segments.some((s) => s.program === 'pgrep' && WARDEN_NAME.test(s.argv.slice(1).join(' ')))) return 'kill of what pgrep finds of Warden';
    if (/^(?:systemctl|service|launchctl|docker|podman|kubectl|helm|npm|pnpm|yarn|brew|sc|stop-service|stop-process|taskkill)$/.test(name) && (STOPPING.test(` ${args} `) || /^(?:stop-service|stop-process|taskkill)$/.test(name)) && WARDEN_NAME.test(args)) {
      // `kubectl scale … --replicas=3` keeps it running: only a scale to zero stops it.
      if (name === 'kubectl' && /\bscale\b/.test(args) && !/--replicas[=\s]+0\b/.test(args)) continue;
      return `${name} ${args}`.slice(0, 80);
    }
  }
  return null;
}

/** Git putting back a supervision file as a commit has it (`git checkout -- .claude/settings.json`, `git restore`, `git stash push`): hooks added since go. */
function revertsSupervision(action: ParsedAction): string | null {
  for (const segment of action.segments) {
    if (segment.program !== 'git') continue;
    const at = gitSubcommandIndex(segment.argv);
    const sub = segment.argv[at];
    if (!/^(?:checkout|restore|stash)$/.test(sub ?? '')) continue;
    // `git restore --staged` only unstages: the file stays as it is.
    if (sub === 'restore' && segment.argv.some((a) => a === '--staged' || a === '-S') && !segment.argv.some((a) => a === '--worktree' || a === '-W')) continue;
    const where = segmentDirectory(segment, action.cwd) ?? action.cwd;
    const file = segment.argv.slice(at + 1).find((a) => !a.startsWith('-') && isSupervisionFile(resolvePath(a, where)) && !belowTheProject(resolvePath(a, where), action.cwd));
    if (file) return REASON(file);
  }
  return null;
}

function tampering(action: ParsedAction): string | null {
  const written = action.writtenPaths.find((p) => isSupervisionFile(p) && !belowTheProject(p, action.cwd));
  if (written !== undefined) return REASON(written);
  const stopped = stopsWarden(action);
  if (stopped) return `${stopped} stops or removes Warden, the supervisor of this agent; that is not allowed. Ask the user if Warden needs to stop.`;
  const reverted = revertsSupervision(action);
  if (reverted) return reverted;
  const lineMentionsSwitch = /disableallhooks/i.test(action.command ?? '');
  for (const segment of action.segments) {
    const name = segment.program;
    const off = hookSwitchedOff(segment.argv, name, lineMentionsSwitch);
    if (off) return `${off} switches off the hooks that configure Warden's supervision of this agent; that is not allowed. Ask the user if the hooks need to change.`;
    if (REMOVERS.has(name)) {
      const target = segment.argv.slice(1).find((a) => {
        if (a.startsWith('-')) return false;
        const path = resolvePath(a, action.cwd);
        return (SUPERVISION_DIRECTORY.test(path) || isSupervisionFile(path)) && !belowTheProject(path, action.cwd);
      });
      if (target !== undefined) return REASON(target);
    }
    const code = inlineCodeText(segment);
    if (code && SUPERVISION_IN_CODE.test(code) && WRITES_IN_CODE.test(code)) return REASON(`The file this ${name} code writes`);
  }
  // cmd and PowerShell lines as they split them (`cmd /c del %USERPROFILE%\.codex\hooks.json`, `Set-Content .claude\settings.json`).
  for (const { program, args } of windowsCommands(action)) {
    if (!(REMOVERS.has(program) || /^(?:set-content|add-content|out-file|copy-item|copy|move|xcopy|robocopy|clear-content|new-item)$/.test(program))) continue;
    const hit = SUPERVISION_IN_CODE.exec(args);
    if (hit) return REASON(hit[0]);
  }
  return null;
}
