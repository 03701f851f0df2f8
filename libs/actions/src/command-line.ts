/** Shells whose `-c` (or `-lc`) argument is the whole command. */
const SHELL = /^(?:.*[\\/])?(?:bash|sh|zsh|dash|ksh|fish)(?:\.exe)?$/i;
const POWERSHELL = /^(?:.*[\\/])?(?:powershell|pwsh)(?:\.exe)?$/i;
const CMD = /^(?:.*[\\/])?cmd(?:\.exe)?$/i;
/** Words a shell reads as themselves, without quotes. */
const PLAIN_WORD = /^[\w@%+=:,./-]+$/;

const quoted = (word: string) => (PLAIN_WORD.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`);

/**
 * An argv array as the command line it runs (Codex's `shell` tool: `["bash", "-lc", "npm test"]` → `npm test`):
 * the script of a shell, PowerShell or cmd started for one command, else the words quoted as a shell reads them.
 */
export function commandLine(argv: readonly string[]): string {
  const [program = '', flag = '', script] = argv;
  if (argv.length === 3 && SHELL.test(program) && /^-[a-z]*c$/.test(flag)) return script!;
  if (argv.length === 3 && CMD.test(program) && /^\/c$/i.test(flag)) return script!;
  if (POWERSHELL.test(program) && argv.length >= 3 && /^-(?:c|command)$/i.test(argv[argv.length - 2]!)) return argv[argv.length - 1]!;
  return argv.map(quoted).join(' ');
}
