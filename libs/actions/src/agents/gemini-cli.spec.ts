import { readToolCall } from '../tool-call.js';

// Gemini CLI's tools: google-gemini/gemini-cli packages/core/src/tools/definitions/base-declarations.ts and
// packages/core/src/tools/mcp-tool.ts (MCP tools mcp_<server>_<tool>), as its BeforeTool hook receives them
// (https://geminicli.com/docs/hooks/reference) and its chat recordings hold them (~/.gemini/tmp/<project>/chats).
describe('Gemini CLI', () => {
  it('reads run_shell_command as a shell, with its directory and background flag', () => {
    expect(readToolCall('run_shell_command', { command: 'git push --force origin fix/date-parser', description: 'Publish the fix', is_background: false })).toEqual({
      kind: 'shell',
      command: 'git push --force origin fix/date-parser',
      read: [],
      written: [],
      urls: [],
    });
    expect(readToolCall('run_shell_command', { command: 'npm run dev', directory: 'web', is_background: true })).toMatchObject({ cwd: 'web', background: true });
    expect(readToolCall('run_shell_command', { command: 'ls', dir_path: 'src' }).cwd).toBe('src');
  });

  it('reads write_file as a write and replace as an edit', () => {
    expect(readToolCall('write_file', { file_path: '/home/dev/demo-app/src/week.ts', content: 'export const WEEK_MS = 604800000;\n' })).toMatchObject({
      kind: 'write',
      written: ['/home/dev/demo-app/src/week.ts'],
      content: 'export const WEEK_MS = 604800000;\n',
    });
    expect(readToolCall('replace', { file_path: 'index.html', instruction: 'Add a font', old_string: 'a', new_string: 'b', expected_replacements: 1 })).toMatchObject({
      kind: 'edit',
      written: ['index.html'],
    });
  });

  it('reads read_file by absolute_path or file_path, read_many_files by its paths', () => {
    expect(readToolCall('read_file', { absolute_path: '/home/dev/demo-app/README.md' })).toMatchObject({ kind: 'read', read: ['/home/dev/demo-app/README.md'] });
    expect(readToolCall('read_file', { file_path: '.gemini/skills/figma-to-code/SKILL.md', offset: 1 })).toMatchObject({ kind: 'read', read: ['.gemini/skills/figma-to-code/SKILL.md'] });
    expect(readToolCall('read_many_files', { paths: ['src/a.ts', 'src/b.ts'] })).toMatchObject({ kind: 'read', read: ['src/a.ts', 'src/b.ts'] });
  });

  it('reads glob, grep_search, search_file_content and list_directory as searches', () => {
    expect(readToolCall('glob', { pattern: '**/*booking*', dir_path: 'platform' })).toMatchObject({ kind: 'search', read: ['platform'] });
    expect(readToolCall('search_file_content', { pattern: 'booking-date-picker', path: 'resources', include: '**/*.js' })).toMatchObject({ kind: 'search', read: ['resources'] });
    expect(readToolCall('grep_search', { pattern: 'TODO', dir_path: 'src' })).toMatchObject({ kind: 'search', read: ['src'] });
    expect(readToolCall('list_directory', { dir_path: '.' })).toMatchObject({ kind: 'search', read: ['.'] });
  });

  it('reads web_fetch by the URLs in its prompt and google_web_search as a web search', () => {
    expect(readToolCall('web_fetch', { prompt: 'Summarize https://date-fns.org/docs/parseISO and http://example.com/a' })).toMatchObject({
      kind: 'fetch',
      urls: ['https://date-fns.org/docs/parseISO', 'http://example.com/a'],
    });
    expect(readToolCall('google_web_search', { query: 'date-fns ISO week' })).toMatchObject({ kind: 'fetch', query: 'date-fns ISO week' });
  });

  it('reads MCP tools as mcp_<server>_<tool>, and its bookkeeping as messages', () => {
    expect(readToolCall('mcp_github_create_issue', { owner: 'acme', repo: 'demo-app', title: 'x' })).toMatchObject({ kind: 'mcp', mcp: { server: 'github', tool: 'create_issue' } });
    for (const tool of ['write_todos', 'save_memory', 'ask_user', 'activate_skill', 'exit_plan_mode', 'update_topic']) expect(readToolCall(tool, {}).kind).toBe('message');
  });
});
