// Shared by the readers of yurukusa/cc-safe-setup (cc-safe-setup.mjs, cc-safe-setup-more.mjs): how a test line's
// arguments split into words, as bash splits them.

// bash words: '…' literal, "…" with \\ \" \$ \` escapes, \x outside quotes; a bare $ or ` inside "…" marks an expansion.
export function words(s) {
  const out = []; let i = 0, expands = false;
  for (;;) {
    while (s[i] === ' ' || s[i] === '\t') i++;
    if (i >= s.length) return { out, expands };
    let w = '';
    while (i < s.length && s[i] !== ' ' && s[i] !== '\t') {
      const c = s[i];
      if (c === "'") { const j = s.indexOf("'", i + 1); if (j < 0) throw new Error('unterminated quote'); w += s.slice(i + 1, j); i = j + 1; }
      else if (c === '"') {
        i++;
        for (;;) {
          const d = s[i];
          if (d === undefined) throw new Error('unterminated double quote');
          if (d === '"') { i++; break; }
          if (d === '\\' && '\\"$`'.includes(s[i + 1])) { w += s[i + 1]; i += 2; continue; }
          if (d === '$' || d === '`') expands = true;
          w += d; i++;
        }
      } else if (c === '\\' && s[i + 1] !== undefined) { w += s[i + 1]; i += 2; }
      else if ('$`;&|<>()'.includes(c)) throw new Error('unquoted shell syntax');
      else { w += c; i++; }
    }
    out.push(w);
  }
}
