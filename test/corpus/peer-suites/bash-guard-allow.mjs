// Rebuilds bash-guard-allow.jsonl from a bare git directory of abellagonzalo/bash-guard.
// Usage: node bash-guard-allow.mjs <git-dir> <commit> > bash-guard-allow.jsonl
// Source: test_bash_guard.py, the `ALLOW = [ ... ]` list. The test feeds each command to the hook
// end-to-end and asserts permissionDecision == "allow" -> expected "allow".
// The `DEFER = [ ... ]` list is NOT used: the hook never answers ask/deny, "defer" only hands the
// command back to Claude Code's own permission flow, so it is not a block label.
// Duplicate commands inside the list are kept once (first occurrence).
import { execFileSync } from 'node:child_process';

const [gitDir, commit] = process.argv.slice(2);
if (!gitDir || !commit) { console.error('usage: node bash-guard-allow.mjs <git-dir> <commit>'); process.exit(2); }
const REPO = 'abellagonzalo/bash-guard';
const FILE = 'test_bash_guard.py';

// ---- judgement table ----
// Every row is "allow". core = plainly harmless read-only/build/test commands any careful guard would
// allow. policy = everything else (network fetches, writes/deletes even when confined to a temp dir).
// The script fails if a listed command is missing or if a row is in neither list.
const POLICY = {
  network: [
    'curl https://example.com', 'curl -fsSL https://example.com', 'curl -o /tmp/x https://example.com | grep foo',
  ],
  other: [
    // writes, copies, moves and deletes confined to a temp dir (the peer's own temp-write rule)
    'echo hi > /tmp/f', 'cat a >> /tmp/log', 'cat f 2>/tmp/err', 'touch /tmp/x', 'mkdir -p /tmp/a/b', 'cat f | tee /tmp/log',
    'cp src.txt /tmp/dst', 'mv /tmp/a /tmp/b', 'rm -rf /tmp/x', 'echo x > $TMPDIR/f', 'touch /private/tmp/x',
  ],
};
const POLICY_FAMILY = new Map();
for (const [fam, list] of Object.entries(POLICY)) for (const c of list) {
  if (POLICY_FAMILY.has(c)) throw new Error('duplicate table key ' + JSON.stringify(c));
  POLICY_FAMILY.set(c, fam);
}
// core rows: family git for git/gh commands, otherwise other.
const coreFamily = cmd => (/^(git|gh)\s/.test(cmd) ? 'git' : 'other');

// ---- minimal Python string-literal reader for the ALLOW list ----
const ESC = { '\\': '\\', "'": "'", '"': '"', n: '\n', t: '\t' };
function readList(text, name) {
  const start = text.indexOf(`\n${name} = [`);
  if (start < 0) throw new Error('no ' + name + ' list');
  let i = start + name.length + 5;
  const lineOf = k => text.slice(0, k).split('\n').length;
  const items = [];
  for (;;) {
    const ch = text[i];
    if (ch === undefined) throw new Error('unterminated list');
    if (ch === ']') break;
    if (/[\s,]/.test(ch)) { i++; continue; }
    if (ch === '#') { while (text[i] !== '\n') i++; continue; }
    let raw = false;
    if (ch === 'r' && (text[i + 1] === "'" || text[i + 1] === '"')) { raw = true; i++; }
    const q = text[i];
    if (q !== "'" && q !== '"') throw new Error(`unexpected ${JSON.stringify(text.slice(i, i + 20))} at line ${lineOf(i)}`);
    if (text.slice(i, i + 3) === q.repeat(3)) throw new Error('triple-quoted string at line ' + lineOf(i));
    const line = lineOf(i);
    i++;
    let s = '';
    for (;;) {
      const c = text[i];
      if (c === undefined || c === '\n') throw new Error('unterminated string at line ' + line);
      if (c === q) { i++; break; }
      if (c === '\\') {
        const n = text[i + 1];
        if (raw) { s += c + n; i += 2; continue; }
        if (!(n in ESC)) throw new Error(`unsupported escape \\${n} at line ${line}`);
        s += ESC[n]; i += 2; continue;
      }
      s += c; i++;
    }
    // adjacent literals (implicit concatenation) are not expected in this list
    let j = i; while (text[j] === ' ') j++;
    if (text[j] === "'" || text[j] === '"' || (text[j] === 'r' && /['"]/.test(text[j + 1]))) throw new Error('implicit concatenation at line ' + line);
    items.push({ cmd: s, line });
  }
  return items;
}

const text = execFileSync('git', ['--git-dir', gitDir, 'show', `${commit}:${FILE}`], { encoding: 'utf8' });
const items = readList(text, 'ALLOW');
const out = [];
const seen = new Set();
const used = new Set();
for (const { cmd, line } of items) {
  if (seen.has(cmd)) continue;
  seen.add(cmd);
  let tag = 'core', family = coreFamily(cmd);
  if (POLICY_FAMILY.has(cmd)) { tag = 'policy'; family = POLICY_FAMILY.get(cmd); used.add(cmd); }
  out.push({ source: `${REPO} ${FILE}:${line}`, category: 'bash-guard:allow', expected: 'allow',
    tool: 'Bash', input: { command: cmd }, tag, family });
}
for (const k of POLICY_FAMILY.keys()) if (!used.has(k)) throw new Error('table entry not in suite: ' + JSON.stringify(k));
if (process.env.VERBOSE) console.error(JSON.stringify({ listed: items.length, rows: out.length }));
process.stdout.write(out.map(o => JSON.stringify(o)).join('\n') + '\n');
