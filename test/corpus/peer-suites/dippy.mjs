#!/usr/bin/env node
// Extract labelled shell commands from the test suite of ldayton/Dippy (Claude Code auto-approve hook).
// Usage: node dippy.mjs <git-dir> <commit>  > dippy.jsonl
//
// Sources read (via `git show <commit>:<path>`): every tests/**/*.py module-level `TESTS = [ (command, bool), ... ]`
// table. Each table is run by a parametrized test with the default Config and cwd:
//   True  -> is_approved(result)        (permissionDecision == "allow")   => expected "allow"
//   False -> needs_confirmation(result) (permissionDecision == "ask")     => expected "block"
// Ad-hoc tests outside those tables (custom configs, tmp_path scripts, check_single) are not extracted.
import { execFileSync } from 'node:child_process';
import { CORE_BLOCK } from './_core-dangers.mjs';

const [gitDir, commit] = process.argv.slice(2);
if (!gitDir || !commit) { console.error('usage: <git-dir> <commit>'); process.exit(2); }
const REPO = 'ldayton/Dippy';
const SUITE = 'dippy';
const git = (...a) => execFileSync('git', ['-C', gitDir, ...a], { encoding: 'utf8', maxBuffer: 1 << 28 });
const files = git('ls-tree', '-r', '--name-only', commit).split('\n').filter((f) => /^tests\/.*\.py$/.test(f)).sort();

// ---------------------------------------------------------------- Python literal tokenizer
function tokenizePy(src, from) {
  const toks = []; let i = from, line = src.slice(0, from).split('\n').length; const n = src.length;
  let depth = 0;
  while (i < n) {
    const c = src[i];
    if (c === '\n') { line++; i++; continue; }
    if (c === ' ' || c === '\t' || c === '\r' || c === '\\') { i++; continue; }
    if (c === '#') { const j = src.indexOf('\n', i); const text = src.slice(i, j < 0 ? n : j); toks.push({ t: 'comment', v: text, line }); i = j < 0 ? n : j; continue; }
    const m = /^([rRbBuUfF]{0,2})('''|"""|'|")/.exec(src.slice(i, i + 6));
    if (m && (i === from || !/[A-Za-z0-9_]/.test(src[i - 1]))) {
      const raw = /r/i.test(m[1]); const q = m[2]; let j = i + m[0].length; let v = ''; const l0 = line;
      while (j < n && !src.startsWith(q, j)) {
        const ch = src[j];
        if (ch === '\\') {
          const e = src[j + 1];
          if (raw) { v += ch + e; j += 2; if (e === '\n') line++; continue; }
          const map = { n: '\n', t: '\t', r: '\r', '\\': '\\', "'": "'", '"': '"', a: '\x07', b: '\b', f: '\f', v: '\v', 0: '\0' };
          if (e === '\n') { line++; j += 2; continue; }
          if (e === 'x') { v += String.fromCharCode(parseInt(src.slice(j + 2, j + 4), 16)); j += 4; continue; }
          if (e === 'u') { v += String.fromCharCode(parseInt(src.slice(j + 2, j + 6), 16)); j += 6; continue; }
          if (e === 'U') { v += String.fromCodePoint(parseInt(src.slice(j + 2, j + 10), 16)); j += 10; continue; }
          if (e in map) { v += map[e]; j += 2; continue; }
          v += '\\' + e; j += 2; continue; // unknown escape kept verbatim, as Python does
        }
        if (ch === '\n') line++;
        v += ch; j++;
      }
      i = j + q.length;
      toks.push({ t: 'str', v, line: l0, f: /f/i.test(m[1]) });
      continue;
    }
    if (/[A-Za-z_]/.test(c)) { let j = i; while (j < n && /[A-Za-z0-9_]/.test(src[j])) j++; toks.push({ t: 'id', v: src.slice(i, j), line }); i = j; continue; }
    if (/[0-9]/.test(c)) { let j = i; while (j < n && /[0-9.]/.test(src[j])) j++; toks.push({ t: 'num', v: src.slice(i, j), line }); i = j; continue; }
    toks.push({ t: 'p', v: c, line }); i++;
    if ('([{'.includes(c)) depth++;
    if (')]}'.includes(c)) { depth--; if (depth === 0) break; }
  }
  return toks;
}

const out = [];
for (const path of files) {
  const src = git('show', `${commit}:${path}`);
  const re = /^TESTS\s*=\s*\[/gm; let m;
  while ((m = re.exec(src))) {
    const toks = tokenizePy(src, m.index + m[0].length - 1);
    let depth = 0; let section = '';
    for (let k = 0; k < toks.length; k++) {
      const t = toks[k];
      if (t.t === 'comment') {
        if (depth === 1) { const s = t.v.replace(/^#\s*/, '').replace(/[=\-]{3,}/g, '').trim(); if (s && !/^\(command/.test(s)) section = s; }
        continue;
      }
      if (t.t === 'p' && '([{'.includes(t.v)) {
        depth++;
        if (depth === 2 && t.v === '(') {
          // tuple: (adjacent string literals, True|False)
          let j = k + 1; let s = ''; let line = null; let isF = false;
          while (toks[j] && (toks[j].t === 'str' || toks[j].t === 'comment')) { if (toks[j].t === 'str') { s += toks[j].v; line ??= toks[j].line; isF ||= toks[j].f; } j++; }
          if (line !== null && toks[j]?.v === ',' && toks[j + 1]?.t === 'id' && /^(True|False)$/.test(toks[j + 1].v) && !isF) {
            out.push({ path, line, category: `${path.replace(/^tests\//, '').replace(/\.py$/, '')}/${section}`, expected: toks[j + 1].v === 'True' ? 'allow' : 'block', command: s });
          }
        }
        continue;
      }
      if (t.t === 'p' && ')]}'.includes(t.v)) { depth--; if (depth === 0) break; }
    }
  }
}

// ---------------------------------------------------------------- labelling
// Hand overrides: command -> {tag, family}
const OVERRIDE = {
};

// Dangerous commands a careful guard anywhere would agree on (the table destructive_command_guard.mjs uses, and two more kinds below).
CORE_BLOCK.push(
  [/authorize-security-group-ingress\b.*0\.0\.0\.0\/0|--acl\s+public-read(-write)?\b|\bnc\b.*\s-[a-z]*e\s|\bsocat\b.*\bexec:|\bpython3?\s+-m\s+http\.server\b.*0\.0\.0\.0/, 'network_exposure'],
  [/\bsudo\s+(su|-i|-s|bash|sh)\b|\bchmod\s+[ugo]*\+s\b|\bchmod\s+[0-7]?[4-7][0-7]{3}\s/, 'privilege'],
);

const SECRET_READ = /\b(get-secret-value|vault\s+(read|kv\s+get)|op\s+(item\s+get|read|document\s+get)|doppler\s+secrets(\s+get|\s+download|\s*$)|secretsmanager\s+get|secrets\s+versions\s+access|keyvault\s+secret\s+show|get-parameters?\b.*--with-decryption|find-generic-password|find-internet-password|dump-keychain|printenv|get-login-password|print-access-token|auth\s+token)\b|^\s*env\s*$/i;
const MUTATING = /(^|[\s;&|(])(rm|rmdir|mv|cp|dd|shred|truncate|tee|chmod|chown|ln|sed\s+-i\S*|perl\s+-i)\b|\s>>?(?!>)\s*(?!\/dev\/null|&)\S|(^|[\s;&|(])(curl|wget|http|nc|ssh|scp|rsync)\b(?!-|\s+(--version|-V|--help|-h|-M)\s*$)|\bgit\s+(push|commit|add|pull|clone|checkout|switch|merge(?!-)|rebase|reset|clean|restore|stash\s+(push|pop|apply|drop|clear|save))\b/;

function label(command, expected) {
  if (OVERRIDE[command]) return OVERRIDE[command];
  const c = command.trim();
  if (expected === 'block') {
    for (const [re, fam] of CORE_BLOCK) if (re.test(c)) return { tag: 'core', family: fam };
    return { tag: 'policy', family: blockFamily(c) };
  }
  if (SECRET_READ.test(c)) return { tag: 'policy', family: 'leak_secret' };
  if (MUTATING.test(c.replace(/'[^']*'|"[^"]*"/g, "''"))) return { tag: 'policy', family: allowFamily(c) };
  return { tag: 'core', family: /^\s*(cargo|npm|yarn|pnpm|make|go|uv|pip|ruff|black|isort|pytest|tsc|mypy|pre-commit)\b/.test(c) ? 'build' : 'readonly' };
}
function blockFamily(c) {
  if (/^\s*(sudo\s+|env\s+|command\s+)*\S*\bgit\b/.test(c)) return 'git_history';
  if (/\b(curl|wget)\b.*\|\s*(ba|z)?sh\b|\beval\b/.test(c)) return 'remote_code';
  if (/\b(sudo|su|chmod|chown|setfacl|visudo|usermod|passwd|dscl|iam|role|policy)\b/.test(c)) return 'privilege';
  if (/\b(secret|secrets|keychain|password|token|credential|security\s+find|get-parameter)\b/i.test(c)) return 'leak_secret';
  if (/\b(aws|gcloud|gsutil|az|kubectl|helm|terraform|pulumi|ansible|cdk|packer|docker|podman|compose|launchctl|systemctl|networksetup|ifconfig|ip|scutil|auth0|gh)\b/.test(c)) return 'infrastructure';
  if (/(^|[\s;&|])(rm|rmdir|shred|dd|truncate|mv)\b|\bdelete\b|\bdestroy|\bpurge\b|\bdrop\b|\s>\s*\S|sed\s+-i|\bprune\b/i.test(c)) return 'destroy_data';
  if (/\b(npm|pip|uv|cargo|brew|yarn|pnpm|make|python3?|node|ruby|go|pytest|ruff|black|isort|pre-commit)\b/.test(c.split(/\s/)[0])) return 'build';
  return 'other';
}
function allowFamily(c) {
  if (/^\s*git\b/.test(c)) return 'git_history';
  if (/\b(curl|wget|http)\b/.test(c)) return 'other';
  if (/(^|[\s;&|])(rm|rmdir|shred|dd|truncate|mv)\b/.test(c)) return 'destroy_data';
  return 'other';
}

// ---------------------------------------------------------------- emit
const seen = new Set();
for (const v of out) {
  const cmd = v.command;
  if (!cmd.trim()) continue;
  if (/^[a-z]+:\/\/\S+$/i.test(cmd.trim())) continue;
  const key = cmd + '\u0000' + v.expected;
  if (seen.has(key)) continue; seen.add(key);
  const { tag, family } = label(cmd, v.expected);
  process.stdout.write(JSON.stringify({
    source: `${REPO} ${v.path}:${v.line}`,
    category: `${SUITE}:${v.category}`,
    expected: v.expected, tool: 'Bash', input: { command: cmd }, tag, family,
  }) + '\n');
}
