/**
 * The tool vocabularies of agents Warden supervises, mapped to what the tools do: SWE-agent's commands
 * (as tool names, or as the first word of a shell command, as SWE-agent runs them) and Claude Code's
 * bookkeeping tools. Their file edits become visible to the scope rules; their bookkeeping is a message.
 */
export interface AgentToolCall {
  intent: 'file_read' | 'file_creation' | 'file_modification' | 'message';
  read: string[];
  written: string[];
}

/** Claude Code's tools that only keep the agent's own notes, plans and tasks, or talk to the user. */
export const BOOKKEEPING_TOOLS: ReadonlySet<string> = new Set([
  'TodoWrite', 'TodoRead', 'TaskCreate', 'TaskUpdate', 'TaskList', 'TaskGet', 'TaskOutput', 'TaskStop', 'ToolSearch', 'Skill', 'SlashCommand', 'ExitPlanMode',
  'EnterPlanMode', 'AskUserQuestion', 'BashOutput', 'KillShell', 'KillBash', 'Monitor', 'ListMcpResourcesTool', 'ReadMcpResourceTool',
]);

const READ_COMMANDS = new Set(['open', 'goto', 'scroll_up', 'scroll_down', 'find_file', 'search_dir', 'search_file', 'filemap']);

/** A word without the quotes around it (`"open"` → open). */
function unquoted(word: string): string {
  return word.replace(/^(["'])(.*)\1$/, '$2');
}

function words(text: string): string[] {
  return text.trim().split(/\s+/).map(unquoted);
}

/** The commands below: a line starting with any other word is none of them, whatever its length. */
const COMMANDS = new Set(['edit', 'submit', 'create', 'str_replace_editor', ...READ_COMMANDS]);

/** A SWE-agent command line: `open src/a.py 40`, `edit 12:20\n…\nend_of_edit`, `create x.py`, `submit`. */
function sweAgentCommand(line: string): AgentToolCall | null {
  // The first word decides, read in place: nearly every line is no such command, and a long one is not copied to find that out.
  if (!COMMANDS.has(unquoted(/^\s*(\S*)/.exec(line)![1]!))) return null;
  const first = line.trimStart().split('\n', 1)[0]!;
  const [name, ...args] = words(first);
  if (!name) return null;
  if (name === 'edit' && /^\d+:\d+$/.test(args[0] ?? '')) return { intent: 'file_modification', read: [], written: [] };
  if (name === 'submit' && !args.length) return { intent: 'message', read: [], written: [] };
  if (name === 'create' && args.length === 1) return { intent: 'file_creation', read: [], written: [args[0]!] };
  if (name === 'str_replace_editor' && args[1]) {
    const [sub, path] = args as [string, string];
    if (sub === 'view') return { intent: 'file_read', read: [path], written: [] };
    if (sub === 'create') return { intent: 'file_creation', read: [], written: [path] };
    return { intent: 'file_modification', read: [], written: [path] };
  }
  if (!READ_COMMANDS.has(name)) return null;
  if (name === 'open') return args[0] ? { intent: 'file_read', read: [args[0]], written: [] } : null;
  if (name === 'find_file' || name === 'search_dir') return { intent: 'file_read', read: args[1] ? [args[1]] : [], written: [] };
  if (name === 'search_file') return { intent: 'file_read', read: args[1] ? [args[1]] : [], written: [] };
  return args.every((a) => /^\d*$/.test(a)) ? { intent: 'file_read', read: [], written: [] } : null;
}

/** What an agent-specific tool call does, or null for any other tool. */
export function agentToolCall(tool: string, input: Record<string, unknown>, command: string | undefined): AgentToolCall | null {
  if (BOOKKEEPING_TOOLS.has(tool)) return { intent: 'message', read: [], written: [] };
  if (command !== undefined) return sweAgentCommand(command);
  // SWE-agent tools proposed under their own names, with their arguments as input fields or one line.
  if (tool && !/\s/.test(tool) && !COMMANDS.has(unquoted(tool))) return null;
  const line = typeof input['args'] === 'string' ? `${tool} ${input['args']}` : [tool, ...Object.values(input).filter((v) => typeof v === 'string')].join(' ');
  const call = sweAgentCommand(line);
  if (call && tool === 'edit' && typeof input['path'] === 'string') call.written.push(input['path']);
  return call;
}
