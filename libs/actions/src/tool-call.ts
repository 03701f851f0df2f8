import { argvRunning, commandLine } from './command-line.js';
import { mcpTool, type McpTool } from './mcp.js';
import { readPatch, type FileChange } from './patch.js';
import { sweAgentTool } from './swe-agent.js';
import { toolShape, type ToolKind, type ToolShape } from './vocabulary.js';

/**
 * What a tool call does and the fields Warden reads from it, whichever agent proposed it. Paths are as
 * the agent wrote them (resolvePath makes them canonical against the session's working directory).
 */
export interface ToolCall {
  kind: ToolKind;
  /** The command line it runs, as one line (an argv array joined as a shell reads it): a shell's, or an MCP tool's `command` argument. */
  command?: string;
  /** The directory the tool says it runs in (Codex `workdir`, Antigravity `Cwd`, Gemini CLI `directory`). */
  cwd?: string;
  /** It is started in the background (a command, a subagent). */
  background?: true;
  /** Files and directories it reads, lists or searches. */
  read: readonly string[];
  /** Files it creates, overwrites, changes or deletes. */
  written: readonly string[];
  /** What a patch does to each file it names. */
  changes?: readonly FileChange[];
  /** The text it writes (a file's content, an edit's replacement, a patch). */
  content?: string;
  urls: readonly string[];
  /** A web search rather than a fetch, and what it searches for ('' when the input does not say). */
  query?: string;
  mcp?: McpTool;
  /** The background command a poll or kill is about. */
  process?: string;
}

const NONE: readonly string[] = Object.freeze([]);

// Field names by what they hold, over every agent's tools (vocabulary.ts): the first one present is read.
const COMMAND_FIELDS = ['command', 'cmd', 'CommandLine', 'script'];
const CWD_FIELDS = ['workdir', 'cwd', 'Cwd', 'directory', 'dir_path', 'working_directory'];
const FILE_FIELDS = ['file_path', 'path', 'notebook_path', 'target', 'filename', 'filePath', 'absolute_path', 'target_file', 'TargetFile', 'AbsolutePath'];
const SEARCH_FIELDS = ['path', 'dir_path', 'DirectoryPath', 'SearchPath', 'target_directory', 'directory', 'file_path', 'filePath'];
const LIST_FIELDS = ['paths', 'target_directories'];
const URL_FIELDS = ['url', 'uri', 'endpoint', 'Url'];
const QUERY_FIELDS = ['query', 'search_term', 'Query'];
const CONTENT_FIELDS = ['content', 'new_string', 'file_text', 'new_str', 'insert_text', 'new_source', 'patch', 'contents', 'CodeContent', 'ReplacementContent', 'newString', 'code_edit', 'patchText'];
const PROCESS_FIELDS = ['bash_id', 'shell_id', 'task_id', 'id', 'CommandId', 'TaskId', 'session_id', 'cell_id'];

/** Input fields that hold a command, a directory, a path or written content: what is left describes the action. */
export const ACTION_FIELDS: ReadonlySet<string> = new Set([...COMMAND_FIELDS, ...CWD_FIELDS, ...FILE_FIELDS, ...SEARCH_FIELDS, ...LIST_FIELDS, ...CONTENT_FIELDS]);

type Input = Readonly<Record<string, unknown>>;

function firstString(input: Input, fields: readonly string[]): string | undefined {
  for (let i = 0; i < fields.length; i++) {
    const value = input[fields[i]!];
    if (typeof value === 'string') return value;
  }
  return undefined;
}

/** The path a tool's input names in the usual fields (`file_path`, `path`, …), whatever the tool. */
export function firstPath(input: Input): string | undefined {
  return firstString(input, FILE_FIELDS);
}

/** The command line of a shell tool's input: a string, or an argv array (Codex's `shell`). */
export function commandOf(input: Input): string | undefined {
  for (let i = 0; i < COMMAND_FIELDS.length; i++) {
    const value = input[COMMAND_FIELDS[i]!];
    if (typeof value === 'string') return value;
    if (Array.isArray(value) && value.length && value.every((word) => typeof word === 'string')) return commandLine(value as string[]);
  }
  return undefined;
}

/**
 * A copy of a shell tool's input that runs another command line, written in the field commandOf reads the
 * command from, so the agent runs it where it reads it (Claude Code's `command`, Antigravity's
 * `CommandLine`, Codex's argv `command`, which keeps its shell); `command` when the input names none.
 */
export function withCommandLine(input: Input, command: string): Record<string, unknown> {
  for (let i = 0; i < COMMAND_FIELDS.length; i++) {
    const field = COMMAND_FIELDS[i]!;
    const value = input[field];
    if (typeof value === 'string') return { ...input, [field]: command };
    if (Array.isArray(value) && value.length && value.every((word) => typeof word === 'string')) return { ...input, [field]: argvRunning(value as string[], command) };
  }
  return { ...input, command };
}

const URL_PATTERN = /\b(?:https?|wss?|ftp):\/\/[^\s'"<>|;)]+/gi;

/** URLs written in a text (a command line, a prompt). */
export function urlsIn(text: string): string[] {
  const urls: string[] = [];
  for (const match of text.matchAll(URL_PATTERN)) urls.push(match[0]);
  return urls;
}

function paths(input: Input, fields: readonly string[]): readonly string[] {
  const first = firstString(input, fields);
  let found: string[] | undefined = first === undefined ? undefined : [first];
  for (const field of LIST_FIELDS) {
    const list = input[field];
    if (!Array.isArray(list)) continue;
    for (const item of list) if (typeof item === 'string') (found ??= []).push(item);
  }
  return found ?? NONE;
}

function urls(input: Input): readonly string[] {
  const url = firstString(input, URL_FIELDS);
  return url === undefined ? NONE : [url];
}

/** A call of a known kind, its fields read the usual way. */
function callOfKind(kind: ToolKind, input: Input): ToolCall {
  switch (kind) {
    case 'shell': {
      const call: ToolCall = { kind, read: NONE, written: NONE, urls: urls(input) };
      const command = commandOf(input);
      if (command !== undefined) call.command = command;
      const cwd = firstString(input, CWD_FIELDS);
      if (cwd) call.cwd = cwd;
      return call;
    }
    case 'read':
      return { kind, read: paths(input, FILE_FIELDS), written: NONE, urls: urls(input) };
    case 'search':
      return { kind, read: paths(input, SEARCH_FIELDS), written: NONE, urls: urls(input) };
    case 'write':
    case 'edit':
    case 'delete': {
      const call: ToolCall = { kind, read: NONE, written: paths(input, FILE_FIELDS), urls: urls(input) };
      const content = kind === 'delete' ? undefined : firstString(input, CONTENT_FIELDS);
      if (content !== undefined) call.content = content;
      return call;
    }
    case 'poll':
    case 'kill': {
      const call: ToolCall = { kind, read: NONE, written: NONE, urls: urls(input) };
      const id = input[PROCESS_FIELDS.find((f) => typeof input[f] === 'string' || typeof input[f] === 'number') ?? ''];
      if (id !== undefined) call.process = String(id);
      return call;
    }
    case 'mcp':
    case 'unknown': {
      const path = firstPath(input);
      const call: ToolCall = { kind, read: path === undefined ? NONE : [path], written: NONE, urls: urls(input) };
      // What else it does is its own: a `content` it sends may be a file it writes elsewhere, a `command` one it runs there.
      const content = firstString(input, CONTENT_FIELDS);
      if (content !== undefined) call.content = content;
      const command = kind === 'mcp' ? commandOf(input) : undefined;
      if (command !== undefined) call.command = command;
      return call;
    }
    default:
      return { kind, read: NONE, written: NONE, urls: urls(input) };
  }
}

/** A call read by its tool's own rule (vocabulary.ts's readings). */
function callOfShape(tool: string, shape: ToolShape, input: Input): ToolCall {
  switch (shape.reading) {
    case 'patch':
      return readPatch(input, NONE, urls(input));
    case 'swe_agent': {
      // `edit` and `create` are also other agents' file tools ({path}, {filePath}): those read the usual way.
      if ((shape.kind === 'edit' || shape.kind === 'write') && firstPath(input) !== undefined) return callOfKind(shape.kind, input);
      const command = sweAgentTool(tool, input);
      if (!command) return callOfKind(shape.kind === 'edit' || shape.kind === 'write' ? shape.kind : 'unknown', input);
      // Its search commands (find_file, search_dir) read as searches.
      const kind = command.kind === 'read' ? shape.kind : command.kind;
      return { kind, read: command.read, written: command.written, urls: urls(input) };
    }
    case 'str_replace_editor': {
      const sub = input['command'];
      if (typeof sub !== 'string') {
        const command = sweAgentTool(tool, input);
        if (command) return { kind: command.kind, read: command.read, written: command.written, urls: urls(input) };
        return callOfKind('edit', input);
      }
      return callOfKind(sub === 'view' ? 'read' : sub === 'create' ? 'write' : 'edit', input);
    }
    case 'prompt_urls': {
      const call = callOfKind('fetch', input);
      const prompt = input['prompt'];
      if (typeof prompt === 'string') call.urls = [...call.urls, ...urlsIn(prompt)];
      return call;
    }
    case 'web_search': {
      const call = callOfKind('fetch', input);
      call.query = firstString(input, QUERY_FIELDS) ?? '';
      return call;
    }
    case 'manage_task':
      return callOfKind(String(input['Action']).toLowerCase() === 'kill' ? 'kill' : 'poll', input);
    case 'call_mcp_tool': {
      const call = callOfKind('mcp', input);
      const server = input['ServerName'];
      const name = input['ToolName'];
      call.mcp = { server: typeof server === 'string' ? server : '', tool: typeof name === 'string' ? name : '' };
      return call;
    }
    default:
      return callOfKind(shape.kind, input);
  }
}

/** A tool no agent's vocabulary lists: an MCP tool by its name, a SWE-agent command line, anything with a command, or unknown. */
function unlistedCall(tool: string, input: Input): ToolCall {
  const mcp = mcpTool(tool);
  if (mcp) {
    const call = callOfKind('mcp', input);
    call.mcp = mcp;
    return call;
  }
  // A whole SWE-agent command line as the tool's name (`open src/a.py`).
  if (/\s/.test(tool)) {
    const command = sweAgentTool(tool, input);
    if (command) return { kind: command.kind, read: command.read, written: command.written, urls: urls(input) };
  }
  // Whatever runs a command line is a shell, whatever its name.
  if (firstString(input, COMMAND_FIELDS) !== undefined) return callOfKind('shell', input);
  return callOfKind('unknown', input);
}

/**
 * Reads a tool call of any agent Warden supervises (vocabulary.ts): what kind of tool it is, the command
 * it runs, the paths it reads and writes, the URLs it fetches, the MCP server and tool it calls.
 */
export function readToolCall(tool: string, input: Input): ToolCall {
  const shape = toolShape(tool);
  const call = !shape ? unlistedCall(tool, input) : shape.reading ? callOfShape(tool, shape, input) : callOfKind(shape.kind, input);
  // Commands, and subagents (Claude Code's Agent), may be started in the background.
  if (input['run_in_background'] === true || input['is_background'] === true) call.background = true;
  return call;
}
