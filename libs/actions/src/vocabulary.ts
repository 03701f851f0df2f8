/**
 * The tool vocabularies of the agents Warden supervises: each tool name and what kind of tool it is.
 * Sources per agent are cited above its list; where an agent's documentation leaves a name open, the
 * names are those seen in its recorded sessions.
 */

/** What a tool does, as far as reading the action goes. */
export type ToolKind =
  | 'shell' // runs a command line
  | 'read' // reads a file
  | 'search' // lists or searches directories
  | 'write' // creates or overwrites a file
  | 'edit' // changes part of a file
  | 'delete' // deletes a file
  | 'fetch' // fetches a URL or searches the web
  | 'mcp' // calls a tool of an MCP server
  | 'delegate' // hands a task to a subagent
  | 'message' // the agent's own bookkeeping: plans, todos, questions to the user
  | 'poll' // reads the output of a background command
  | 'kill' // stops a background command
  | 'unknown';

/** How a tool's input is read when the kind's usual fields do not say it all. */
export type ToolReading =
  | 'patch' // an apply_patch text: its headers name the files
  | 'swe_agent' // a SWE-agent command: its arguments name the files
  | 'str_replace_editor' // view / create / anything else, by its `command`
  | 'prompt_urls' // the URLs are written in the prompt (Gemini CLI's web_fetch)
  | 'manage_task' // Antigravity's tasks: `Action` kill stops one, anything else looks at them
  | 'call_mcp_tool' // Antigravity's MCP calls: server and tool are input fields
  | 'web_search'; // a web search, not a fetch of one URL

export interface ToolShape {
  readonly kind: ToolKind;
  readonly reading?: ToolReading;
}

const table = new Map<string, ToolShape>();

function tools(kind: ToolKind, names: readonly string[], reading?: ToolReading): void {
  const shape: ToolShape = Object.freeze(reading ? { kind, reading } : { kind });
  for (const name of names) table.set(name, shape);
}

// Claude Code: hooks reference, tool names and tool_input (https://code.claude.com/docs/en/hooks, mirrored in
// ericbuess/claude-code-docs docs/hooks.md); bookkeeping tools as its recorded sessions name them.
tools('shell', ['Bash', 'PowerShell']);
tools('read', ['Read', 'NotebookRead']);
tools('search', ['Glob', 'Grep', 'LS']);
tools('write', ['Write']);
tools('edit', ['Edit', 'MultiEdit', 'NotebookEdit']);
tools('fetch', ['WebFetch']);
tools('fetch', ['WebSearch'], 'web_search');
tools('delegate', ['Task', 'Agent']);
tools('poll', ['BashOutput', 'TaskOutput']);
tools('kill', ['KillShell', 'KillBash', 'TaskStop']);
tools('message', [
  'TodoWrite', 'TodoRead', 'TaskCreate', 'TaskUpdate', 'TaskList', 'TaskGet', 'ToolSearch', 'Skill', 'SlashCommand', 'ExitPlanMode',
  'EnterPlanMode', 'AskUserQuestion', 'Monitor', 'ListMcpResourcesTool', 'ReadMcpResourceTool',
  // Agent teams' coordination, as recorded sessions name it: a team made and removed, a message to a teammate.
  'TeamCreate', 'TeamDelete', 'SendMessage',
]);

// OpenAI Codex: codex-rs hooks (tool_name Bash / apply_patch / mcp__server__tool, https://developers.openai.com/codex/hooks)
// and its rollout files (~/.codex/sessions): shell (argv), shell_command, local_shell, exec_command ({cmd, workdir}),
// write_stdin and wait on a running command, apply_patch (freeform patch text), update_plan, request_user_input, view_image.
tools('shell', ['shell', 'shell_command', 'local_shell', 'exec_command']);
tools('edit', ['apply_patch'], 'patch');
tools('poll', ['write_stdin', 'wait']);
tools('message', ['update_plan', 'request_user_input']);
tools('read', ['view_image']);
tools('fetch', ['web_search'], 'web_search');

// Gemini CLI: google-gemini/gemini-cli packages/core/src/tools/definitions/base-declarations.ts (and its chat recordings).
tools('shell', ['run_shell_command']);
tools('write', ['write_file']);
tools('edit', ['replace']);
tools('read', ['read_file', 'read_many_files']);
tools('search', ['glob', 'grep_search', 'search_file_content', 'list_directory']);
tools('fetch', ['web_fetch'], 'prompt_urls');
tools('fetch', ['google_web_search'], 'web_search');
tools('message', ['write_todos', 'save_memory', 'ask_user', 'activate_skill', 'enter_plan_mode', 'exit_plan_mode', 'update_topic']);

// Antigravity (agy): tool names and PascalCase args from its transcripts (specstoryai/getspecstory
// specstory-cli/docs/antigravity-format-spec.md; cisco-ai-defense/defenseclaw's captured PreToolUse payload).
tools('shell', ['run_command']);
tools('read', ['view_file']);
tools('write', ['write_to_file']);
tools('edit', ['replace_file_content', 'multi_replace_file_content']);
tools('search', ['list_dir', 'codebase_search']);
tools('fetch', ['read_url_content']);
tools('fetch', ['search_web'], 'web_search');
tools('poll', ['command_status']);
tools('poll', ['manage_task'], 'manage_task');
tools('delegate', ['invoke_subagent']);
tools('message', ['ask_permission', 'list_permissions', 'ask_question', 'schedule', 'manage_subagents']);
tools('mcp', ['call_mcp_tool'], 'call_mcp_tool');

// OpenCode: anomalyco/opencode packages/plugin (1.x tools bash/read/write/edit/patch/glob/grep/list/webfetch/task/todowrite/todoread;
// 2.x shell and subagent, https://opencode.ai/v2/docs/build/plugins/migrate-v1) and its session exports.
tools('shell', ['bash']);
tools('read', ['read']);
tools('write', ['write']);
tools('edit', ['edit'], 'swe_agent');
tools('edit', ['patch'], 'patch');
tools('search', ['grep', 'list']);
tools('fetch', ['webfetch']);
tools('fetch', ['websearch'], 'web_search');
tools('delegate', ['task', 'subagent']);
tools('message', ['todowrite', 'todoread', 'question', 'skill']);

// GitHub Copilot CLI: github/docs content/copilot/reference/hooks-reference.md (bash, powershell, view, create, edit,
// glob, grep, web_fetch, task, ask_user; in its Claude mapping also str_replace_editor, rg, web_search, update_todo).
tools('shell', ['powershell']);
tools('read', ['view']);
tools('write', ['create'], 'swe_agent');
tools('edit', ['str_replace_editor'], 'str_replace_editor');
tools('search', ['rg']);
tools('message', ['update_todo']);

// Cursor: hooks (https://cursor.com/docs/agent/hooks: Shell, Read, Write, StrReplace, Delete, Grep, Glob, WebFetch, Task,
// MCP:<tool>; run_terminal_cmd in DefenseClaw's e2e payloads) and its agent transcripts (edit_file, Await, ReadLints, …).
tools('shell', ['Shell', 'run_terminal_cmd']);
tools('read', ['ReadLints']);
tools('write', ['TabWrite']);
tools('edit', ['StrReplace', 'edit_file']);
tools('delete', ['Delete', 'delete_file']);
tools('search', ['SemanticSearch']);
tools('poll', ['Await']);
tools('message', ['AskQuestion', 'CreatePlan']);

// Cursor's own names for its tools, as its sessions saved by SpecStory show them (`.specstory/history/*.md`, e.g.
// github.com/0xmcc/ubi-course @ f7b4e62; undocumented).
tools('shell', ['run_terminal_command_v2']);
tools('read', ['read_file_v2', 'read_lints']);
tools('edit', ['search_replace', 'edit_file_v2']);
tools('search', ['glob_file_search', 'ripgrep_raw_search']);
tools('message', ['todo_write']);

// VS Code's Copilot agent: microsoft/vscode-copilot-chat src/extension/tools/common/toolNames.ts (read_file, list_dir,
// grep_search and create_file are the same names as above).
tools('shell', ['run_in_terminal']);
tools('poll', ['get_terminal_output', 'get_task_output']);
tools('read', ['get_errors']);
tools('edit', ['replace_string_in_file', 'multi_replace_string_in_file', 'insert_edit_into_file']);
tools('search', ['file_search', 'semantic_search']);
tools('fetch', ['fetch_webpage']);
tools('delegate', ['runSubagent']);
tools('message', ['manage_todo_list']);
// The same tools by the ids VS Code gives them (ContributedToolName in the same file), as its chat sessions and
// their SpecStory exports record them.
tools('read', ['copilot_readFile', 'copilot_getErrors', 'copilot_viewImage', 'copilot_readProjectStructure', 'copilot_getChangedFiles']);
tools('write', ['copilot_createFile']);
tools('edit', ['copilot_replaceString', 'copilot_multiReplaceString', 'copilot_insertEdit']);
tools('search', ['copilot_findFiles', 'copilot_findTextInFiles', 'copilot_listDirectory', 'copilot_searchCodebase']);
tools('fetch', ['copilot_fetchWebPage']);

// Factory Droid: Factory-AI/factory docs/reference/hooks-reference.mdx (Execute, Read, Edit, Create, Glob, Grep, LS,
// Task, FetchUrl, WebSearch, mcp__server__tool).
tools('shell', ['Execute']);
tools('write', ['Create']);
tools('fetch', ['FetchUrl']);

// SWE-agent's commands proposed as tools (https://swe-agent.com/latest/config/tools/).
tools('read', ['open', 'goto', 'scroll_up', 'scroll_down', 'filemap'], 'swe_agent');
tools('search', ['find_file', 'search_dir', 'search_file'], 'swe_agent');
tools('message', ['submit'], 'swe_agent');

// Names of other agents and generic tool servers Warden already read: Cline-style (execute_command, list_files,
// search_files, create_file), terminal and HTTP tools, str_replace_based_edit_tool, process tools.
tools('shell', ['execute_command', 'terminal']);
tools('read', ['cat', 'open_file', 'str_replace_based_edit_tool:view']);
tools('search', ['list_files', 'search', 'search_files']);
tools('write', ['create_file']);
tools('edit', ['str_replace_based_edit_tool']);
tools('delete', ['remove_file']);
tools('fetch', ['http', 'fetch', 'http_request']);
tools('poll', ['shell_output', 'check_process']);
tools('kill', ['kill_process']);

/** The same names in lower case, for agents and adapters that spell them so (`bashoutput`, `multiedit`). */
const lowerCase = new Map<string, ToolShape>();
for (const [name, shape] of table) if (!table.has(name.toLowerCase()) && !lowerCase.has(name.toLowerCase())) lowerCase.set(name.toLowerCase(), shape);

/** The shape of a tool by its name, exactly as spelled, else in lower case; undefined for a name no agent uses. */
export function toolShape(tool: string): ToolShape | undefined {
  return table.get(tool) ?? lowerCase.get(tool.toLowerCase());
}

/**
 * Search tools that answer with names only, never a file's content: Claude Code's Glob and LS, Gemini CLI's glob and
 * list_directory, Antigravity's list_dir, OpenCode's list, SWE-agent's find_file, Cline's list_files.
 */
const NAME_LISTERS = new Set(['glob', 'ls', 'list_directory', 'list_dir', 'list', 'find_file', 'list_files']);

/** Whether a tool lists names (of files, directories) and shows no content. */
export function listsNames(tool: string): boolean {
  return NAME_LISTERS.has(tool.toLowerCase()) && toolShape(tool)?.kind === 'search';
}
