import type { Severity } from '@warden/contracts';
import type { Step } from '../action-step.js';
import { severityFor, severityRank } from '../detector-settings.js';
import { isCredentialStorePath, isFileOfHome, scopeIsHome, type PathMatcher } from '@warden/actions';
import { compiledMatcher } from '../settings-globs.js';
import { shellWrittenFiles } from '../signals.js';
import { confidenceFrom, lastIds, type Finding, type SessionView } from './detector.js';


const ROOTS = new Set(['~', '/', '/home', '/Users']);
/** A plain directory listing, alone or filtered (`ls -la ~/AppData/Local | grep -i claude`). */
const LISTING = /^(?:ls|dir|get-childitem|gci)\b[^;&]*$/i;
const isRoot = (path: string, home: string | undefined) => ROOTS.has(path) || path === home;

/**
 * Looking for a program by name (`find / -name go -type f -executable`): asking where a tool is, not reading
 * the disk. Every name searched is a bare program name (no wildcard, no extension), or only executables are.
 */
function findsProgram(command: string): boolean {
  if (/\s-executable\b/.test(command)) return true;
  const names = [...command.matchAll(/\s-i?name\s+["']?([^\s"']+)/g)].map((m) => m[1]!);
  if (names.length > 0 && names.every((name) => /^[\w+-]+$/.test(name))) return true;
  // One file known by its name and place (`-path "*/k8s.io/api@v0.35.0/resource/v1/types.go"`: a dependency's source):
  // its last part written out, no wildcard, and nothing that holds secrets.
  const patterns = [...command.matchAll(/\s-i?(?:name|path|wholename)\s+["']?([^\s"']+)/g)].map((m) => m[1]!);
  return patterns.length > 0 && patterns.every((p) => /(?:^|\/)[\w@+.-]+\.\w+$/.test(p) && !/[*?[]/.test(p.slice(p.lastIndexOf('/') + 1)) && !SECRET_NAME.test(p));
}
/** Names of files that hold secrets: a search for one is a search for secrets, however exact. */
const SECRET_NAME = /id_(?:rsa|dsa|ecdsa|ed25519)|\.env\b|credential|secret|token|passw|\.pem$|\.key$|\.p12$|\.pfx$|\.npmrc|\.netrc|\.pgpass|\.kdbx|wallet/i;

/**
 * Searching a whole home directory or the file system root. A plain `ls` of it only looks around. A session
 * started in its home searches the directory it was started in when it searches that home (`find ~ -maxdepth 3
 * -name 'grant*.md'`): only the root and the place where homes are kept are beyond it.
 */
function isBroadScan(step: Step, home: string | undefined, startedInHome: boolean): boolean {
  const broad = (p: string) => (startedInHome ? ROOTS.has(p) && p !== '~' && p !== home : isRoot(p, home));
  if (step.op === 'search') return !!step.paths?.some(broad);
  if (!step.cmd) return false;
  if (/^find\b/.test(step.cmd) && findsProgram(step.cmd)) return false;
  const scan = /^(find|du|tree|grep|rg|locate|fd)\b/.test(step.cmd) || /^ls\b[^|;&]*\s-[a-zA-Z]*R/.test(step.cmd);
  return scan && !!step.paths?.some(broad);
}

/** Whether a path is ignored or a secret, per settings: the same paths recur, so the answers are kept (bounded). */
const classified = new Map<string, { ignored: boolean; secret: boolean }>();
const MAX_CLASSIFIED = 20_000;
function classify(path: string, ignored: PathMatcher, secret: PathMatcher, settingsKey: string) {
  const key = `${settingsKey}\u0000${path}`;
  let found = classified.get(key);
  if (!found) {
    if (classified.size >= MAX_CLASSIFIED) classified.clear();
    // A credential store of the shared table (an agent's or a CLI's login: `~/.codex/auth.json`, `~/.cargo/credentials`)
    // is a secret even in a directory otherwise ignored (the agent's own home, a toolchain's).
    const store = isCredentialStorePath(path);
    found = { ignored: ignored(path) && !store, secret: store || secret(path) };
    classified.set(key, found);
  }
  return found;
}
const settingsKeys = new WeakMap<object, string>();
let keySequence = 0;

const max = (a: Severity | undefined, b: Severity): Severity => (a && severityRank(a) >= severityRank(b) ? a : b);

/**
 * Actions outside the session's declared scope (its working directory and expected paths): other
 * projects' files, scans of the home directory, secrets read from outside — and worst, secrets copied
 * from there into the project. Toolchain and cache directories are not scope creep.
 */
export function detectScopeCreep(view: SessionView): Finding | undefined {
  const settings = view.settings.scope_creep;
  const ignored = compiledMatcher(settings.ignored_paths);
  const secret = compiledMatcher(settings.secret_paths);
  let settingsKey = settingsKeys.get(settings);
  if (!settingsKey) settingsKeys.set(settings, (settingsKey = String(++keySequence)));
  const outside = new Set<string>();
  const startedInHome = scopeIsHome(view.state.context.cwd, view.state.context.expected_paths);
  const evidence: string[] = [];
  const scans: string[] = [];
  const secretsRead: string[] = [];
  const copiedInto: string[] = [];
  let secretReadSeen = false;
  for (const step of view.completed) {
    let involved = false;
    if (isBroadScan(step, view.home, startedInHome)) {
      scans.push(step.cmd ?? step.paths?.[0] ?? step.id);
      involved = true;
    }
    const outsidePaths: string[] = [];
    const insidePaths: string[] = [];
    let outsideSecret = false;
    // Listing a directory (not recursively) shows names, not what is in the files: looking around, unless it is a
    // place that holds secrets.
    const listing = !!step.cmd && LISTING.test(step.cmd) && !/\s-[a-zA-Z]*R/.test(step.cmd);
    if (view.inScope) {
      for (const p of step.paths ?? []) {
        // A file directly in the home (in scope when the session started there) is where its user keeps copies, not a
        // project a secret would be committed with: a backup of a login there is read, not copied into the project.
        if (view.inScope(p)) {
          if (!view.home || !isFileOfHome(p, view.home)) insidePaths.push(p);
        } else if (p !== '.' && !isRoot(p, view.home)) {
          const kind = classify(p, ignored, secret, settingsKey);
          if (kind.ignored || (listing && !kind.secret)) continue;
          outsidePaths.push(p);
          if (kind.secret) {
            outsideSecret = true;
            if (!secretsRead.includes(p)) secretsRead.push(p);
          }
        }
      }
    }
    for (const path of outsidePaths) {
      outside.add(path);
      involved = true;
    }
    if (outsideSecret) secretReadSeen = true;
    // A copy from an outside secret into the project, or a write into the project of secret values after reading one outside.
    if (outsideSecret && insidePaths.length && (COPY.test(step.cmd ?? '') || writesInside(step.cmd, insidePaths))) {
      copiedInto.push(...insidePaths);
      involved = true;
    } else if (secretReadSeen && step.op === 'write' && insidePaths.length && !!step.marks?.includes('secret')) {
      copiedInto.push(...insidePaths);
      involved = true;
    }
    if (involved) evidence.push(step.id);
  }
  if (!evidence.length) return undefined;
  let severity = severityFor(settings.severity, outside.size);
  if (scans.length) severity = max(severity, 'medium');
  if (secretsRead.length) severity = max(severity, 'high');
  if (copiedInto.length) severity = max(severity, 'critical');
  if (!severity) return undefined;
  const newest = [...outside].pop();
  const description = copiedInto.length
    ? `Secrets from outside the project (${secretsRead.join(', ')}) were copied into ${[...new Set(copiedInto)].join(', ')}.`
    : secretsRead.length
      ? `The agent read secrets outside the project: ${secretsRead.slice(0, 3).join(', ')}.`
      : scans.length
        ? `The agent scanned beyond the project (${scans[0]!.slice(0, 80)}) and touched ${outside.size} path(s) outside it.`
        : `The agent touched ${outside.size} path(s) outside the session's expected paths, most recently ${newest}.`;
  return {
    severity,
    confidence: confidenceFrom(copiedInto.length || secretsRead.length ? 0.9 : 0.6, 0.05 * outside.size),
    ...(copiedInto.length ? { impact: 1 } : secretsRead.length ? { impact: 0.8 } : {}),
    description,
    evidence: lastIds(evidence),
    details: {
      out_of_scope_path: newest ?? null,
      out_of_scope_paths: [...outside].slice(-10),
      out_of_scope_count: outside.size,
      expected_paths: view.state.context.expected_paths ?? [],
      cwd: view.state.context.cwd ?? null,
      broad_scans: scans.slice(-5),
      secrets_read: secretsRead.slice(-5),
      secrets_copied_into: [...new Set(copiedInto)].slice(-5),
    },
    magnitude: outside.size + scans.length * 3 + secretsRead.length * 3 + copiedInto.length * 5,
  };
}

/** A command of the line that copies or moves files (its destination is among the paths it names). */
const COPY = /(?:^|[;&|]\s*)(?:sudo\s+)?(?:cp|rsync|scp|mv|install)\s/;

/** Whether the command writes through the shell (a redirection, tee) to one of the project's paths it names. */
function writesInside(command: string | undefined, insidePaths: readonly string[]): boolean {
  if (!command) return false;
  return shellWrittenFiles(command).some((file) => {
    const tail = file.replace(/^\.\//, '').replace(/\\/g, '/');
    return insidePaths.some((path) => path === file || path.endsWith(`/${tail}`));
  });
}
