/**
 * Files that a sed or awk program opens by itself, named inside its program text rather than as
 * arguments: sed's `w file`, `s/a/b/w file` and `r file`; awk's `print > "file"` and `getline < "file"`.
 * `sed 'w /etc/passwd' notes.txt` writes /etc/passwd as `tee /etc/passwd` would.
 */
export interface ScriptFiles {
  read: string[];
  written: string[];
}

/** What the sed or awk command's program reads and writes, or null for other programs and programs that open nothing. */
export function scriptFiles(name: string, argv: readonly string[]): ScriptFiles | null {
  if (name === 'sed') return sedFiles(sedScripts(argv));
  // gawk arrives here as awk (command-unwrap reads Homebrew's g-names as the GNU tools).
  if (name === 'awk' || name === 'mawk' || name === 'nawk') return awkFiles(awkProgram(argv));
  return null;
}

/** sed's scripts: each `-e` / `--expression` value, or else its first operand. `-f` files are not read here. */
function sedScripts(argv: readonly string[]): string[] {
  const scripts: string[] = [];
  let fromFile = false;
  let i = 1;
  for (; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === '--') {
      i++;
      break;
    }
    if (!a.startsWith('-') || a === '-') break;
    if (a.startsWith('--')) {
      if (a === '--expression' || a === '--file' || a === '--line-length') {
        if (a === '--expression') scripts.push(argv[i + 1] ?? '');
        else if (a === '--file') fromFile = true;
        i++;
      } else if (a.startsWith('--expression=')) scripts.push(a.slice('--expression='.length));
      else if (a.startsWith('--file=')) fromFile = true;
      continue;
    }
    // A cluster of short options: `-n`, `-ne 'p'`, `-ne'w out'` (the script joined), `-i.bak`, `-l 80`.
    for (let k = 1; k < a.length; k++) {
      const option = a[k];
      if (option === 'e' || option === 'f' || option === 'l') {
        const value = k + 1 < a.length ? a.slice(k + 1) : argv[++i];
        if (option === 'e') scripts.push(value ?? '');
        if (option === 'f') fromFile = true;
        break;
      }
      if (option === 'i') break;
    }
  }
  if (!scripts.length && !fromFile && i < argv.length) scripts.push(argv[i]!);
  return scripts;
}

const STREAMS = /^\/dev\/(?:stdout|stderr|stdin|null)$/;

/**
 * The files sed's commands name: `w`/`W` (and the `w` flag of `s`) write, `r`/`R` read. A file name runs to
 * the end of its line; the rest of sed's language is walked only far enough to find where commands start.
 */
function sedFiles(scripts: readonly string[]): ScriptFiles | null {
  const found: ScriptFiles = { read: [], written: [] };
  for (const script of scripts) {
    let i = 0;
    const n = script.length;
    const restOfLine = () => {
      const end = script.indexOf('\n', i);
      const text = script.slice(i, end < 0 ? n : end).trim();
      i = end < 0 ? n : end + 1;
      return text;
    };
    const skipDelimited = (delimiter: string) => {
      while (i < n && script[i] !== delimiter) i += script[i] === '\\' ? 2 : 1;
      i++;
    };
    while (i < n) {
      const c = script[i]!;
      if (/[\s;{}!]/.test(c)) {
        i++;
        continue;
      }
      // Addresses: line numbers, `$`, `/regex/`, `\%regex%`, ranges and steps (`1,5`, `0~2`, `/a/,+3`).
      if (/[\d$,~+]/.test(c)) {
        i++;
        continue;
      }
      if (c === '/') {
        i++;
        skipDelimited('/');
        while (i < n && /[IM]/.test(script[i]!)) i++;
        continue;
      }
      if (c === '\\') {
        const delimiter = script[i + 1] ?? '';
        i += 2;
        skipDelimited(delimiter);
        continue;
      }
      i++;
      if (c === 's' || c === 'y') {
        const delimiter = script[i] ?? '';
        i++;
        skipDelimited(delimiter);
        skipDelimited(delimiter);
        if (c === 's') {
          while (i < n && /[gpiIeEmM\d]/.test(script[i]!)) i++;
          if (script[i] === 'w') {
            i++;
            const file = restOfLine();
            if (file && !STREAMS.test(file)) found.written.push(file);
          }
        }
      } else if (c === 'w' || c === 'W' || c === 'r' || c === 'R') {
        const file = restOfLine();
        if (file && !STREAMS.test(file)) (c === 'r' || c === 'R' ? found.read : found.written).push(file);
      } else if (c === 'a' || c === 'i' || c === 'c') {
        // Text to insert: to the end of the line, and on while lines end in a backslash (`1i\` then the text).
        let text = restOfLine();
        while (text.endsWith('\\') && i < n) text = restOfLine();
      } else if (c === 'b' || c === 't' || c === 'T' || c === ':' || c === 'e' || c === '#') {
        // A label or a command: to the end of the line (a label also ends at `;`).
        if (c === 'b' || c === 't' || c === 'T') while (i < n && script[i] !== ';' && script[i] !== '\n') i++;
        else restOfLine();
      }
    }
  }
  return found.read.length || found.written.length ? found : null;
}

/** awk's program: its first operand, after `-F fs`, `-v var=value` and the like; none when it comes from `-f`. */
function awkProgram(argv: readonly string[]): string | undefined {
  for (let i = 1; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === '--') return argv[i + 1];
    if (a === '-f' || a.startsWith('--file')) return undefined;
    if (a === '-F' || a === '-v' || a === '--assign' || a === '--field-separator') {
      i++;
      continue;
    }
    if (a.startsWith('-') && a !== '-') continue;
    return a;
  }
  return undefined;
}

const AWK_OUTPUT = /\bprintf?\b[^;{}\n]*?>>?\s*"([^"]+)"/g;
const AWK_INPUT = /\bgetline\b(?:\s+[A-Za-z_$][\w[\]$]*)?\s*<\s*"([^"]+)"/g;

function awkFiles(program: string | undefined): ScriptFiles | null {
  if (!program || (!program.includes('>') && !program.includes('<'))) return null;
  const found: ScriptFiles = { read: [], written: [] };
  for (const m of program.matchAll(AWK_OUTPUT)) if (!STREAMS.test(m[1]!)) found.written.push(m[1]!);
  for (const m of program.matchAll(AWK_INPUT)) if (!STREAMS.test(m[1]!)) found.read.push(m[1]!);
  return found.read.length || found.written.length ? found : null;
}
