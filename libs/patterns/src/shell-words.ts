/** Splits a command line into words, keeping quoted parts together (enough to find paths and programs). */
export function shellWords(command: string): string[] {
  const words: string[] = [];
  // A quote left open (a line cut short) runs to the end, as the shell reads it.
  const pattern = /"((?:[^"\\]|\\.)*)(?:"|$)|'([^']*)(?:'|$)|(\S+)/g;
  for (const match of command.matchAll(pattern)) words.push(match[1] ?? match[2] ?? match[3] ?? '');
  return words;
}

/** Words that separate the simple commands of a line (as `shellWords` leaves them). */
const SEPARATORS = new Set(['&&', '||', '|', ';', '&', 'then', 'do', 'else', '{', '}', '(', ')']);
/** Words that only lead into the command that follows them. */
const LEADERS = new Set(['sudo', 'time', 'nohup', 'command', 'exec', 'watch', 'if', 'while', 'until', '!']);

/** The simple commands of a line: split at operators and shell keywords, `$(…)` and assignments unwrapped. */
export function simpleCommands(words: readonly string[]): string[][] {
  const commands: string[][] = [];
  let current: string[] = [];
  const end = () => {
    if (current.length) commands.push(current);
    current = [];
  };
  for (let word of words) {
    if (SEPARATORS.has(word)) {
      end();
      continue;
    }
    // `JOB=$(gh run view 42 …)`, `$(gh …`: what runs inside is a command of its own.
    const inner = /^(?:[A-Za-z_]\w*=)?\$\((.*)$/.exec(word);
    if (inner) {
      end();
      word = inner[1]!;
    }
    const closes = /[;)]+$/.exec(word);
    if (closes) word = word.slice(0, closes.index);
    if (word && !(current.length === 0 && (LEADERS.has(word) || /^[A-Za-z_]\w*=/.test(word)))) current.push(word);
    if (closes) end();
  }
  end();
  return commands;
}
