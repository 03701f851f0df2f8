import { basename } from '../parsing/shell-command.js';

/**
 * A word of a shell line and where it stands in it. The shell parser answers what a line does; a rule
 * that rewrites one flag (`--force` → `--force-with-lease`) needs the positions, to keep the rest of the
 * line verbatim.
 */
export interface ShellWord {
  /** The word as written, quotes included. */
  text: string;
  /** The word with quotes and escapes removed. */
  value: string;
  start: number;
  end: number;
}

export interface TextEdit {
  start: number;
  end: number;
  text: string;
}

const WRAPPERS = new Set(['sudo', 'doas', 'env', 'nohup', 'time', 'nice', 'command', 'exec', 'builtin', 'stdbuf']);
const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*=/;

function matchingParen(line: string, open: number): number {
  let depth = 0;
  for (let i = open; i < line.length; i++) {
    if (line[i] === '(') depth++;
    else if (line[i] === ')' && --depth === 0) return i;
  }
  return line.length - 1;
}

/** Index of the newline that ends a here-document's delimiter line, or the end of the line. */
function heredocEnd(line: string, from: number, delimiter: string): number {
  let start = from;
  while (start < line.length) {
    const newline = line.indexOf('\n', start);
    const text = line.slice(start, newline === -1 ? line.length : newline);
    if (text.trim() === delimiter || newline === -1) return newline === -1 ? line.length : newline;
    start = newline + 1;
  }
  return line.length;
}

/**
 * Splits a shell line into its top-level simple commands (split at `;`, `&&`, `||`, `|`, `&`, newlines
 * and subshell parentheses), each a list of positioned words. Here-document bodies are skipped;
 * `$(...)` and quoted strings stay inside their word.
 */
export function shellCommands(line: string): ShellWord[][] {
  const commands: ShellWord[][] = [];
  let words: ShellWord[] = [];
  let value = '';
  let start = -1;
  let heredocs: string[] = [];
  let nextIsDelimiter = false;
  const endWord = (end: number) => {
    if (start < 0) return;
    const word = { text: line.slice(start, end), value, start, end };
    if (nextIsDelimiter) {
      heredocs.push(value);
      nextIsDelimiter = false;
    } else if (/^<<-?$/.test(word.text)) {
      nextIsDelimiter = true;
    } else if (/^<<-?[^<]/.test(word.text)) {
      heredocs.push(value.replace(/^<<-?/, ''));
    }
    words.push(word);
    value = '';
    start = -1;
  };
  const endCommand = (end: number) => {
    endWord(end);
    if (words.length) commands.push(words);
    words = [];
  };
  const begin = (i: number) => {
    if (start < 0) start = i;
  };
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (c === '\\' && i + 1 < line.length) {
      begin(i);
      if (line[i + 1] !== '\n') value += line[i + 1];
      i++;
    } else if (c === "'") {
      begin(i);
      const end = line.indexOf("'", i + 1);
      const stop = end === -1 ? line.length : end;
      value += line.slice(i + 1, stop);
      i = stop;
    } else if (c === '"') {
      begin(i);
      let j = i + 1;
      while (j < line.length && line[j] !== '"') j += line[j] === '\\' ? 2 : 1;
      value += line.slice(i + 1, Math.min(j, line.length)).replace(/\\(["\\$`])/g, '$1');
      i = j;
    } else if (c === '$' && line[i + 1] === '(') {
      begin(i);
      const end = matchingParen(line, i + 1);
      value += line.slice(i, end + 1);
      i = end;
    } else if (c === '`') {
      begin(i);
      const end = line.indexOf('`', i + 1);
      const stop = end === -1 ? line.length : end;
      value += line.slice(i, stop + 1);
      i = stop;
    } else if (c === ' ' || c === '\t') {
      endWord(i);
    } else if (c === '#' && start < 0) {
      const newline = line.indexOf('\n', i);
      if (newline === -1) break;
      i = newline - 1;
    } else if (c === '\n' || c === ';' || c === '(' || c === ')' || (c === '|' && line[i - 1] !== '>') || (c === '&' && line[i + 1] !== '>' && line[i - 1] !== '>' && line[i - 1] !== '<')) {
      endCommand(i);
      if ((c === '&' || c === '|') && line[i + 1] === c) i++;
      if (c === '\n') {
        for (const delimiter of heredocs) i = heredocEnd(line, i + 1, delimiter);
        heredocs = [];
      }
    } else {
      begin(i);
      value += c;
    }
  }
  endCommand(line.length);
  return commands;
}

/** Index of the command name in a simple command, after `sudo`, `env`, assignments and their options. */
export function commandStart(words: readonly ShellWord[]): number {
  let i = 0;
  while (i < words.length) {
    const value = words[i]!.value;
    if (ASSIGNMENT.test(value)) {
      i++;
      continue;
    }
    const name = basename(value);
    if (!WRAPPERS.has(name)) return i;
    i++;
    // sudo's options that take a value: -u user, -g group, ...
    while (i < words.length && words[i]!.value.startsWith('-')) i += (name === 'sudo' || name === 'doas') && /^-[ugCDhprtTU]$/.test(words[i]!.value) ? 2 : 1;
  }
  return -1;
}

/** Applies non-overlapping edits to a text. */
export function applyEdits(text: string, edits: readonly TextEdit[]): string {
  let result = text;
  for (const edit of [...edits].sort((a, b) => b.start - a.start)) result = result.slice(0, edit.start) + edit.text + result.slice(edit.end);
  return result;
}

/** An edit that removes a word together with the blanks that separate it from its neighbour. */
export function removeWord(line: string, word: ShellWord): TextEdit {
  let end = word.end;
  while (line[end] === ' ' || line[end] === '\t') end++;
  let start = word.start;
  if (end === word.end) while (start > 0 && (line[start - 1] === ' ' || line[start - 1] === '\t')) start--;
  return { start, end, text: '' };
}
