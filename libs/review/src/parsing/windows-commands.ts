import { isWindowsPath } from '@warden/actions';
import { DerivedValue } from '../derived-value.js';
import type { ParsedAction } from './parsed-action.js';
import { programKey } from './shell-command.js';

/** One simple command of a cmd or PowerShell line: its program as the catalogue knows it, and its argument text. */
export interface WindowsCommand {
  program: string;
  args: string;
  /** It reads the output of the command before it (`Get-Content x.ps1 | Invoke-Expression`). */
  pipedFrom: boolean;
}

/**
 * A cmd or PowerShell line: bash's reading of it drops its backslashes, so it is also split as cmd and PowerShell
 * split it. What only Windows writes tells it anywhere: `%VAR%`, `$env:`, `cmd /c` or PowerShell named, a drive, a
 * share or a device (`C:\x`, `\\host\x`, `\\.\PhysicalDrive0`), a registry hive; with a backslash, what only PowerShell writes (below). A
 * backslash alone tells it only where bash is not the reading (a session on Windows, a line bash cannot parse): in
 * a bash line it is an escape (`sed 's/[\\/&]/\\&/g'`, `rmdir my\ dir`), and the naive split would read the text of
 * quotes and here-documents as commands.
 */
const WINDOWS_MARKER = /%\w+%|\$env:|\bcmd(?:\.exe\b|\s+\/[ck]\b)|\b(?:powershell|pwsh)(?:\.exe)?\b|(?:^|[\s"'=(])(?:[a-z]:\\|\\\\[\w.?])|\bHK(?:LM|CU|CR|U|CC)[:\\]|\bHKEY_[A-Z_]+/i;
const BACKSLASH = /\\(?!\s)/;
const windowsLine = (action: ParsedAction, line: string): boolean =>
  WINDOWS_MARKER.test(line) || (BACKSLASH.test(line) && (POWERSHELL.test(line) || (action.cwd !== undefined && isWindowsPath(action.cwd)) || action.syntaxError !== undefined));

const NO_WINDOWS_COMMANDS: readonly WindowsCommand[] = Object.freeze([]);

const WINDOWS_COMMANDS = new DerivedValue((action: ParsedAction): readonly WindowsCommand[] => {
  const line = action.command;
  if (!line || !windowsLine(action, line)) return NO_WINDOWS_COMMANDS;
  const out: WindowsCommand[] = [];
  // Pieces and the separators between them, one after the other.
  const parts = line.split(/\s*(&&|\|\||[;&|\n])\s*/);
  for (let i = 0; i < parts.length; i += 2) {
    let piece = parts[i]!.replace(/^[\s"'(]+|[\s"')]+$/g, '');
    const pipedFrom = i > 0 && parts[i - 1] === '|';
    for (;;) {
      const inner = /^(?:cmd(?:\.exe)?\s+\/[ck]|(?:powershell|pwsh)(?:\.exe)?(?:\s+-\w+(?:\s+(?!-)(?:bypass|hidden|unrestricted))?)*\s+-(?:c|command))\s+["']?/i.exec(piece);
      if (!inner) break;
      piece = piece.slice(inner[0].length);
    }
    const m = /^(\S+)\s*(.*)$/s.exec(piece);
    if (m) out.push({ program: programKey(m[1]!), args: m[2]!, pipedFrom });
  }
  return out;
});

/**
 * The words of a cmd or PowerShell argument text, quotes removed. A quote the line's split left open (the
 * closing one of `cmd /c "del \"C:\Users\Mohit J Madhu\x\""`) runs to the end: a name with spaces stays one word.
 */
export function windowsWords(args: string): string[] {
  // `\"` inside `cmd /c "…"` is a quote the agent escaped for the outer one; a backslash left at the end is one whose
  // quote the split took with the outer one.
  return (args.replace(/\\"/g, '"').replace(/\\$/, '"').match(/"[^"]*"?|'[^']*'?|[^\s"']+/g) ?? []).map((w) => w.replace(/^["']|["']$/g, ''));
}

/** The simple commands of a cmd or PowerShell line as they split it, program and argument text (none for other lines). */
export function windowsCommands(action: ParsedAction): readonly WindowsCommand[] {
  return WINDOWS_COMMANDS.of(action);
}

/**
 * What only PowerShell writes: an assignment (`$gh = …`), the call operator (`& $gh auth status`, `& "C:\…\gh.exe"`),
 * a .NET static call (`[IO.File]::ReadAllText`), a cmdlet (`Get-Content`) or an environment variable (`$env:PATH`).
 */
const POWERSHELL = /(?:^|[;{(|]\s*)(?:\$\w+\s*=[^=]|&\s*[$"'{]|\[[\w.]+\]::|[A-Z][a-z]+-[A-Z][A-Za-z]+\b)|\$env:/;

/**
 * A line of a session on Windows that bash cannot parse and that reads as PowerShell: the agent's shell there is
 * PowerShell, which runs it; bash's syntax error says nothing about it.
 */
export function powershellLine(action: ParsedAction): boolean {
  return readsAsPowerShell(action.command ?? '', action.cwd, action.syntaxError);
}

/** The same, asked while the action is read. */
export function readsAsPowerShell(command: string, cwd: string | undefined, syntaxError: string | undefined): boolean {
  return syntaxError !== undefined && cwd !== undefined && isWindowsPath(cwd) && POWERSHELL.test(command);
}

/** PowerShell's and cmd's deleters. */
const WINDOWS_DELETERS = new Set(['remove-item', 'ri', 'rd', 'rmdir', 'del', 'erase']);
/** PowerShell parameters whose value is not a path to delete (`-Exclude *.log`, `-ErrorAction SilentlyContinue`). */
const VALUED_PARAMETER = /^-(?:include|exclude|filter|erroraction|ea|warningaction|stream|credential|informationaction|pipelinevariable|outvariable)$/i;

/** What a cmd or PowerShell deleter names: its path operands (`\` read as `/`, quotes removed), and whether it recurses. */
export function windowsDeletions(action: ParsedAction): { program: string; paths: string[]; recursive: boolean }[] {
  const out: { program: string; paths: string[]; recursive: boolean }[] = [];
  for (const { program, args } of windowsCommands(action)) {
    if (!WINDOWS_DELETERS.has(program)) continue;
    const words = windowsWords(args);
    const paths: string[] = [];
    let recursive = false;
    for (let i = 0; i < words.length; i++) {
      const word = words[i]!;
      if (/^-(?:r|recurse)$/i.test(word) || /^\/s$/i.test(word)) recursive = true;
      else if (VALUED_PARAMETER.test(word)) i++;
      else if (/^-(?:path|literalpath)$/i.test(word)) continue;
      else if (/^-\w/.test(word) || /^\/[a-z](?::\w*)?$/i.test(word)) continue;
      // A variable or a subexpression is known only when it runs.
      else if (/^[$@(]/.test(word)) continue;
      else paths.push(word.replace(/\\/g, '/'));
    }
    if (paths.length) out.push({ program, paths, recursive });
  }
  return out;
}
