/** One thing to check: a tool call, and for a labelled vector what it should get. */
export interface CheckItem {
  tool: string;
  input: Record<string, unknown>;
  /** `block`: must be stopped (block or require_approval); `allow`: must not be. */
  expected?: 'block' | 'allow';
  /** Verdicts that are right for this vector, when narrower or other than what `expected` implies. */
  verdicts?: string[];
  tag?: string;
  family?: string;
  source?: string;
  /** Working directory of the vector; `--cwd` otherwise. */
  cwd?: string;
  /** Where it was read: `file:line`, or `argument N`. */
  origin: string;
}

export class CheckInputError extends Error {}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A JSON Lines object: `{"tool":"Bash","input":{"command":…}}`, with the corpus fields `expected`, `tag`, `family` … when labelled. */
function itemOfObject(value: Record<string, unknown>, origin: string): CheckItem {
  const input = isRecord(value['input']) ? value['input'] : typeof value['command'] === 'string' ? { command: value['command'] } : undefined;
  if (!input) throw new CheckInputError(`${origin}: expected an object with "input" (e.g. {"tool":"Bash","input":{"command":"ls"}}) or "command"`);
  const item: CheckItem = { tool: typeof value['tool'] === 'string' ? value['tool'] : 'Bash', input, origin };
  const expected = value['expected'];
  if (expected !== undefined) {
    if (expected !== 'block' && expected !== 'allow') throw new CheckInputError(`${origin}: "expected" must be "block" or "allow" (got ${JSON.stringify(expected)})`);
    item.expected = expected;
  }
  if (Array.isArray(value['verdicts'])) item.verdicts = value['verdicts'].map(String);
  for (const key of ['tag', 'family', 'source', 'cwd'] as const) if (typeof value[key] === 'string') item[key] = value[key];
  return item;
}

/**
 * Reads a file of things to check: JSON Lines of tool calls (labelled or not) when its lines are JSON
 * objects, otherwise one shell command per line. Blank lines and, in a file of commands, lines starting
 * with `#` are skipped.
 */
export function readCheckFile(text: string, name: string): CheckItem[] {
  const lines = text.split(/\r?\n/);
  const json = lines.find((l) => l.trim())?.trim().startsWith('{') ?? false;
  const items: CheckItem[] = [];
  lines.forEach((line, i) => {
    const origin = `${name}:${i + 1}`;
    if (!line.trim()) return;
    if (!json) {
      if (!line.trimStart().startsWith('#')) items.push({ tool: 'Bash', input: { command: line }, origin });
      return;
    }
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (error) {
      throw new CheckInputError(`${origin}: not valid JSON: ${(error as Error).message}`);
    }
    if (!isRecord(value)) throw new CheckInputError(`${origin}: expected a JSON object`);
    items.push(itemOfObject(value, origin));
  });
  return items;
}

/** Commands given as arguments. */
export function commandItems(commands: readonly string[], tool: string): CheckItem[] {
  return commands.map((command, i) => ({ tool, input: { command }, origin: `argument ${i + 1}` }));
}
