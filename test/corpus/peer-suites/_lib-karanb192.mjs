// Shared by the readers of karanb192/claude-code-hooks' two hooks (claude-code-hooks-karanb192*.mjs): each test
// file lists its vectors as calls of a block helper and an allow helper, and as a safe-commands array, in one
// unit section, at the hook's default safety level ("high").
import { execFileSync } from 'node:child_process';

// minimal JS string-literal reader: returns the list of leading literal arguments in `s`
function readArgs(s) {
  const args = []; let i = 0;
  for (;;) {
    while (s[i] === ' ' || s[i] === ',') i++;
    const q = s[i];
    if (q !== "'" && q !== '"' && q !== '`') break;
    let v = ''; i++;
    while (s[i] !== q) {
      if (s[i] === '\\') { const n = s[i + 1]; v += ({ n: '\n', t: '\t' })[n] ?? n; i += 2; } else { v += s[i++]; }
      if (i >= s.length) throw new Error('unterminated string: ' + s);
    }
    i++; args.push(v);
  }
  return args;
}

/**
 * Writes the suite's vectors as JSON Lines. `unit`: the describe() of the section read; `safe`: the safe array's
 * name; `block`, `allow`: the helpers' names. A case given an explicit safety level other than "high" is left out.
 */
export function rebuild({ gitDir, commit, repo, file, suite, table, unit, safe, block, allow }) {
  const text = execFileSync('git', ['--git-dir', gitDir, 'show', `${commit}:${file}`], { encoding: 'utf8' });
  const out = []; const seen = new Set(); const used = new Set();
  let inUnit = false, group = '', inSafe = false;
  const add = (cmd, expected, line) => {
    if (seen.has(cmd)) return; seen.add(cmd);
    const t = table[cmd]; if (!t) throw new Error('no table entry for ' + JSON.stringify(cmd));
    used.add(cmd);
    out.push({ source: `${repo} ${file}:${line}`, category: `${suite}:${group}`, expected, tool: 'Bash',
      input: { command: cmd }, tag: t[0], family: t[1] });
  };
  const blockCall = new RegExp(`${block}\\((.*)$`);
  const allowCall = new RegExp(`${allow}\\((.*)$`);
  text.split('\n').forEach((ln, idx) => {
    const lineNo = idx + 1; let m;
    if ((m = ln.match(/^describe\((['"])(.*?)\1/))) { inUnit = m[2] === unit; return; }
    if (!inUnit) return;
    if ((m = ln.match(/^\s+describe\((['"])(.*?)\1/))) { group = m[2]; return; }
    if (ln.includes(`const ${safe} = [`)) { inSafe = true; return; }
    if (inSafe) {
      if (/^\s*\];/.test(ln)) { inSafe = false; return; }
      for (const c of readArgs(ln.trim())) add(c, 'allow', lineNo);
      return;
    }
    if ((m = ln.match(blockCall))) {
      const a = readArgs(m[1]);
      if (a.length >= 3 && a[2] !== 'high') return; // an explicit level other than the default: left out
      add(a[0], 'block', lineNo); return;
    }
    if ((m = ln.match(allowCall)) && !ln.includes(`function ${allow}`)) {
      const a = readArgs(m[1]);
      if (a.length === 0) return; // the helper called inside the safe array's loop
      if (a.length >= 2 && a[1] !== 'high') return;
      add(a[0], 'allow', lineNo);
    }
  });
  for (const k of Object.keys(table)) if (!used.has(k)) throw new Error('table entry not in suite: ' + JSON.stringify(k));
  process.stdout.write(out.map((o) => JSON.stringify(o)).join('\n') + '\n');
}
