import { tildeForm, isCredentialStorePath, listsNames } from '@warden/actions';
import { commandName } from '../parsing/command-facts.js';
import type { ParsedAction } from '../parsing/parsed-action.js';
import { builtInRule } from './built-in-rule.js';
import { isSecretFile } from './secret-files.js';

/** Files whose change hands out access to the machine: never written by an agent. */
const ACCESS_FILES = /^(?:\/etc\/(?:sudoers(?:\.d\/.*)?|passwd|shadow|group|gshadow|pam\.d\/.*|ssh\/sshd_config)|~\/\.ssh\/authorized_keys\d?|\/root\/\.ssh\/.*|\/home\/[^/]+\/\.ssh\/authorized_keys\d?)$/;
/** Files that run at every login or shell start: a change there outlives the session. */
const STARTUP_FILES = /^(?:~|\/home\/[^/]+|\/root|\/Users\/[^/]+)\/\.(?:bashrc|bash_profile|profile|zshrc|zprofile|zshenv|config\/fish\/config\.fish)$|^\/etc\/(?:profile|environment|bash\.bashrc|profile\.d\/.*)$/;
/** A dot-directory of the home directory and what is in it (`~/.cache/x`, `~/.superstack/config.json`), not a shell's or tool's rc file. */
const TOOL_STATE = /^~\/\.[\w.-]+\/.|^~\/\.(?![\w-]*(?:rc|profile|env|config|credentials|history)$)[\w-]+$/;
/** Toolchains' and tools' own files, public keys: reading them is how a build is set up (`source "$HOME/.cargo/env"`). */
export function isToolchainFile(path: string): boolean {
  return TOOLCHAIN_READS.test(tildeForm(path));
}
const TOOLCHAIN_READS = /^~\/\.(?:cargo|rustup|nvm|pyenv|rbenv|sdkman|volta|bun|deno|asdf|tool-versions|gitconfig|gitignore_global|local\/bin|local\/share\/(?:pnpm|mise)|config\/(?:git|mise|gh\/config\.yml))(?:\/|$)|\.pub$|^~\/\.ssh\/(?:known_hosts|config)$|(?:^|\/)(?:package\.json|tsconfig(?:\.[\w-]+)?\.json|pyproject\.toml|Cargo\.toml|go\.mod)$/;
/** Reading here is how agents learn about the machine; harmless. */
const SYSTEM_READS = /^\/(?:usr|proc|sys|opt|lib|lib64|bin|sbin|var\/log|System\/Library|Library\/(?:Developer|Frameworks|Java)|Applications\/[^/]+\.app|etc\/(?:os-release|lsb-release|hostname|hosts|resolv\.conf|timezone|passwd|group|[\w-]+-release))(?:\/|$)/;

/** Where reading is how an agent learns about the machine and its tools: system directories, toolchains, public keys. */
export function isHarmlessRead(path: string): boolean {
  return SYSTEM_READS.test(path) || isToolchainFile(path);
}
/** Private keys and cloud credentials: reading them puts them into the model's context and transcript. */
const PRIVATE_KEYS = /(?:^|\/)(?:id_(?:rsa|dsa|ecdsa|ed25519)|[^/]+\.pem|[^/]+\.key|\.config\/gcloud\/[^/]*credentials[^/]*|\.azure\/[^/]*token[^/]*)$/;
const isPrivateKeyOrStore = (path: string) => PRIVATE_KEYS.test(path) || isCredentialStorePath(path);

export const writeOutsideProjectRule = builtInRule({
  name: 'write_outside_project',
  description: "Writing outside the session's expected paths needs approval; files that grant access to the machine are never written.",
  reads: 'session',
  check({ action, inScope }) {
    const outside = action.writtenPaths.filter((p) => !inScope(p));
    if (!outside.length || action.intent === 'file_deletion') return null;
    const access = outside.find((p) => ACCESS_FILES.test(p) || ACCESS_FILES.test(tildeForm(p)));
    if (access) {
      return {
        verdict: 'block',
        score: 0.95,
        factors: ['out_of_scope', 'privilege', 'access_control'],
        reason: `${access} controls who can log in or become administrator. An agent never changes it.`,
        alternative: 'Tell the user which access change the task needs; they can make it themselves.',
      };
    }
    const startup = outside.find((p) => STARTUP_FILES.test(p) || STARTUP_FILES.test(tildeForm(p)));
    // A tool's own state in its dot-directory under home (`~/.superstack/telemetry.jsonl`): outside the project, and nothing that runs or grants access.
    if (!startup && outside.every((p) => TOOL_STATE.test(tildeForm(p)) && !isSecretFile(p))) {
      return {
        verdict: 'warn',
        score: 0.55,
        factors: ['out_of_scope'],
        reason: `${outside[0]} is outside the project: a tool's own files in your home directory. Make sure the task calls for changing them.`,
      };
    }
    return {
      verdict: 'require_approval',
      score: 0.8,
      factors: ['out_of_scope', ...(startup ? ['persistence'] : [])],
      reason: startup
        ? `${startup} runs at every shell start: a change there outlives this session and affects everything the user runs. A person must approve it.`
        : `${outside[0]} is outside the paths this task is expected to touch. A person must approve writing there.`,
      alternative: 'Keep changes inside the project; if the task needs a file elsewhere, say so and let the user decide.',
    };
  },
});

/** Programs that show names and metadata of what they are given, not its content. */
const LISTING_PROGRAMS = new Set(['ls', 'dir', 'tree', 'stat', 'du', 'exa', 'eza', 'lsd', 'get-childitem', 'gci', 'test', '[', '[[', 'cd', 'pwd', 'echo', 'printf', 'true']);

/**
 * A line or a tool that only lists (`ls -la ~/.ssh`, a Glob of `~/.aws/*`): the names of keys are no keys. Any other
 * program in the line, an input redirection or a nested command reads.
 */
function onlyLists(action: ParsedAction): boolean {
  if (!action.segments.length) return action.command === undefined && listsNames(action.tool);
  return action.segments.every((s) => !s.nested && LISTING_PROGRAMS.has(commandName(s).toLowerCase()) && !s.redirects.some((r) => r.operator.startsWith('<')));
}

export const secretFileReadRule = builtInRule({
  name: 'secret_file_read',
  description: 'Reading private keys and cloud credentials, or secret files outside the project, needs approval.',
  reads: 'session',
  check({ action, inScope }) {
    if (action.intent === 'file_deletion' || onlyLists(action)) return null;
    const read = action.paths.filter((p) => !action.writtenPaths.includes(p));
    const hit = read.find(isPrivateKeyOrStore) ?? read.find((p) => isSecretFile(p) && !inScope(p));
    if (!hit) return null;
    return {
      verdict: 'require_approval',
      score: 0.8,
      factors: ['secrets', 'out_of_scope'],
      reason: `${hit} holds credentials. Reading it copies them into the conversation and its logs; a person must approve that.`,
      alternative: 'Check that a credential is configured without printing it, e.g. test -f <file> or the tool’s own status command.',
    };
  },
});

export const readOutsideProjectRule = builtInRule({
  name: 'read_outside_project',
  description: "Looking outside the session's expected paths (home directory, other projects) warns.",
  reads: 'session',
  check({ action, inScope }) {
    if (!action.readOnly) return null;
    const outside = action.paths.find((p) => !inScope(p) && !SYSTEM_READS.test(p) && !isToolchainFile(p));
    if (!outside) return null;
    return {
      verdict: 'warn',
      score: 0.5,
      factors: ['out_of_scope'],
      reason: `${outside} is outside the paths this task is expected to touch. Stay within the project unless the task needs more.`,
    };
  },
});
