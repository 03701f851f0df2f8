/** Splits a command line into words, keeping quoted parts together (enough to find paths and programs). */
export function shellWords(command: string): string[] {
  const words: string[] = [];
  // A quote left open (a line cut short) runs to the end, as the shell reads it.
  const pattern = /"((?:[^"\\]|\\.)*)(?:"|$)|'([^']*)(?:'|$)|(\S+)/g;
  for (const match of command.matchAll(pattern)) words.push(match[1] ?? match[2] ?? match[3] ?? '');
  return words;
}
