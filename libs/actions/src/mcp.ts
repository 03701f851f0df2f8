/** An MCP server's tool, as an agent names it. */
export interface McpTool {
  /** The server's name ('' where the agent's name for the tool leaves it out: Cursor's `MCP:<tool>`). */
  server: string;
  tool: string;
}

// Claude Code, Codex hooks, Factory Droid: mcp__<server>__<tool> (servers of plugins: mcp__plugin_<plugin>_<server>__<tool>).
const DOUBLE_UNDERSCORE = /^mcp__([^_]+(?:_[^_]+)*)__(.+)$/;
// Codex's recorded sessions: <server>__<tool>.
const SERVER_TOOL = /^([^_\s]+(?:_[^_\s]+)*)__([^\s]+)$/;
// Gemini CLI: mcp_<server>_<tool>, the server's name without underscores as far as the name shows.
const GEMINI = /^mcp_([^_\s]+)_([^\s]+)$/;
// Other clients: <server>/<tool>.
const SLASHED = /^([\w.@-]+)\/([\w.-]+)$/;

/** The server and tool of an MCP tool's name in the naming of the agent that calls it; undefined for any other name. */
export function mcpTool(name: string): McpTool | undefined {
  const match = DOUBLE_UNDERSCORE.exec(name) ?? (name.startsWith('MCP:') ? [name, '', name.slice(4)] : null) ?? GEMINI.exec(name) ?? SERVER_TOOL.exec(name) ?? SLASHED.exec(name);
  return match && match[2] ? { server: match[1]!, tool: match[2] } : undefined;
}
