// Extract openai/codex safe-command / dangerous-command test vectors (codex-rs/shell-command command_safety).
// usage: node codex.mjs <git-dir> <commit>   (a full clone; each file is read at its own pinned commit below)
//    or: node codex.mjs --files <dir>        (files saved from the search index's read_file at those commits;
//                                             verified by sha256 below). The snapshot (757 MB) exceeded the
//                                             500 MiB limit of the mirror used to build this.
import { execFileSync } from 'node:child_process';
import { makeReader, lineAt, rustStr, shJoin, emitAll } from './_lib-agentcli.mjs';

const REPO = 'openai/codex';
const DIR = 'codex-rs/shell-command/src/command_safety/';
const FILES = {
  [DIR + 'is_safe_command.rs']: { commit: '55dfa3cf21334eaff76491c6eb5f4d2939c7e6ad',
    sha256: '24cb5d1a3a15f8779584d578760cd16300ce99ca136791788b46e645955f79d0' },
  [DIR + 'is_dangerous_command.rs']: { commit: '043e574c6b3d5ec86e2f7c12c395e12013fafeca',
    sha256: '30454c94aa206a102f8e54b7c9b2e59bf99dfc6b6b9c2abdbeac4c21f4cbe6e9' },
};
const argv = process.argv.slice(2);
const read = argv[0] === '--files'
  ? makeReader(argv, Object.fromEntries(Object.entries(FILES).map(([p, v]) => [p, v.sha256])))
  : (p) => execFileSync('git', ['-C', argv[0], 'show', `${FILES[p].commit}:${p}`], { encoding: 'utf8' });

// Hand table keyed by command text.
const OVERRIDES = {
  // detection limitation documented by the test (non-literal `$cmd`), not an approval: skip
  'cmd=rm; $cmd -rf /tmp/example': { skip: true },
  // "not dangerous" verdicts: peer's choice (rm without -f, unparseable script)
  'rm -r /tmp/example': { tag: 'policy', family: 'destroy_data' },
  'rm -- -f': { tag: 'policy', family: 'destroy_data' },
  'if then rm -rf /tmp/example': { tag: 'policy', family: 'other' },
  "echo 'rm -rf /tmp/example'": { tag: 'core', family: 'readonly' },
  // forced rm of scratch paths: flagged by codex, another guard could allow /tmp cleanup
  'rm -rf /': { tag: 'core', family: 'destroy_data' }, 'rm -f /': { tag: 'core', family: 'destroy_data' },
  'sudo rm -rf /tmp/example': { tag: 'core', family: 'privilege' },
  'ls && rm -rf /': { tag: 'core', family: 'destroy_data' },
  'find . -fls /etc/passwd': { tag: 'core', family: 'destroy_data' },
  'find . -fprint /etc/passwd': { tag: 'core', family: 'destroy_data' },
  'find . -fprint0 /etc/passwd': { tag: 'core', family: 'destroy_data' },
  "find . -fprintf /root/suid.txt '%#m %u %p\n'": { tag: 'policy', family: 'other' },
  'rg --pre pwned files': { tag: 'policy', family: 'remote_code' },
  'rg --pre=pwned files': { tag: 'policy', family: 'remote_code' },
  'rg --hostname-bin pwned files': { tag: 'policy', family: 'remote_code' },
  'rg --hostname-bin=pwned files': { tag: 'policy', family: 'remote_code' },
  'git -c core.pager=cat log -n 1': { tag: 'policy', family: 'other' },
  'git -ccore.pager=cat status': { tag: 'policy', family: 'other' },
  "'C:\\Program Files\\Git\\cmd\\git.exe' status": { tag: 'core', family: 'readonly' },
  "'C:\\Program Files\\PowerShell\\7\\pwsh.exe' -Command Get-Location": { tag: 'core', family: 'readonly' },
  'cargo check': { tag: 'policy', family: 'build' },
  "sed -n '1,5p' file.txt": { tag: 'core', family: 'readonly' },
  'git branch -d feature': { family: 'git_history' }, 'git -C . branch -d feature': { family: 'git_history' },
};
// non-Linux `else` branch of a cfg!(target_os = "linux") test: the Linux branch (allow) is kept
const SKIP_BLOCK = new Set(['numfmt 1000', 'tac Cargo.toml']);

// --- tiny Rust scanner helpers ---
const LIT = /r(#*)"([\s\S]*?)"\1|"((?:[^"\\]|\\.)*)"/g;
const lits = (s) => [...s.matchAll(new RegExp(LIT.source, "g"))].map((x) => (x[2] !== undefined ? x[2] : rustStr(x[3])));
function closeBracket(text, open) { // index of the matching ']' for '[' at open, skipping string literals
  let depth = 0;
  for (let i = open; i < text.length; i++) {
    const c = text[i];
    if (c === '"' || (c === 'r' && /r#*"/.test(text.slice(i, i + 4)) && !/\w/.test(text[i - 1]))) {
      LIT.lastIndex = i; const m = LIT.exec(text); if (m && m.index === i) { i += m[0].length - 1; continue; }
    }
    if (c === '[') depth++; else if (c === ']' && --depth === 0) return i;
  }
  return -1;
}
function toCommand(args) { // bash/zsh -lc <script> -> the script; anything else -> shell-joined argv
  if (args.length === 3 && /^(bash|zsh)$/.test(args[0]) && args[1] === '-lc') return args[2];
  return shJoin(args);
}
const fnAt = (text, idx) => { const all = [...text.slice(0, idx).matchAll(/fn (\w+)\(/g)]; return all.length ? all[all.length - 1][1] : '?'; };

const vecs = [];
function add(path, text, idx, args, expected, via) {
  const command = toCommand(args);
  if (expected === 'block' && SKIP_BLOCK.has(command)) return;
  vecs.push({ command, expected, path, line: lineAt(text, idx), category: `${fnAt(text, idx)} (${via})` });
}

for (const path of Object.keys(FILES)) {
  const text = read(path);
  const tests = text.slice(text.indexOf('#[cfg(test)]'));
  const base = text.indexOf('#[cfg(test)]');
  // direct calls on a vec_str literal
  const callRe = /(is_safe_to_call_with_exec|is_known_safe_command|dangerous_command_match)\(&vec_str\(&\[/g;
  let m;
  while ((m = callRe.exec(tests))) {
    const open = m.index + m[0].length - 1;
    const close = closeBracket(tests, open);
    const args = lits(tests.slice(open, close + 1));
    const before = tests.slice(Math.max(0, m.index - 60), m.index);
    const after = tests.slice(close, close + 80);
    let expected;
    if (m[1] === 'dangerous_command_match') {
      const r = /^\]\)\)\s*,\s*(Some|None)/.exec(after); if (!r) continue;
      expected = r[1] === 'Some' ? 'block' : 'allow';
    } else if (/assert_eq!\(\s*$/.test(before)) {
      const r = /^\]\)\)\s*,\s*(true|false)/.exec(after); if (!r) continue;
      expected = r[1] === 'true' ? 'allow' : 'block';
    } else expected = /!\s*$/.test(before) ? 'block' : 'allow';
    add(path, text, base + m.index, args, expected, m[1]);
  }
  // `for args|command in [ vec_str(...), ... ] { ... }` loops
  const loopRe = /for (args|command) in \[/g;
  while ((m = loopRe.exec(tests))) {
    const open = m.index + m[0].length - 1;
    const close = closeBracket(tests, open);
    const body = tests.slice(close, close + 400);
    let expected;
    if (/!is_safe_to_call_with_exec\(&args\)|!is_known_safe_command\(&args\)/.test(body)) expected = 'block';
    else if (/dangerous_command_match\(&command\),\s*Some/.test(body)) expected = 'block';
    else if (/dangerous_command_match\(&command\),\s*None/.test(body)) expected = 'allow';
    else continue;
    const inner = tests.slice(open + 1, close);
    const vr = /vec_str\(&\[/g; let v;
    while ((v = vr.exec(inner))) {
      const o = v.index + v[0].length - 1; const c = closeBracket(inner, o);
      add(path, text, base + open + 1 + v.index, lits(inner.slice(o, c + 1)), expected, `loop ${m[1]}`);
      vr.lastIndex = c;
    }
  }
  // `for script in [ "...", ... ] { let command = vec_str(&["bash", "-lc", script]); ... Some(...) }`
  const scriptRe = /for script in \[/g;
  while ((m = scriptRe.exec(tests))) {
    const open = m.index + m[0].length - 1;
    const close = closeBracket(tests, open);
    const body = tests.slice(close, close + 400);
    if (!/vec_str\(&\["bash", "-lc", script\]\)/.test(body)) continue;
    const expected = /dangerous_command_match\(&command\),\s*Some/.test(body) ? 'block' : 'allow';
    const inner = tests.slice(open + 1, close);
    for (const x of inner.matchAll(new RegExp(LIT.source, "g"))) {
      add(path, text, base + open + 1 + x.index, ['bash', '-lc', x[2] !== undefined ? x[2] : rustStr(x[3])], expected, 'bash -lc script');
    }
  }
}
emitAll('codex', REPO, vecs, OVERRIDES);
