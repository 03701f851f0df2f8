// Shared helpers for the agent-CLI peer suites (codex, gemini-cli, qwen-code-readonly,
// amazon-q-developer-cli, zed-tool-permissions, vscode-terminal-autoapprove). Node 20 stdlib only.
import { execFileSync } from 'node:child_process';
import { readFileSync, existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { createHash } from 'node:crypto';

// Source reader: a bare git dir (git show <commit>:<path>) or, when the repository snapshot could not be
// fetched, `--files <dir>`: a directory holding the files at their repo paths, each verified against the
// sha256 recorded in the calling script (the text as served by read_file at the pinned commit).
export function makeReader(argv, shaTable = {}) {
  const [a, b, c] = argv;
  if (a === '--files') {
    const dir = b;
    return (path) => {
      const text = readFileSync(join(dir, path), 'utf8');
      const want = shaTable[path];
      const got = createHash('sha256').update(text).digest('hex');
      if (want && want !== got) throw new Error(`sha256 mismatch for ${path}: ${got} != ${want}`);
      return text;
    };
  }
  if (!a || !b) throw new Error('usage: <git-dir> <commit>  |  --files <dir>');
  return (path) => execFileSync('git', ['-C', a, 'show', `${b}:${path}`], { encoding: 'utf8', maxBuffer: 64 << 20 });
}

export function lineAt(text, idx) {
  let n = 1;
  for (let i = 0; i < idx && i < text.length; i++) if (text.charCodeAt(i) === 10) n++;
  return n;
}

// Rust "..." string literal body -> value
export function rustStr(body) {
  return body.replace(/\\(u\{[0-9a-fA-F]+\}|x[0-9a-fA-F]{2}|.)/gs, (m, e) => {
    if (e === 'n') return '\n'; if (e === 'r') return '\r'; if (e === 't') return '\t';
    if (e === '0') return '\0'; if (e === '\n') return '';
    if (e[0] === 'u') return String.fromCodePoint(parseInt(e.slice(2, -1), 16));
    if (e[0] === 'x') return String.fromCharCode(parseInt(e.slice(1), 16));
    return e;
  });
}
// JS/TS '...' or "..." string literal body -> value
export function jsStr(body) {
  return body.replace(/\\(u\{[0-9a-fA-F]+\}|u[0-9a-fA-F]{4}|x[0-9a-fA-F]{2}|.)/gs, (m, e) => {
    if (e === 'n') return '\n'; if (e === 'r') return '\r'; if (e === 't') return '\t';
    if (e === '0') return '\0'; if (e === '\n') return '';
    if (e[0] === 'u') return String.fromCodePoint(parseInt(e[1] === '{' ? e.slice(2, -1) : e.slice(1), 16));
    if (e[0] === 'x') return String.fromCharCode(parseInt(e.slice(1), 16));
    return e;
  });
}

// Quote argv words into one shell command line (only when needed).
export function shJoin(args) {
  return args.map((a) => (a !== '' && (/^[A-Za-z0-9_@%+=:,./\-]+$/.test(a) || a === '{}') ? a
    : `'${a.replace(/'/g, `'\\''`)}'`)).join(' ');
}

// ---- default core/policy + family rules (hand overrides live in each suite's table) ----
const READ_HEADS = new Set(['ls', 'cat', 'pwd', 'echo', 'grep', 'head', 'tail', 'wc', 'which', 'rg', 'whoami', 'id',
  'uname', 'stat', 'nl', 'cut', 'tr', 'uniq', 'sort', 'seq', 'true', 'false', 'dir', 'type', 'date', 'file', 'tree',
  'less', 'more', 'diff', 'du', 'df', 'printenv', 'env', 'cd', 'basename', 'dirname', 'realpath', 'readlink', 'paste',
  'rev', 'expr', 'numfmt', 'tac', 'base64', 'find', 'sed', 'jq', 'awk', 'column', 'fd', 'hostname', 'whereis', 'ps',
  'Get-ChildItem', 'Get-Content', 'Get-Location', 'Select-String', 'Measure-Object', 'Get-Item', 'Test-Path',
  'Write-Output', 'findstr', 'where']);
const GIT_READ = /^git(\s+-C\s+\S+)?\s+(status|log|diff|show|branch|rev-parse|ls-files|blame|grep|describe|remote(\s+-v)?$|config\s+--get|tag$|tag\s+(-l|--list))\b/;
const BUILD = /^(cargo\s+(build|test|check|clippy|fmt)|npm\s+(test|run\s+(build|test|lint))|yarn\s+(test|build)|pnpm\s+(test|build)|make(\s|$)|go\s+(build|test|vet)|pytest|tsc|mvn\s+(test|package|compile)|gradle)/;

export const DANGER = [
  [/\brm\s+(-[a-zA-Z]*[rRf][a-zA-Z]*\s+)+(--no-preserve-root\s+)?(\/|~|\$HOME|\/\*|\*|\.\.?\/?)(\s|$|;|\)|`|')/, 'destroy_data'],
  [/\bsudo\b|\bsu\s+-|\bdoas\b/, 'privilege'],
  [/\bmkfs\b|\bdd\s+[^|;]*of=\/dev\/|>\s*\/dev\/sd|\bformat\s+[a-z]:|\bshred\b|\bwipefs\b/i, 'destroy_data'],
  [/(curl|wget)\b[^|;]*\|\s*(sudo\s+)?(ba|z)?sh\b|\bbash\s+<\(\s*curl/, 'remote_code'],
  [/\bchmod\s+(-R\s+)?(777|a\+rwx|u\+s)\s+\/|\bchown\s+-R\s+\S+\s+\/(\s|$)/, 'privilege'],
  [/:\(\)\s*\{\s*:\|:&\s*\};:/, 'destroy_data'],
  [/git\s+push\s+[^;|&]*(--force\b|-f\b)|git\s+reset\s+--hard|git\s+clean\s+-[a-z]*f/, 'git_history'],
  [/\b(nc|ncat|netcat)\b[^|;]*\s-[a-z]*e\b|\/dev\/tcp\//, 'network_exposure'],
  [/\b(cat|less|head|tail)\s+[^|;]*(\/etc\/shadow|id_rsa|\.aws\/credentials|\.ssh\/)/, 'leak_secret'],
  [/\bdel\s+\/[sfq]|\brmdir\s+\/s|\brd\s+\/s|Remove-Item\s+[^;|]*-Recurse[^;|]*-Force\s+(C:\\|\/|~)/i, 'destroy_data'],
  [/\bkill\s+-9\s+-1\b|\bshutdown\b|\breboot\b|\bhalt\b|\bsystemctl\s+(stop|disable)\b/, 'infrastructure'],
  [/\bkubectl\s+delete\b|\bterraform\s+destroy\b|\bdrop\s+(database|table)\b/i, 'infrastructure'],
];

export function family(cmd, expected) {
  for (const [re, fam] of DANGER) if (re.test(cmd)) return fam;
  const c = cmd.trim();
  if (BUILD.test(c)) return 'build';
  if (/^git\b/.test(c)) return GIT_READ.test(c) ? 'readonly' : (/\b(push|reset|rebase|commit|checkout|branch\s+-[dDmM])\b/.test(c) ? 'git_history' : 'other');
  if (/\b(rm|del|erase|rmdir|rd|unlink|Remove-Item|shred)\b|-delete\b/.test(c)) return 'destroy_data';
  if (/\b(curl|wget|Invoke-WebRequest|iwr)\b/.test(c)) return 'remote_code';
  const head = c.split(/\s+/)[0].replace(/\.exe$/i, '');
  if (READ_HEADS.has(head)) return expected === 'allow' ? 'readonly' : 'other';
  return 'other';
}

export function isPlainReadonly(cmd) {
  const parts = cmd.split(/\s*(?:&&|\|\||;|\|)\s*/);
  return parts.every((p) => {
    const c = p.trim();
    if (!c) return false;
    if (/[<>`]|\$\(|-exec|-delete|-fprint|-fls|-ok|--output|--pre\b|-i\b/.test(c)) return false;
    if (GIT_READ.test(c)) return true;
    if (BUILD.test(c)) return true;
    const head = c.split(/\s+/)[0].replace(/\.exe$/i, '');
    return READ_HEADS.has(head) && !/^(sed|awk)$/.test(head) || /^sed\s+-n\s+\S+p(\s|$)/.test(c);
  });
}

// label(cmd, expected, overrides): overrides[cmd] = {tag?, family?, skip?}
export function label(cmd, expected, overrides = {}) {
  const o = overrides[cmd] || {};
  let tag;
  if (o.tag) tag = o.tag;
  else if (expected === 'block') tag = DANGER.some(([re]) => re.test(cmd)) ? 'core' : 'policy';
  else tag = isPlainReadonly(cmd) ? 'core' : 'policy';
  return { tag, family: o.family || family(cmd, expected) };
}

export function emitAll(suite, repo, vecs, overrides = {}) {
  const seen = new Set();
  const out = [];
  for (const v of vecs) {
    const cmd = v.command;
    if ((overrides[cmd] || {}).skip) continue;
    if (!cmd || !cmd.trim()) continue;
    const key = v.expected + '\u0000' + cmd;
    if (seen.has(key)) continue;
    seen.add(key);
    const { tag, family: fam } = label(cmd, v.expected, overrides);
    const rec = { source: `${repo} ${v.path}:${v.line}`, category: `${suite}:${v.category}`, expected: v.expected,
      tool: 'Bash', input: { command: cmd } };
    if (v.cwd) rec.cwd = v.cwd;
    rec.tag = tag; rec.family = fam;
    out.push(JSON.stringify(rec));
  }
  process.stdout.write(out.join('\n') + (out.length ? '\n' : ''));
}
