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

/**
 * An argv array changed to run another command line, in the shape it had: the script of a shell, PowerShell
 * or cmd started for one command is replaced; any other argv becomes `bash -lc` with the line.
 */
export function argvRunning(argv: readonly string[], command: string): string[] {
  const [program = '', flag = ''] = argv;
  if (argv.length === 3 && SHELL.test(program) && /^-[a-z]*c$/.test(flag)) return [program, flag, command];
  if (argv.length === 3 && CMD.test(program) && /^\/c$/i.test(flag)) return [program, flag, command];
  if (POWERSHELL.test(program) && argv.length >= 3 && /^-(?:c|command)$/i.test(argv[argv.length - 2]!)) return [...argv.slice(0, -1), command];
  return ['bash', '-lc', command];
}
