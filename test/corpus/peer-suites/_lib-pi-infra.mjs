// Shared by the readers of ramtinJ95/pi-infra-command-guard's suites (pi-infra-command-guard*.mjs).

/** The string literals of a line of TypeScript, up to a line comment. */
export function readLits(s) {
  const out = []; let i = 0;
  while (i < s.length) {
    const q = s[i];
    if (q === '"' || q === "'") {
      let v = ''; i++;
      while (s[i] !== q) { if (s[i] === '\\') { v += s[i + 1]; i += 2; } else v += s[i++]; if (i > s.length) throw new Error('unterminated ' + s); }
      i++; out.push(v);
    } else if (q === '/' && s[i + 1] === '/') break; else i++;
  }
  return out;
}
