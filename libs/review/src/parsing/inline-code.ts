/**
 * Code handed to an interpreter on its command line or input (`python -c`, `node -e`, `perl -e`, `ruby -e`,
 * `php -r`, PowerShell `-Command`, a here-document fed to `python3`): what it makes the shell run and
 * which files it deletes, written as the shell commands they amount to, so the shell rules judge them.
 * Only the calls that reach the shell or the file system are read; the rest of the program is not.
 */

type Language = 'python' | 'javascript' | 'perl' | 'ruby' | 'php' | 'powershell' | 'applescript' | 'awk';

interface InlineCode {
  code: { text: string; via: string }[];
  commands: { argv: string[]; dynamic: boolean[]; via: string }[];
}

/** Every interpreter name below; one test that turns away the names of every other program. */
const INTERPRETER_NAME = /^(?:python|pypy|node|bun|deno|perl|j?ruby|php|pwsh|powershell|osascript|[gmn]?awk)/i;

function languageOf(program: string): Language | null {
  if (!INTERPRETER_NAME.test(program)) return null;
  if (/^(?:python[\d.]*|pypy[\d.]*)$/.test(program)) return 'python';
  if (/^(?:node|nodejs|bun|deno)$/.test(program)) return 'javascript';
  if (/^perl[\d.]*$/.test(program)) return 'perl';
  if (/^(?:ruby|jruby)[\d.]*$/.test(program)) return 'ruby';
  if (/^php[\d.]*$/.test(program)) return 'php';
  if (/^(?:pwsh|powershell)(?:\.exe)?$/i.test(program)) return 'powershell';
  if (program === 'osascript') return 'applescript';
  if (/^[gmn]?awk$/.test(program)) return 'awk';
  return null;
}

/** The program text an interpreter call runs, or undefined when it runs a script file or module. */
function codeOf(language: Language, argv: readonly string[], input: string | undefined): string | undefined {
  const args = argv.slice(1);
  if (language === 'powershell') {
    const i = args.findIndex((a) => /^-(?:c|command)$/i.test(a));
    if (i >= 0) return args.slice(i + 1).join(' ');
    return args.some((a) => !a.startsWith('-')) ? undefined : input;
  }
  if (language === 'javascript' && argv[0]!.endsWith('deno') && args[0] === 'eval') return args[1];
  if (language === 'awk') {
    // awk [-F fs] [-v var=value] 'program' [file …]; -f reads the program from a file.
    for (let i = 0; i < args.length; i++) {
      const a = args[i]!;
      if (a === '--') return args[i + 1];
      if (a === '-f' || a.startsWith('--file')) return undefined;
      if (a === '-F' || a === '-v' || a === '--field-separator' || a === '--assign') i++;
      else if (!a.startsWith('-')) return a;
    }
    return undefined;
  }
  const flag = { python: /^-[a-zA-Z]*c$/, javascript: /^(?:-e|--eval|-p|--print|-pe)$/, perl: /^-[a-zA-Z]*[eE]$/, ruby: /^-[a-zA-Z]*e$/, php: /^-r$/, applescript: /^-e$/ }[language];
  const parts: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (flag.test(a) && args[i + 1] !== undefined) parts.push(args[++i]!);
    else if (language === 'python' && /^-c./.test(a)) parts.push(a.slice(2));
    else if (language === 'python' && (a === '-m' || !a.startsWith('-'))) return parts.length ? parts.join('\n') : a === '-' ? input : undefined;
    else if (language !== 'python' && !a.startsWith('-') && !parts.length) return undefined;
  }
  return parts.length ? parts.join('\n') : input;
}

/** Calls that hand a string (or a list of words) to the shell, per language. */
const SHELL_CALLS: Record<Exclude<Language, 'powershell'>, RegExp> = {
  python: /\b(?:os\.(?:system|popen|exec[lv]p?e?)|subprocess\.(?:run|call|check_call|check_output|Popen|getoutput|getstatusoutput)|commands\.getoutput|pty\.spawn)\s*\(/g,
  javascript: /\b(?:execSync|execFileSync|execFile|exec|spawnSync|spawn|execa|execaSync|shelljs\.exec)\s*\(/g,
  perl: /\b(?:system|exec|qx)\s*[({]?/g,
  ruby: /\b(?:system|exec|spawn|IO\.popen|Open3\.\w+|%x)\s*[({]?/g,
  php: /\b(?:system|exec|shell_exec|passthru|popen|proc_open)\s*\(/g,
  applescript: /\bdo shell script\s+/g,
  // system("cmd"), and the command an output pipe runs: print | "cmd".
  awk: /\bsystem\s*\(|\|\s*(?=")/g,
};

/** File system deletions: which call, and whether it is recursive. */
const DELETIONS: { pattern: RegExp; recursive: boolean | 'option' }[] = [
  { pattern: /\bshutil\.rmtree\s*\(/g, recursive: true },
  { pattern: /\bos\.(?:remove|unlink)\s*\(/g, recursive: false },
  { pattern: /\bos\.(?:rmdir|removedirs)\s*\(/g, recursive: false },
  { pattern: /\b(?:fs\.|fsp\.|promises\.)?(?:rmSync|rmdirSync|rm|rmdir)\s*\(/g, recursive: 'option' },
  { pattern: /\b(?:fs\.)?unlinkSync\s*\(/g, recursive: false },
  { pattern: /\b(?:rimraf(?:\.sync)?|rimrafSync|fse?\.(?:removeSync|remove|emptyDirSync|emptyDir))\s*\(/g, recursive: true },
  { pattern: /\bFileUtils\.(?:rm_rf|rm_r|remove_dir|remove_entry(?:_secure)?|rmtree)\s*[( ]/g, recursive: true },
  { pattern: /\b(?:FileUtils\.rm|File\.delete|File\.unlink|Dir\.rmdir|Dir\.delete)\s*[( ]/g, recursive: false },
  { pattern: /\b(?:rmtree|remove_tree)\s*[( ]/g, recursive: true },
  { pattern: /\bunlink\s*[( ]/g, recursive: false },
];

/** Expressions for the home directory in the languages above. */
const HOME = /homedir\(\)|os\.path\.expanduser\(\s*["']~["']\s*\)|Path\.home\(\)|Dir\.home|ENV\[["']HOME["']\]|\$ENV\{HOME\}|process\.env\.HOME|os\.environ\[["']HOME["']\]|getenv\(["']HOME["']\)/;

/** String literal or list of string literals at the start of a call's arguments. */
function literalsAt(code: string, from: number): { words: string[]; list: boolean; end: number } | null {
  const rest = code.slice(from, from + 4000);
  const single = /^\s*(?:r|f|b)?("""[\s\S]*?"""|'''[\s\S]*?'''|"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'|`(?:[^`\\]|\\.)*`)/.exec(rest);
  if (single) return { words: [unquote(single[1]!)], list: false, end: from + single[0].length };
  const list = /^\s*[[(]\s*((?:(?:"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*')\s*,?\s*)+)[\])]/.exec(rest);
  if (list) {
    const words = [...list[1]!.matchAll(/"((?:[^"\\]|\\.)*)"|'((?:[^'\\]|\\.)*)'/g)].map((m) => (m[1] ?? m[2] ?? '').replace(/\\(.)/g, '$1'));
    return { words, list: true, end: from + list[0].length };
  }
  return null;
}

function unquote(literal: string): string {
  const quote = literal.startsWith('"""') || literal.startsWith("'''") ? 3 : 1;
  return literal.slice(quote, -quote).replace(/\\(["'\\`])/g, '$1');
}

/** The path a deletion call names: a literal, the home directory, or an expression Warden cannot evaluate. */
function deletedPath(code: string, from: number): { path: string; dynamic: boolean } {
  const rest = code.slice(from, from + 400);
  const home = HOME.exec(rest);
  // A glob of a literal pattern names what it deletes: `unlink glob("/etc/*")`, `os.remove(*glob.glob('/x/*'))`.
  const glob = /^\s*\(?\s*\*?(?:glob\.glob|glob|Dir\.glob)\s*\(/.exec(rest);
  const literal = literalsAt(code, glob ? from + glob[0].length : from);
  if (home && (!literal || home.index < literal.end - from)) {
    const after = /^[^,)]*?,\s*(["'])([^"']*)\1/.exec(rest.slice(home.index + home[0].length));
    return { path: after ? `~/${after[2]}` : '~', dynamic: false };
  }
  if (literal && !literal.list) {
    const path = literal.words[0]!;
    return { path: path.startsWith('~') ? path : path, dynamic: false };
  }
  return { path: '{expression}', dynamic: true };
}

function shellCalls(language: Exclude<Language, 'powershell'>, code: string, via: string, out: InlineCode): void {
  const pattern = SHELL_CALLS[language];
  pattern.lastIndex = 0;
  for (let match = pattern.exec(code); match; match = pattern.exec(code)) {
    const args = literalsAt(code, match.index + match[0].length);
    if (!args) continue;
    const second = !args.list ? literalsAt(code.replace(/^\s*,/, ''), args.end + (/^\s*,/.exec(code.slice(args.end))?.[0].length ?? 0)) : null;
    if (args.list) out.commands.push({ argv: args.words, dynamic: args.words.map(() => false), via });
    else if (second?.list && /spawn|execFile|popen|exec[lv]/.test(match[0])) {
      const argv = [args.words[0]!, ...second.words];
      out.commands.push({ argv, dynamic: argv.map(() => false), via });
    } else out.code.push({ text: args.words[0]!, via });
  }
  // Backticks run the shell in perl, ruby and php.
  if (language === 'perl' || language === 'ruby' || language === 'php') {
    for (const m of code.matchAll(/`([^`]+)`/g)) out.code.push({ text: m[1]!, via });
  }
}

function deletions(code: string, via: string, out: InlineCode): void {
  for (const { pattern, recursive } of DELETIONS) {
    pattern.lastIndex = 0;
    for (let match = pattern.exec(code); match; match = pattern.exec(code)) {
      const { path, dynamic } = deletedPath(code, match.index + match[0].length);
      const options = code.slice(match.index, match.index + match[0].length + 300);
      const deep = recursive === true || (recursive === 'option' && /recursive\s*:\s*true/.test(options));
      const argv = deep ? ['rm', '-rf', path] : ['rm', '-f', path];
      out.commands.push({ argv, dynamic: [false, false, dynamic], via });
    }
  }
}

/** PowerShell's own deletion: `Remove-Item -Recurse -Force C:\x`, and its aliases. */
function powershellDeletions(code: string, via: string, out: InlineCode): void {
  for (const m of code.matchAll(/\b(?:Remove-Item|rm|rmdir|del|erase|rd|ri)\b([^;|\n]*)/gi)) {
    const words = m[1]!.trim().split(/\s+/).filter(Boolean);
    const recursive = words.some((w) => /^-r(?:ecurse)?$/i.test(w));
    const targets = words.filter((w) => !w.startsWith('-')).map((w) => w.replace(/^["']|["']$/g, ''));
    if (targets.length) out.commands.push({ argv: ['rm', recursive ? '-rf' : '-f', ...targets], dynamic: [false, false, ...targets.map(() => false)], via });
  }
}

/** Languages whose comments run from `#` (after a space or at a line's start) to the end of the line. */
const HASH_COMMENTS: ReadonlySet<Language> = new Set(['python', 'perl', 'ruby', 'php', 'powershell', 'awk']);
/** Languages whose comments are `// …` and `/* … *\/`. */
const SLASH_COMMENTS: ReadonlySet<Language> = new Set(['javascript', 'php']);

/**
 * The code without its comments (`# os.remove("/x")` deletes nothing), strings kept whole: a `#` or `//`
 * inside a string literal is text. A `#` only starts a comment at a line's start or after a space or `;`
 * (perl's `s#a#b#`, `$#array` and PowerShell's `<#…#>` block are not cut short: a block comment is dropped whole).
 */
function withoutComments(language: Language, code: string): string {
  const hash = HASH_COMMENTS.has(language);
  const slash = SLASH_COMMENTS.has(language);
  if (!(hash && code.includes('#')) && !(slash && code.includes('/'))) return code;
  let out = '';
  let i = 0;
  while (i < code.length) {
    const c = code[i]!;
    if (c === '"' || c === "'" || (c === '`' && language === 'javascript')) {
      const triple = language === 'python' && code.startsWith(c.repeat(3), i);
      const close = triple ? c.repeat(3) : c;
      let j = i + close.length;
      while (j < code.length && !code.startsWith(close, j)) j += code[j] === '\\' ? 2 : 1;
      j = Math.min(code.length, j + close.length);
      out += code.slice(i, j);
      i = j;
      continue;
    }
    const before = i === 0 ? '\n' : code[i - 1]!;
    if (language === 'powershell' && code.startsWith('<#', i)) {
      const end = code.indexOf('#>', i + 2);
      i = end < 0 ? code.length : end + 2;
      continue;
    }
    const lineComment = (hash && c === '#' && /[\s;]/.test(before)) || (slash && code.startsWith('//', i) && before !== ':');
    if (lineComment) {
      const end = code.indexOf('\n', i);
      i = end < 0 ? code.length : end;
      continue;
    }
    if (slash && code.startsWith('/*', i)) {
      const end = code.indexOf('*/', i + 2);
      i = end < 0 ? code.length : end + 2;
      continue;
    }
    out += c;
    i++;
  }
  return out;
}

/** The code an interpreter (`program`, argv[0]'s base name) is given, without its comments; other programs' text as it is. */
export function codeWithoutComments(program: string, code: string): string {
  const language = languageOf(program);
  return language ? withoutComments(language, code) : code;
}

/** Programs whose name at the start of "code" means the agent wrote shell where a program was expected. */
const SHELL_LOOKING = /^\s*(?:sudo\s+)?(?:rm|git|find|dd|mkfs(?:\.\w+)?|chmod|chown|shred|truncate)\s+-/;

/** The shell code and file deletions an interpreter call amounts to, or null when argv is no interpreter with inline code; `program` is argv[0]'s base name. */
export function inlineCodeCommands(argv: readonly string[], input: string | undefined, program = (argv[0] ?? '').slice((argv[0] ?? '').lastIndexOf('/') + 1)): InlineCode | null {
  const language = languageOf(program);
  if (!language) return null;
  const written = codeOf(language, argv, input);
  if (written === undefined || !written.trim()) return null;
  const code = withoutComments(language, written);
  if (!code.trim()) return null;
  const via = `${program} code`;
  const out: InlineCode = { code: [], commands: [] };
  if (language === 'powershell') {
    powershellDeletions(code, via, out);
    out.code.push({ text: code, via });
    return out;
  }
  shellCalls(language, code, via, out);
  deletions(code, via, out);
  // awk's program is awk, never shell: only what it hands to the shell (above) is read as shell.
  if (language !== 'awk' && SHELL_LOOKING.test(code)) out.code.push({ text: code, via });
  return out;
}
