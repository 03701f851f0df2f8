// Extract google-gemini/gemini-cli shell command permission test vectors.
// usage: node gemini-cli.mjs <git-dir> <commit>   (pinned: 5411f113cafae26161b4969b0237b8e1e024e2c2)
import { makeReader, lineAt, jsStr, shJoin, emitAll } from './_lib-agentcli.mjs';

const REPO = 'google-gemini/gemini-cli';
const read = makeReader(process.argv.slice(2));
const ARRAY_FILES = ['packages/core/src/sandbox/utils/commandSafety.test.ts',
  'packages/core/src/sandbox/windows/commandSafety.test.ts'];
const POLICY_FILES = ['packages/core/src/policy/shell-safety.test.ts',
  'packages/core/src/policy/shell-safety-regression.test.ts',
  'packages/core/src/policy/shell-substitution.test.ts'];

// Hand table keyed by command text.
// skip: placeholder names, or a harmless command asked only because the test's fixture allowlist omits a
// part (the same command is ALLOWed elsewhere in the suite under a fuller allowlist).
const OVERRIDES = {
  'dangerous_cmd': { skip: true }, 'echo $(dangerous_cmd)': { skip: true }, 'echo `dangerous_cmd`': { skip: true },
  '(dangerous_cmd)': { skip: true }, 'echo $(ls $(deep_danger))': { skip: true },
  'git status && unknown_command': { skip: true }, 'unknown_command_1 && another_unknown_command': { skip: true },
  'known_ask_command_1 && known_ask_command_2': { skip: true }, 'unknown': { skip: true },
  'git logout': { skip: true },
  // --pre runs an arbitrary preprocessor; with `cat` it is not plainly destructive
  '/usr/bin/rg --pre=cat pattern': { tag: 'policy', family: 'remote_code' },
  '/usr/bin/rg --search-zip pattern': { tag: 'policy', family: 'other' },
  '/usr/bin/rg -z pattern': { tag: 'policy', family: 'other' },
  '/tmp/malicious/rg --search-zip': { tag: 'policy', family: 'other' },
  // rg outside a trusted system path: not auto-approved (search-path hijack guard)
  'rg pattern file.txt': { tag: 'policy', family: 'readonly' },
  '/tmp/malicious/rg pattern': { tag: 'policy', family: 'other' },
  '/some/path/rg pattern': { tag: 'policy', family: 'readonly' },
  'npm install': { tag: 'policy', family: 'build' },
  'del file.txt': { tag: 'policy', family: 'destroy_data' },
  'del.exe file.txt': { tag: 'policy', family: 'destroy_data' },
  'powershell -Command echo': { tag: 'policy', family: 'other' },
  'POWERSHELL.EXE -Command echo': { tag: 'policy', family: 'other' },
  'cmd /c dir': { tag: 'policy', family: 'other' },
  'cmd.exe /c dir': { tag: 'policy', family: 'other' },
  'dir.exe': { family: 'readonly' }, 'ECHO.EXE hello': { tag: 'core', family: 'readonly' },
  'WHOAMI.exe': { tag: 'core', family: 'readonly' },
  '/usr/bin/rg pattern': { tag: 'core', family: 'readonly' },
  '/usr/bin/rg pattern file.txt': { tag: 'core', family: 'readonly' },
  'git log @(Get-Process)': { tag: 'policy', family: 'other' },
  'git commit -m "msg" && git push': { tag: 'policy', family: 'git_history' },
  'echo hi > /tmp/test': { tag: 'policy', family: 'other' },
  'git log > /tmp/test': { tag: 'policy', family: 'readonly' },
};
// harmless commands whose ASK_USER verdict only reflects a partial fixture allowlist (ALLOW elsewhere)
const SKIP_BLOCK = new Set(['echo hi && ls', 'false || ls', 'echo hi; ls', 'echo hi | grep "hi"', 'echo hi & ls',
  'echo $(cat $(ls))', 'git log > /tmp/test']);

const strRe = /'((?:[^'\\]|\\.)*)'|"((?:[^"\\]|\\.)*)"/g;
const strs = (s) => [...s.matchAll(strRe)].map((x) => jsStr(x[1] !== undefined ? x[1] : x[2]));
function testName(text, idx) {
  const before = text.slice(0, idx);
  const all = [...before.matchAll(/\bit\(\s*(['"`])((?:(?!\1)[^\\]|\\.)*)\1/g)];
  return all.length ? all[all.length - 1][2] : 'unknown';
}

const vecs = [];
for (const path of ARRAY_FILES) {
  const text = read(path);
  const re = /(isKnownSafeCommand|isDangerousCommand)\(\s*\[([^\]]*)\]\s*\)/g;
  let m;
  while ((m = re.exec(text))) {
    const tail = text.slice(m.index + m[0].length, m.index + m[0].length + 40);
    const t = /^\s*,?\s*\)\s*\.toBe\(\s*(true|false)\s*,?\s*\)/.exec(tail);
    if (!t) continue;
    const val = t[1] === 'true';
    const isSafe = m[1] === 'isKnownSafeCommand';
    const expected = isSafe ? (val ? 'allow' : 'block') : (val ? 'block' : 'allow');
    vecs.push({ command: shJoin(strs(m[2])), expected, path, line: lineAt(text, m.index),
      category: `${m[1]}: ${testName(text, m.index)}` });
  }
  // isStrictlyApproved(cmd, [args]) without an explicit approved-tools list
  const re2 = /isStrictlyApproved\(\s*('[^']*')\s*,\s*\[([^\]]*)\]\s*(,\s*\[[^\]]*\]\s*)?,?\s*\)\s*,?\s*\)\s*\.toBe\(\s*(true|false)\s*,?\s*\)/g;
  while ((m = re2.exec(text))) {
    if (m[3]) continue; // approval comes from the test's explicit tools list
    vecs.push({ command: shJoin([...strs(m[1]), ...strs(m[2])]), expected: m[4] === 'true' ? 'allow' : 'block', path,
      line: lineAt(text, m.index), category: `isStrictlyApproved: ${testName(text, m.index)}` });
  }
}
for (const path of POLICY_FILES) {
  const text = read(path);
  const re = /args:\s*\{\s*command:\s*('(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*")\s*\}/g;
  let m;
  while ((m = re.exec(text))) {
    const rest = text.slice(m.index);
    const d = /expect\(result\.decision\)\.toBe\(PolicyDecision\.(ALLOW|ASK_USER|DENY)\)/.exec(rest);
    if (!d) continue;
    const cmd = strs(m[1])[0];
    const expected = d[1] === 'ALLOW' ? 'allow' : 'block';
    if (expected === 'block' && SKIP_BLOCK.has(cmd)) continue;
    vecs.push({ command: cmd, expected, path, line: lineAt(text, m.index),
      category: `policy ${d[1]}: ${testName(text, m.index)}` });
  }
}
emitAll('gemini-cli', REPO, vecs, OVERRIDES);
