/**
 * SWE-agent's commands, as the first word of a shell line (SWE-agent runs them in its shell) or as tool
 * names (https://swe-agent.com/latest/config/tools/): its editor and search commands, `submit`.
 */
export interface SweAgentCommand {
  kind: 'read' | 'write' | 'edit' | 'message';
  read: string[];
  written: string[];
}

const READ_COMMANDS = new Set(['open', 'goto', 'scroll_up', 'scroll_down', 'find_file', 'search_dir', 'search_file', 'filemap']);

/** The commands below: a line starting with any other word is none of them, whatever its length. */
export const SWE_AGENT_COMMANDS: ReadonlySet<string> = new Set(['edit', 'submit', 'create', 'str_replace_editor', ...READ_COMMANDS]);

/** A word without the quotes around it (`"open"` → open). */
function unquoted(word: string): string {
  return word.replace(/^(["'])(.*)\1$/, '$2');
}

function words(text: string): string[] {
  return text.trim().split(/\s+/).map(unquoted);
}

/** A SWE-agent command line: `open src/a.py 40`, `edit 12:20\n…\nend_of_edit`, `create x.py`, `submit`; null for any other line. */
export function sweAgentCommand(line: string): SweAgentCommand | null {
  // The first word decides, read in place: nearly every line is no such command, and a long one is not copied to find that out.
  if (!SWE_AGENT_COMMANDS.has(unquoted(/^\s*(\S*)/.exec(line)![1]!))) return null;
  const first = line.trimStart().split('\n', 1)[0]!;
  const [name, ...args] = words(first);
  if (!name) return null;
  if (name === 'edit' && /^\d+:\d+$/.test(args[0] ?? '')) return { kind: 'edit', read: [], written: [] };
  if (name === 'submit' && !args.length) return { kind: 'message', read: [], written: [] };
  if (name === 'create' && args.length === 1) return { kind: 'write', read: [], written: [args[0]!] };
  if (name === 'str_replace_editor' && args[1]) {
    const [sub, path] = args as [string, string];
    if (sub === 'view') return { kind: 'read', read: [path], written: [] };
    if (sub === 'create') return { kind: 'write', read: [], written: [path] };
    return { kind: 'edit', read: [], written: [path] };
  }
  if (!READ_COMMANDS.has(name)) return null;
  if (name === 'open') return args[0] ? { kind: 'read', read: [args[0]], written: [] } : null;
  if (name === 'find_file' || name === 'search_dir' || name === 'search_file') return { kind: 'read', read: args[1] ? [args[1]] : [], written: [] };
  return args.every((a) => /^\d*$/.test(a)) ? { kind: 'read', read: [], written: [] } : null;
}

/** A SWE-agent command proposed under its own name, its arguments as input fields or as one `args` line. */
export function sweAgentTool(tool: string, input: Readonly<Record<string, unknown>>): SweAgentCommand | null {
  const line = typeof input['args'] === 'string' ? `${tool} ${input['args']}` : [tool, ...Object.values(input).filter((v) => typeof v === 'string')].join(' ');
  const call = sweAgentCommand(line);
  if (call && tool === 'edit' && typeof input['path'] === 'string') call.written.push(input['path']);
  return call;
}
