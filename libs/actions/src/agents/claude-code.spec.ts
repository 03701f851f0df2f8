import { readToolCall } from '../tool-call.js';

// Tool names and tool_input per tool: Claude Code's hooks reference, https://code.claude.com/docs/en/hooks
// ("PreToolUse" input: Bash/PowerShell {command, description?, timeout?, run_in_background?}, Write {file_path, content},
// Edit {file_path, old_string, new_string, replace_all?}, Read {file_path, offset?, limit?}, Glob {pattern, path?},
// Grep {pattern, path?, glob?}, WebFetch {url, prompt}, WebSearch {query}; MCP tools mcp__<server>__<tool>).
describe('Claude Code', () => {
  it('reads Bash and PowerShell as shells, the command as written', () => {
    expect(readToolCall('Bash', { command: 'git push --force origin fix/date-parser', description: 'Publish the fix', timeout: 120000, run_in_background: false })).toEqual({
      kind: 'shell',
      command: 'git push --force origin fix/date-parser',
      read: [],
      written: [],
      urls: [],
    });
    expect(readToolCall('PowerShell', { command: 'Get-ChildItem C:\\work' })).toMatchObject({ kind: 'shell', command: 'Get-ChildItem C:\\work' });
    expect(readToolCall('Bash', { command: 'npm run dev', run_in_background: true })).toMatchObject({ kind: 'shell', background: true });
  });

  it('reads Write as a write, Edit, MultiEdit and NotebookEdit as edits, with the content written', () => {
    expect(readToolCall('Write', { file_path: '/home/dev/demo-app/src/week.ts', content: 'export const WEEK_MS = 604800000;\n' })).toEqual({
      kind: 'write',
      read: [],
      written: ['/home/dev/demo-app/src/week.ts'],
      content: 'export const WEEK_MS = 604800000;\n',
      urls: [],
    });
    expect(readToolCall('Edit', { file_path: '/home/dev/demo-app/src/date.ts', old_string: 'a', new_string: 'b', replace_all: false })).toMatchObject({ kind: 'edit', written: ['/home/dev/demo-app/src/date.ts'], content: 'b' });
    expect(readToolCall('MultiEdit', { file_path: '/w/a.ts', edits: [{ old_string: 'a', new_string: 'b' }] })).toMatchObject({ kind: 'edit', written: ['/w/a.ts'] });
    expect(readToolCall('NotebookEdit', { notebook_path: '/w/n.ipynb', new_source: 'print(1)' })).toMatchObject({ kind: 'edit', written: ['/w/n.ipynb'], content: 'print(1)' });
  });

  it('reads Read and NotebookRead as reads, Glob, Grep and LS as searches', () => {
    expect(readToolCall('Read', { file_path: '/home/dev/demo-app/README.md', offset: 1, limit: 200 })).toEqual({ kind: 'read', read: ['/home/dev/demo-app/README.md'], written: [], urls: [] });
    expect(readToolCall('NotebookRead', { notebook_path: '/w/n.ipynb' })).toMatchObject({ kind: 'read', read: ['/w/n.ipynb'] });
    expect(readToolCall('Glob', { pattern: '**/*.ts', path: '/w/src' })).toMatchObject({ kind: 'search', read: ['/w/src'] });
    expect(readToolCall('Grep', { pattern: 'parseDate', glob: '*.ts' })).toMatchObject({ kind: 'search', read: [] });
    expect(readToolCall('LS', { path: '/w' })).toMatchObject({ kind: 'search', read: ['/w'] });
  });

  it('reads WebFetch as a fetch of its URL and WebSearch as a web search', () => {
    expect(readToolCall('WebFetch', { url: 'https://date-fns.org/docs/parseISO', prompt: 'How does parseISO treat week dates?' })).toEqual({
      kind: 'fetch',
      read: [],
      written: [],
      urls: ['https://date-fns.org/docs/parseISO'],
    });
    expect(readToolCall('WebSearch', { query: 'date-fns ISO week' })).toEqual({ kind: 'fetch', read: [], written: [], urls: [], query: 'date-fns ISO week' });
  });

  it('reads MCP tools by their server and tool, plugin servers included', () => {
    expect(readToolCall('mcp__github__create_issue', { owner: 'acme', repo: 'demo-app', title: 'x' })).toMatchObject({ kind: 'mcp', mcp: { server: 'github', tool: 'create_issue' } });
    expect(readToolCall('mcp__plugin_acme_db__run_query', { sql: 'select 1' }).mcp).toEqual({ server: 'plugin_acme_db', tool: 'run_query' });
    expect(readToolCall('mcp__context7__resolve-library-id', { libraryName: 'react' }).mcp).toEqual({ server: 'context7', tool: 'resolve-library-id' });
  });

  it('reads Task and Agent as subagents, and the bookkeeping tools as messages', () => {
    expect(readToolCall('Task', { description: 'Explore', prompt: 'Find the parser', subagent_type: 'Explore' }).kind).toBe('delegate');
    expect(readToolCall('Agent', { description: 'Explore', prompt: 'x', run_in_background: true })).toMatchObject({ kind: 'delegate', background: true });
    const bookkeeping = ['TodoWrite', 'TodoRead', 'TaskCreate', 'TaskUpdate', 'TaskList', 'TaskGet', 'ToolSearch', 'Skill', 'SlashCommand', 'ExitPlanMode', 'EnterPlanMode', 'AskUserQuestion', 'Monitor', 'ListMcpResourcesTool', 'ReadMcpResourceTool'];
    expect(bookkeeping.map((tool) => readToolCall(tool, {}).kind)).toEqual(bookkeeping.map(() => 'message'));
  });

  it('reads the polls and kills of background shells with the shell they are about', () => {
    expect(readToolCall('BashOutput', { bash_id: 'b1' })).toMatchObject({ kind: 'poll', process: 'b1' });
    expect(readToolCall('TaskOutput', { task_id: 't7', block: false })).toMatchObject({ kind: 'poll', process: 't7' });
    expect(readToolCall('KillShell', { shell_id: 'b1' })).toMatchObject({ kind: 'kill', process: 'b1' });
    expect(readToolCall('KillBash', { shell_id: 'b1' }).kind).toBe('kill');
    expect(readToolCall('TaskStop', { task_id: 't7' })).toMatchObject({ kind: 'kill', process: 't7' });
  });
});
