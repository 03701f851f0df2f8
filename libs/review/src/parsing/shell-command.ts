/** One simple command of a shell line, after wrappers such as `sudo` and `env` were peeled off. */
export interface ShellSegment {
  /** The command and its arguments, quotes removed. */
  argv: string[];
  /** Ran through sudo, doas or su. */
  privileged: boolean;
  redirects: { operator: string; target: string }[];
  /** Reads its input from the previous segment's output. */
  pipedFrom: boolean;
  /** Came from inside `$(...)`, backticks, or `sh -c '...'`. */
  nested: boolean;
  /** Ended by `&`: runs in the background. */
  background: boolean;
}

const SEPARATORS = ['&&', '||', ';', '|', '&', '\n'];
const WRAPPERS = new Set(['nohup', 'time', 'nice', 'ionice', 'command', 'exec', 'builtin', 'stdbuf', 'timeout', 'xargs']);
const PRIVILEGE = new Set(['sudo', 'doas']);
const SHELLS = new Set(['sh', 'bash', 'zsh', 'dash', 'ksh']);

interface RawSegment {
  words: string[];
  redirects: { operator: string; target: string }[];
  separator: string | null;
  nested: string[];
}

/** Splits a shell line into words and operators, honouring quotes, escapes and `$(...)`. */
function lex(line: string): RawSegment[] {
  const segments: RawSegment[] = [];
  let current: RawSegment = { words: [], redirects: [], separator: null, nested: [] };
  let word = '';
  let inWord = false;
  let pendingRedirect: string | null = null;
  const endWord = () => {
    if (!inWord) return;
    if (pendingRedirect) {
      current.redirects.push({ operator: pendingRedirect, target: word });
      pendingRedirect = null;
    } else {
      current.words.push(word);
    }
    word = '';
    inWord = false;
  };
  const endSegment = (separator: string | null) => {
    endWord();
    current.separator = separator;
    segments.push(current);
    current = { words: [], redirects: [], separator: null, nested: [] };
  };
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (c === '\\' && i + 1 < line.length) {
      word += line[++i];
      inWord = true;
    } else if (c === "'") {
      const end = line.indexOf("'", i + 1);
      const stop = end === -1 ? line.length : end;
      word += line.slice(i + 1, stop);
      inWord = true;
      i = stop;
    } else if (c === '"') {
      let j = i + 1;
      while (j < line.length && line[j] !== '"') {
        if (line[j] === '\\' && j + 1 < line.length) j++;
        j++;
      }
      const inner = line.slice(i + 1, j);
      for (const sub of substitutions(inner)) current.nested.push(sub);
      word += inner.replace(/\\(["\\$`])/g, '$1');
      inWord = true;
      i = j;
    } else if (c === '$' && line[i + 1] === '(') {
      const end = matchingParen(line, i + 1);
      current.nested.push(line.slice(i + 2, end));
      word += line.slice(i, end + 1);
      inWord = true;
      i = end;
    } else if (c === '`') {
      const end = line.indexOf('`', i + 1);
      const stop = end === -1 ? line.length : end;
      current.nested.push(line.slice(i + 1, stop));
      word += line.slice(i, stop + 1);
      inWord = true;
      i = stop;
    } else if (c === ' ' || c === '\t') {
      endWord();
    } else if (c === '#' && !inWord) {
      const newline = line.indexOf('\n', i);
      if (newline === -1) break;
      i = newline - 1;
    } else if (c === '>' || c === '<' || (c === '&' && line[i + 1] === '>')) {
      // A file descriptor glued to the operator (`2>`) belongs to it, not to the previous word.
      let operator = c;
      if (inWord && /^\d$/.test(word)) {
        operator = word + c;
        word = '';
        inWord = false;
      } else {
        endWord();
      }
      if (c === '&') operator += line[++i];
      while (line[i + 1] === '>' || line[i + 1] === '<' || line[i + 1] === '|' || line[i + 1] === '-') {
        if (line[i + 1] === '|' && !operator.endsWith('>')) break;
        if (line[i + 1] === '-' && !operator.endsWith('<<')) break;
        operator += line[++i];
      }
      if (line[i + 1] === '&' && /\d/.test(line[i + 2] ?? '')) {
        i += 2; // 2>&1 duplicates a descriptor: no file involved
        continue;
      }
      pendingRedirect = operator;
    } else {
      const separator = SEPARATORS.find((s) => line.startsWith(s, i));
      if (separator) {
        endWord();
        const heredocs = separator === '\n' ? heredocDelimiters(current) : [];
        endSegment(separator);
        i += separator.length - 1;
        // A here-document's body is data, not commands: skip to its delimiter line.
        for (const delimiter of heredocs) {
          const end = findDelimiterLine(line, i + 1, delimiter);
          i = end;
        }
      } else {
        word += c;
        inWord = true;
      }
    }
  }
  endSegment(null);
  return segments.filter((s) => s.words.length || s.redirects.length || s.nested.length);
}

function heredocDelimiters(segment: RawSegment): string[] {
  return segment.redirects.filter((r) => r.operator.startsWith('<<') && r.operator !== '<<<').map((r) => r.target);
}

/** Index of the newline that ends the delimiter line, or the end of the text. */
function findDelimiterLine(line: string, from: number, delimiter: string): number {
  let start = from;
  while (start < line.length) {
    const newline = line.indexOf('\n', start);
    const text = line.slice(start, newline === -1 ? line.length : newline);
    if (text.trim() === delimiter) return newline === -1 ? line.length : newline;
    if (newline === -1) return line.length;
    start = newline + 1;
  }
  return line.length;
}

function matchingParen(line: string, open: number): number {
  let depth = 0;
  for (let i = open; i < line.length; i++) {
    if (line[i] === '(') depth++;
    else if (line[i] === ')' && --depth === 0) return i;
  }
  return line.length;
}

function substitutions(text: string): string[] {
  const found: string[] = [];
  for (let i = 0; i < text.length; i++) {
    if (text[i] === '$' && text[i + 1] === '(') {
      const end = matchingParen(text, i + 1);
      found.push(text.slice(i + 2, end));
      i = end;
    } else if (text[i] === '`') {
      const end = text.indexOf('`', i + 1);
      if (end === -1) break;
      found.push(text.slice(i + 1, end));
      i = end;
    }
  }
  return found;
}

/** Removes env assignments, `env`, `sudo` and similar wrappers; reports whether privileges were raised. */
function unwrap(words: string[]): { argv: string[]; privileged: boolean } {
  let argv = [...words];
  let privileged = false;
  for (let guard = 0; guard < 10 && argv.length; guard++) {
    const head = basename(argv[0]!);
    if (/^[A-Za-z_][A-Za-z0-9_]*=/.test(argv[0]!)) {
      argv = argv.slice(1);
    } else if (PRIVILEGE.has(head)) {
      privileged = true;
      argv = argv.slice(1);
      // sudo's own options: -u user, -g group, -E, -H, -n ...
      while (argv[0]?.startsWith('-')) argv = argv.slice(/^-[ugCDhprtTU]$/.test(argv[0]) ? 2 : 1);
    } else if (head === 'su' && argv.includes('-c')) {
      privileged = true;
      argv = ['sh', '-c', argv[argv.indexOf('-c') + 1] ?? ''];
    } else if (head === 'env') {
      argv = argv.slice(1);
      while (argv[0] && (argv[0].startsWith('-') || /^[A-Za-z_][A-Za-z0-9_]*=/.test(argv[0]))) argv = argv.slice(1);
    } else if (WRAPPERS.has(head)) {
      argv = argv.slice(1);
      while (argv[0]?.startsWith('-')) argv = argv.slice(1);
      if (head === 'timeout' && argv[0] && /^\d/.test(argv[0])) argv = argv.slice(1);
    } else {
      break;
    }
  }
  return { argv, privileged };
}

export function basename(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1);
}

/**
 * Parses a shell command line into its simple commands: separated by `;`, `&&`, `||`, `|`, `&` and
 * newlines, with quotes removed, redirections collected, wrappers (`sudo`, `env`, `nohup`, ...) peeled
 * off, and the commands inside `$(...)`, backticks and `sh -c '...'` parsed as well.
 */
export function parseShellCommand(command: string, depth = 0): ShellSegment[] {
  const segments: ShellSegment[] = [];
  let previousSeparator: string | null = null;
  for (const raw of lex(command)) {
    const { argv, privileged } = unwrap(raw.words);
    const segment: ShellSegment = {
      argv,
      privileged,
      redirects: raw.redirects,
      pipedFrom: previousSeparator === '|',
      nested: depth > 0,
      background: raw.separator === '&',
    };
    segments.push(segment);
    previousSeparator = raw.separator;
    if (depth < 3) {
      for (const inner of raw.nested) segments.push(...nestedSegments(inner, depth, privileged));
      const shell = argv[0] && SHELLS.has(basename(argv[0])) ? argv.indexOf('-c') : -1;
      if (shell > 0 && argv[shell + 1]) segments.push(...nestedSegments(argv[shell + 1]!, depth, privileged));
    }
  }
  return segments;
}

function nestedSegments(command: string, depth: number, privileged: boolean): ShellSegment[] {
  return parseShellCommand(command, depth + 1).map((s) => ({ ...s, nested: true, privileged: s.privileged || privileged }));
}
