#!/usr/bin/env node
// Extract labelled shell commands from the test suites of
// Dicklesworthstone/destructive_command_guard (dcg).
// Usage: node destructive_command_guard.mjs <git-dir> <commit>  > destructive_command_guard.jsonl
//
// Sources read (all via `git show <commit>:<path>`):
//   src/packs/**/*.rs          pack unit tests: assert_blocks*, assert_allows, assert_safe_pattern_matches,
//                              assert_no_match, test_batch_blocks/allows (string-literal command args only)
//   src/packs/core/filesystem.rs  assert_rm_parser_denies / assert_rm_parser_allows
//   tests/*.rs                 assert_allows_command, assert_denies_with_rule, assert_decision,
//                              assert_hook_denies/allows, check_blocked (string-literal args only)
//   tests/corpus/**/*.toml     regression + canonical corpus ([[case]] command/expected)
//   tests/fixtures/{destructive,safe}_commands.yaml, edge_cases.yaml, scenarios/*.yaml
//   tests/e2e/fixtures/commands/*.txt
import { execFileSync } from 'node:child_process';
import { CORE_BLOCK } from './_core-dangers.mjs';

const [gitDir, commit] = process.argv.slice(2);
if (!gitDir || !commit) { console.error('usage: <git-dir> <commit>'); process.exit(2); }
const REPO = 'Dicklesworthstone/destructive_command_guard';
const SUITE = 'destructive_command_guard';
const git = (...a) => execFileSync('git', ['-C', gitDir, ...a], { encoding: 'utf8', maxBuffer: 1 << 28 });
const show = (p) => git('show', `${commit}:${p}`);
const files = git('ls-tree', '-r', '--name-only', commit).split('\n').filter(Boolean).sort();

// ---------------------------------------------------------------- Rust tokenizer
function tokenizeRust(src) {
  const toks = []; let i = 0, line = 1; const n = src.length;
  const push = (t, v, l) => toks.push({ t, v, line: l });
  while (i < n) {
    const c = src[i];
    if (c === '\n') { line++; i++; continue; }
    if (/\s/.test(c)) { i++; continue; }
    if (c === '/' && src[i + 1] === '/') { while (i < n && src[i] !== '\n') i++; continue; }
    if (c === '/' && src[i + 1] === '*') {
      let depth = 1; i += 2;
      while (i < n && depth) {
        if (src[i] === '/' && src[i + 1] === '*') { depth++; i += 2; continue; }
        if (src[i] === '*' && src[i + 1] === '/') { depth--; i += 2; continue; }
        if (src[i] === '\n') line++; i++;
      }
      continue;
    }
    // raw strings r"..." r#"..."# (also br)
    let m = /^b?r(#*)"/.exec(src.slice(i, i + 40));
    if (m && (i === 0 || !/[A-Za-z0-9_]/.test(src[i - 1]))) {
      const hashes = m[1]; const close = '"' + hashes; const start = i + m[0].length; const l0 = line;
      const end = src.indexOf(close, start);
      const v = src.slice(start, end);
      line += (v.match(/\n/g) || []).length; i = end + close.length; push('str', v, l0); continue;
    }
    if (c === '"' || (c === 'b' && src[i + 1] === '"')) {
      if (c === 'b') i++;
      i++; const l0 = line; let v = '';
      while (i < n && src[i] !== '"') {
        if (src[i] === '\\') {
          const e = src[i + 1];
          if (e === 'n') { v += '\n'; i += 2; }
          else if (e === 't') { v += '\t'; i += 2; }
          else if (e === 'r') { v += '\r'; i += 2; }
          else if (e === '0') { v += '\0'; i += 2; }
          else if (e === '\\' || e === '"' || e === "'") { v += e; i += 2; }
          else if (e === 'x') { v += String.fromCharCode(parseInt(src.slice(i + 2, i + 4), 16)); i += 4; }
          else if (e === 'u') { const j = src.indexOf('}', i); v += String.fromCodePoint(parseInt(src.slice(i + 3, j), 16)); i = j + 1; }
          else if (e === '\n') { i += 2; line++; while (i < n && /\s/.test(src[i])) { if (src[i] === '\n') line++; i++; } }
          else { v += e; i += 2; }
        } else { if (src[i] === '\n') line++; v += src[i]; i++; }
      }
      i++; push('str', v, l0); continue;
    }
    if (c === "'") {
      // char literal or lifetime
      const cm = /^'(\\u\{[0-9a-fA-F]+\}|\\x[0-9a-fA-F]{2}|\\.|[^\\'])'/u.exec(src.slice(i, i + 16));
      if (cm) { push('char', cm[1], line); i += cm[0].length; continue; }
      i++; while (i < n && /[A-Za-z0-9_]/.test(src[i])) i++; continue; // lifetime
    }
    if (/[A-Za-z_]/.test(c)) { let j = i; while (j < n && /[A-Za-z0-9_]/.test(src[j])) j++; push('id', src.slice(i, j), line); i = j; continue; }
    if (/[0-9]/.test(c)) { let j = i; while (j < n && /[A-Za-z0-9_.]/.test(src[j])) j++; push('num', src.slice(i, j), line); i = j; continue; }
    push('p', c, line); i++;
  }
  return toks;
}

// parse call args starting at index of '(' ; returns {args: [tokens[]], end}
function callArgs(toks, k) {
  const args = []; let cur = []; let depth = 0; let i = k;
  for (; i < toks.length; i++) {
    const t = toks[i];
    if (t.t === 'p' && '([{'.includes(t.v)) { depth++; if (depth === 1) continue; }
    if (t.t === 'p' && ')]}'.includes(t.v)) { depth--; if (depth === 0) { if (cur.length) args.push(cur); break; } }
    if (depth === 1 && t.t === 'p' && t.v === ',') { args.push(cur); cur = []; continue; }
    cur.push(t);
  }
  return { args, end: i };
}
const litOf = (arg) => (arg && arg.length === 1 && arg[0].t === 'str') ? arg[0] : null;
function arrayLits(arg) { // &[ "a", "b", ] or vec!["a"]
  if (!arg) return null;
  let a = arg.filter((t) => !(t.t === 'p' && t.v === '&'));
  if (a.length >= 2 && a[0].t === 'id' && a[0].v === 'vec' && a[1].v === '!') a = a.slice(2);
  if (!(a.length >= 2 && a[0].v === '[' && a[a.length - 1].v === ']')) return null;
  const inner = a.slice(1, -1).filter((t) => !(t.t === 'p' && t.v === ','));
  if (!inner.every((t) => t.t === 'str')) return null;
  return inner;
}

// helper name -> [expected, index of command arg, kind]
const HELPERS = {
  assert_blocks: ['block', 1], assert_blocks_with_pattern: ['block', 1], assert_blocks_with_severity: ['block', 1],
  assert_allows: ['allow', 1], assert_safe_pattern_matches: ['allow', 1], assert_no_match: ['allow', 1],
  test_batch_blocks: ['block', 1, 'array'], test_batch_allows: ['allow', 1, 'array'],
  assert_rm_parser_denies: ['block', 0], assert_rm_parser_allows: ['allow', 0],
  assert_allows_command: ['allow', 0], assert_denies_with_rule: ['block', 0],
  assert_hook_denies: ['block', 0], assert_hook_allows: ['allow', 0], check_blocked: ['block', 0],
  assert_decision: ['decision', 0],
};

const out = [];
function add(path, line, category, expected, command) {
  out.push({ path, line, category, expected, command });
}

function extractRust(path) {
  const toks = tokenizeRust(show(path));
  let fnName = '';
  const packId = path.startsWith('src/packs/') ? path.replace(/^src\/packs\//, '').replace(/\.rs$/, '').replace(/\/mod$/, '').replace(/\//g, '.') : path.replace(/^tests\//, '').replace(/\.rs$/, '');
  for (let k = 0; k < toks.length; k++) {
    const t = toks[k];
    if (t.t === 'id' && t.v === 'fn' && toks[k + 1]?.t === 'id') { fnName = toks[k + 1].v; continue; }
    if (t.t === 'id' && t.v === 'check' && toks[k - 1]?.v === '.' && path.startsWith('src/packs/') && path !== 'src/packs/mod.rs'
        && toks[k + 1]?.v === '(' && toks[k + 2]?.t === 'str' && toks[k + 3]?.v === ')' && toks[k + 4]?.v === '.') {
      const m = toks[k + 5]?.v;
      const exp = m === 'is_none' ? 'allow' : (m === 'is_some' || m === 'expect') ? 'block' : null;
      if (exp) add(path, toks[k + 2].line, `${packId}/${fnName}`, exp, toks[k + 2].v);
      continue;
    }
    if (t.t !== 'id' || !HELPERS[t.v]) continue;
    if (toks[k - 1]?.t === 'id' && toks[k - 1].v === 'fn') continue; // definition
    if (!(toks[k + 1]?.t === 'p' && toks[k + 1].v === '(')) continue;
    if (toks[k - 1]?.v === '.' ) continue; // method on logged runner (self.)
    const [exp0, idx, kind] = HELPERS[t.v];
    const { args } = callArgs(toks, k + 1);
    let cmds = [];
    if (kind === 'array') { cmds = arrayLits(args[idx]) || []; }
    else { const l = litOf(args[idx]); if (l) cmds = [l]; }
    let expected = exp0;
    if (exp0 === 'decision') {
      const d = litOf(args[1]); if (!d) continue;
      expected = d.v === 'deny' ? 'block' : d.v === 'allow' ? 'allow' : null; if (!expected) continue;
    }
    for (const c of cmds) add(path, c.line, `${packId}/${fnName}`, expected, c.v);
  }
}

// ---------------------------------------------------------------- TOML corpus
function unescapeBasic(s) {
  return s.replace(/\\(u[0-9a-fA-F]{4}|U[0-9a-fA-F]{8}|.)/g, (_, e) => {
    if (e[0] === 'u' || e[0] === 'U') return String.fromCodePoint(parseInt(e.slice(1), 16));
    return { n: '\n', t: '\t', r: '\r', b: '\b', f: '\f', '"': '"', '\\': '\\' }[e] ?? e;
  });
}
function extractToml(path) {
  const lines = show(path).split('\n');
  let cur = null; const cases = [];
  lines.forEach((ln, i) => {
    if (/^\s*\[\[case\]\]/.test(ln)) { cur = { line: i + 1 }; cases.push(cur); return; }
    if (/^\s*\[/.test(ln)) return; // sub-table like [case.log]
    const m = /^\s*(command|expected|expected_decision|description|id|category)\s*=\s*"((?:[^"\\]|\\.)*)"/.exec(ln);
    if (m && cur) { cur[m[1]] = unescapeBasic(m[2]); if (m[1] === 'command') cur.cmdLine = i + 1; if (m[1] === 'expected' && /Currently allowed - no \w+ pack yet/.test(ln)) cur.future = true; }
  });
  const base = path.replace(/^tests\/corpus\//, '').replace(/\.toml$/, '');
  for (const c of cases) {
    if (c.command === undefined || c.future) continue;
    const e = c.expected ?? c.expected_decision;
    const expected = e === 'deny' ? 'block' : e === 'allow' ? 'allow' : null;
    if (!expected) continue;
    add(path, c.cmdLine, `corpus/${base}/${c.category || c.id || c.description || ''}`, expected, c.command);
  }
}

// ---------------------------------------------------------------- YAML fixtures (simple subset)
function yamlStr(s) {
  s = s.trim();
  if (s.startsWith('"')) return JSON.parse(s.replace(/\s+#.*$/, '').trim().match(/^"(?:[^"\\]|\\.)*"/)[0]);
  if (s.startsWith("'")) return s.match(/^'((?:[^']|'')*)'/)[1].replace(/''/g, "'");
  return s.replace(/\s+#.*$/, '');
}
function extractPackYaml(path, expected) { // { pack_id: [ {command, reason} ] }
  let key = '';
  show(path).split('\n').forEach((ln, i) => {
    let m = /^([A-Za-z0-9_.-]+):\s*$/.exec(ln); if (m) { key = m[1]; return; }
    m = /^\s*-\s*command:\s*(.*)$/.exec(ln);
    if (m) {
      const exp = expected ?? (key === 'false_positives' ? 'allow' : key === 'false_negatives' ? 'block' : null);
      if (exp) add(path, i + 1, `fixtures/${key}`, exp, yamlStr(m[1]));
    }
  });
}
function extractScenario(path) {
  const lines = show(path).split('\n'); let id = '';
  let pending = null;
  lines.forEach((ln, i) => {
    let m = /^id:\s*(.*)$/.exec(ln); if (m) id = yamlStr(m[1]);
    m = /^\s*-\s*command:\s*(.*)$/.exec(ln); if (m) pending = { line: i + 1, cmd: yamlStr(m[1]) };
    m = /^\s*expected_decision:\s*(.*)$/.exec(ln);
    if (m && pending) {
      const d = yamlStr(m[1]);
      const exp = d === 'deny' ? 'block' : d === 'allow' ? 'allow' : null;
      if (exp) add(path, pending.line, `scenario/${id}`, exp, pending.cmd);
      pending = null;
    }
  });
}

// ---------------------------------------------------------------- e2e command fixtures
function extractTxt(path) {
  const name = path.split('/').pop().replace(/\.txt$/, '');
  const lines = show(path).split('\n');
  let section = ''; let last = null;
  lines.forEach((ln, i) => {
    if (/^#/.test(ln)) { section = ln.replace(/^#+\s*/, '').replace(/=+/g, '').trim(); last = null; return; }
    if (ln.trim() === '') { last = null; return; }
    const m = /^(BLOCK|ALLOW|WARN):(.*)$/.exec(ln);
    let rec;
    if (m) {
      let cmd = m[2];
      if (name === 'heredocs') cmd = cmd.replace(/\\n/g, '\n'); // file header: "\n" encodes line breaks
      rec = { line: i + 1, exp: m[1], cmd };
      out.push(rec.o = { path, line: i + 1, category: `e2e/${name}/${section}`, expected: m[1] === 'BLOCK' ? 'block' : m[1] === 'ALLOW' ? 'allow' : 'warn', command: cmd });
      last = rec;
    } else if ((name === 'edge_cases') && last) {
      // continuation line of a multi-line heredoc entry
      last.o.command += '\n' + ln;
    } else {
      out.push({ path, line: i + 1, category: `e2e/${name}/${section}`, expected: name === 'dangerous' ? 'block' : 'allow', command: ln });
      last = null;
    }
  });
}

for (const f of files) {
  if (/^src\/packs\/.*\.rs$/.test(f) && !/test_helpers\.rs$|test_template\.rs$|regex_engine\.rs$/.test(f)) extractRust(f);
  else if (/^tests\/[^/]+\.rs$/.test(f)) extractRust(f);
  else if (/^tests\/corpus\/.*\.toml$/.test(f)) extractToml(f);
  else if (f === 'tests/fixtures/destructive_commands.yaml') extractPackYaml(f, 'block');
  else if (f === 'tests/fixtures/safe_commands.yaml') extractPackYaml(f, 'allow');
  else if (f === 'tests/fixtures/edge_cases.yaml') extractPackYaml(f, null);
  else if (/^tests\/fixtures\/scenarios\/.*\.yaml$/.test(f)) extractScenario(f);
  else if (/^tests\/e2e\/fixtures\/commands\/.*\.txt$/.test(f)) extractTxt(f);
}

// ---------------------------------------------------------------- labelling
// Vectors skipped by hand (keyed by command text): not a shell command / harness artefacts.
const SKIP = new Set([
  'git reset\\n--hard', // e2e edge_cases.txt: literal backslash-n; meaning depends on the harness's JSON quoting
]);

// Hand overrides: command -> {tag, family}
const OVERRIDE = {
  'wipefs --all somefile.img': { tag: 'policy', family: 'destroy_data' }, // a disk image file, not a device
};

const rx = (s) => new RegExp(s, 'i');
// Dangerous commands a careful guard anywhere would agree on (core); everything else blocked -> policy.

// allowed commands that are plainly harmless (core). Everything else allowed -> policy.
const SAFE_VERB = rx('^(\\s*(sudo\\s+)?)(ls|ll|cat|head|tail|less|more|grep|egrep|rg|ag|find(?!.*(-delete|-exec))|fd|echo|printf|pwd|whoami|id|date|uname|which|type|command\\s+-v|wc|sort|uniq|diff|stat|file|tree|du|df|env$|printenv|true|false|test|jq|yq|sed\\s+-n|awk|cut|tr|basename|dirname|realpath|readlink|man|help|history|bd|dcg|cargo\\s+(build|test|check|clippy|fmt|run|doc|bench|tree|metadata)|npm\\s+(test|run|ls|list|view|ci)|yarn\\s+(test|build|lint)|pnpm\\s+(test|build|lint)|make(\\s+(test|build|all|check|lint))?$|go\\s+(build|test|vet|fmt|list|mod\\s+tidy)|python3?\\s+-m\\s+(pytest|unittest)|pytest|mkdir|touch|cd|tsc|eslint|prettier|node\\s+--version|python3?\\s+--version)(\\s|$)');
const GIT_SAFE = /^\s*git\s+(status|log|diff|show|branch(\s+-[avr]+|\s*$|\s+--list|\s+-b|\s+[\w\/.-]+$)|remote(\s+-v|\s+show|\s*$)|fetch|add|commit|checkout\s+(-b|-B|--branch|[\w\/.-]+$)|switch|blame|tag(\s+-l|\s+--list|\s*$|\s+-a|\s+-m|\s+v)|stash(\s+list|\s+show|\s*$|\s+push|\s+save|\s+apply|\s+pop)|rev-parse|ls-files|describe|shortlog|reflog(\s+show|\s*$)|config\s+(--get|--list|-l)|grep|worktree\s+list|restore\s+--staged(?!.*(-W|--worktree))|clean\s+(-n|--dry-run)|clean\s+-[a-z]*n|cat-file|log\b|merge-base|init|clone|pull|merge\s+--(abort|no-ff|ff-only)|rebase\s+--(abort|continue)|cherry-pick\s+--abort|bisect|sparse-checkout\s+list|submodule\s+(status|update|init))\b/i;
const READ_CLOUD = /\b(list|ls|get|describe|show|status|info|version|help|inspect|logs?|lookup|read|whoami|view|search|top|history|explain|plan|validate|fmt|diff|check|ps|images|stats|events|cat|search|tail|audit|--version|--help|-h|dry-run|--dryrun|--dry-run)\b/i;
const MUTATING_WORD = /\b(delete|del|rm|remove|destroy|drop|purge|prune|truncate|kill|terminate|reset|wipe|create|put|set|update|apply|deploy|push|install|uninstall|upgrade|run|exec|start|stop|restart|scale|patch|edit|replace|rollout|cordon|drain|taint|label|annotate|import|sync|cp|mv|write|enable|disable|revoke|rotate|publish|send|post|upload|add|attach|detach|modify|invoke|restore|merge|rebase|commit|tag|login|logout)\b/i;
const SECRET_READ = /\b(get-secret-value|vault\s+(read|kv\s+get)|op\s+(item\s+get|read|document\s+get)|doppler\s+secrets(\s+get|\s+download|\s*$)|secretsmanager\s+get|gcloud\s+secrets\s+versions\s+access|az\s+keyvault\s+secret\s+show|kubectl\s+get\s+secrets?\b.*-o|printenv|\benv$)/i;

function label(command, expected) {
  if (OVERRIDE[command]) return OVERRIDE[command];
  const c = command.trim();
  if (expected === 'block') {
    for (const [re, fam] of CORE_BLOCK) if (re.test(c)) return { tag: 'core', family: fam };
    return { tag: 'policy', family: blockFamily(c) };
  }
  // allow
  // data-only mentions of dangerous text (echo/grep/commit messages) are plainly harmless
  if (SECRET_READ.test(c)) return { tag: 'policy', family: 'leak_secret' };
  if (/\brm\b.*-[a-zA-Z]*[rf]/.test(c) && /^\s*(sudo\s+)?rm\b/.test(c)) return { tag: 'policy', family: 'destroy_data' };
  if (/^\s*git\b/.test(c) && /\bpush\b/.test(c)) return { tag: 'policy', family: 'git_history' };
  const first = c.split(/[;&|]/)[0];
  if (GIT_SAFE.test(c) && !/[;&|`]|\$\(/.test(c)) return { tag: 'core', family: 'readonly' };
  if (SAFE_VERB.test(c) && !/[;&|`]|\$\(|>/.test(c.replace(/'[^']*'|"[^"]*"/g, ''))) return { tag: 'core', family: /cargo|npm|yarn|pnpm|make|go |pytest|tsc|eslint|prettier/.test(first) ? 'build' : 'readonly' };
  // cloud/tool read-only verbs with no mutating word
  const words = c.replace(/'[^']*'|"[^"]*"/g, ' ');
  if (READ_CLOUD.test(words) && !MUTATING_WORD.test(words.replace(/--?[\w-]+/g, ' ')) && !/[;&|`]|\$\(|>/.test(words)) return { tag: 'core', family: 'readonly' };
  return { tag: 'policy', family: allowFamily(c) };
}
function blockFamily(c) {
  if (/^\s*(sudo\s+|env\s+|command\s+)*\S*\bgit\b/.test(c) || /\bgit\s+(reset|clean|push|checkout|restore|branch|stash)\b/.test(c)) return 'git_history';
  if (/\b(curl|wget)\b.*\|\s*(ba)?sh|\beval\b/.test(c)) return 'remote_code';
  if (/\b(chmod|chown|setfacl|visudo|usermod|passwd|sudoers)\b/.test(c)) return 'privilege';
  if (/\brm\b|\bdelete\b|\bdestroy|\bpurge\b|\bdrop|\btruncate\b|\bprune\b|\bwipe|--del|\bforget\b|\bclean\b/i.test(c)
      && !/\b(aws|gcloud|gsutil|az|kubectl|helm|terraform|pulumi|ansible|docker|podman|nginx|haproxy|traefik|systemctl|service|wrangler|fastly|elbv2|elb)\b/.test(c)) return 'destroy_data';
  if (/\b(aws|gcloud|gsutil|az|kubectl|helm|terraform|pulumi|ansible|docker|podman|compose|kustomize|nginx|haproxy|traefik|route53|cloudflare|wrangler|fastly|kafka[-\w]*|rabbitmq\w*|nats|systemctl|service|launchctl|shutdown|reboot|velero|circleci|jenkins|gh|glab|stripe|consul|nomad)\b/i.test(c)) return 'infrastructure';
  if (/\b(ssh|scp|socat|nc|ncat|iptables|ufw)\b/.test(c)) return 'network_exposure';
  return 'other';
}
function allowFamily(c) {
  if (/\b(cargo|npm|yarn|pnpm|make|go|pip|uv|mvn|gradle|tsc|node|python3?|pytest)\b/.test(c.split(/\s/)[0] || '')) return 'build';
  if (/^\s*git\b/.test(c)) return 'git_history';
  if (/\brm\b|\bfind\b.*-delete/.test(c)) return 'destroy_data';
  if (/\b(aws|gcloud|gsutil|az|kubectl|helm|terraform|pulumi|docker|podman)\b/.test(c)) return 'infrastructure';
  return 'other';
}

// ---------------------------------------------------------------- emit
const seen = new Set();
for (const v of out) {
  if (v.expected !== 'block' && v.expected !== 'allow') continue;
  const cmd = v.command;
  if (!cmd || !cmd.trim() || SKIP.has(cmd)) continue;
  // skip vectors that are not shell commands: bare paths / URLs
  if (/^[a-z]+:\/\/\S+$/i.test(cmd.trim())) continue;
  // source-code calls handed to a pack matcher (e.g. `gateway.customer.delete('x')`) are not shell commands
  if (/^[A-Za-z_][\w]*(\.[A-Za-z_]\w*)+\(.*\)\s*;?$/.test(cmd.trim())) continue;
  // SQL statements handed straight to a database pack's matcher are not shell commands
  if (/^\s*(DROP|TRUNCATE|DELETE|GRANT|REVOKE|ALTER|UPDATE|INSERT|SELECT|CREATE|EXPLAIN|SHOW|WITH)\s/i.test(cmd) && !/^\s*(drop|delete|truncate)\s+-/.test(cmd)) continue;
  const key = cmd + '\u0000' + v.expected;
  if (seen.has(key)) continue; seen.add(key);
  const { tag, family } = label(cmd, v.expected);
  process.stdout.write(JSON.stringify({
    source: `${REPO} ${v.path}:${v.line}`,
    category: `${SUITE}:${v.category}`,
    expected: v.expected, tool: 'Bash', input: { command: cmd }, tag, family,
  }) + '\n');
}
