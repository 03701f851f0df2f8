import { readToolCall } from '../tool-call.js';

// Cursor's preToolUse tool names (https://cursor.com/docs/agent/hooks: Shell, Read, Write, StrReplace, Delete, Grep, Glob,
// WebFetch, Task, MCP:<tool>); run_terminal_cmd as in cisco-ai-defense/defenseclaw scripts/live-connector-e2e/golden/cursor;
// the inputs as its agent transcripts record them (~/.cursor/projects/<p>/agent-transcripts: Shell {command,
// working_directory}, Read {path}, Write {path, contents}, StrReplace {path, old_string, new_string}, Delete {path},
// Glob {glob_pattern, target_directory}, WebSearch {search_term}, Await {task_id}); edit_file {target_file} from its older agent.
describe('Cursor', () => {
  it('reads Shell and run_terminal_cmd as shells', () => {
    expect(readToolCall('Shell', { command: 'git push --force origin fix/date-parser' })).toMatchObject({ kind: 'shell', command: 'git push --force origin fix/date-parser' });
    expect(readToolCall('Shell', { command: 'npm run build', description: 'Build', working_directory: '/Users/me/ts-nim/frontend' }).cwd).toBe('/Users/me/ts-nim/frontend');
    expect(readToolCall('run_terminal_cmd', { command: 'npm run dev', is_background: true })).toMatchObject({ kind: 'shell', command: 'npm run dev', background: true });
  });

  it('reads Read, Write, StrReplace, edit_file and Delete by their path', () => {
    expect(readToolCall('Read', { path: '/Users/me/ts-nim/README.md' })).toMatchObject({ kind: 'read', read: ['/Users/me/ts-nim/README.md'] });
    expect(readToolCall('Read', { file_path: '/home/dev/demo-app/README.md' })).toMatchObject({ kind: 'read', read: ['/home/dev/demo-app/README.md'] });
    expect(readToolCall('Write', { path: '/Users/me/ts-nim/docker-compose.yml', contents: 'services: {}\n' })).toMatchObject({
      kind: 'write',
      written: ['/Users/me/ts-nim/docker-compose.yml'],
      content: 'services: {}\n',
    });
    expect(readToolCall('StrReplace', { path: '/Users/me/ts-nim/plan.md', old_string: 'a', new_string: 'b' })).toMatchObject({ kind: 'edit', written: ['/Users/me/ts-nim/plan.md'] });
    expect(readToolCall('edit_file', { target_file: 'src/app.ts', instructions: 'x', code_edit: 'y' })).toMatchObject({ kind: 'edit', written: ['src/app.ts'], content: 'y' });
    expect(readToolCall('Delete', { path: '/Users/me/ts-nim/Dockerfile' })).toMatchObject({ kind: 'delete', written: ['/Users/me/ts-nim/Dockerfile'] });
  });

  it('reads Glob, Grep and SemanticSearch as searches, ReadLints as a read of its paths', () => {
    expect(readToolCall('Glob', { glob_pattern: '**/*', target_directory: '/Users/me/ts-nim' })).toMatchObject({ kind: 'search', read: ['/Users/me/ts-nim'] });
    expect(readToolCall('Grep', { path: '/Users/me/ts-nim/README.md', pattern: 'Railway' })).toMatchObject({ kind: 'search', read: ['/Users/me/ts-nim/README.md'] });
    expect(readToolCall('SemanticSearch', { query: 'warm path', target_directories: ['/Users/me/ts-nim/backend'] })).toMatchObject({ kind: 'search', read: ['/Users/me/ts-nim/backend'] });
    expect(readToolCall('ReadLints', { paths: ['/a.ts', '/b.ts'] })).toMatchObject({ kind: 'read', read: ['/a.ts', '/b.ts'] });
  });

  it('reads WebFetch, WebSearch, Await, Task and MCP:<tool>', () => {
    expect(readToolCall('WebFetch', { url: 'https://docs.railway.app/guides/build-configuration' })).toMatchObject({ kind: 'fetch', urls: ['https://docs.railway.app/guides/build-configuration'] });
    expect(readToolCall('WebSearch', { search_term: 'ollama docker compose', explanation: 'x' })).toMatchObject({ kind: 'fetch', query: 'ollama docker compose' });
    expect(readToolCall('Await', { task_id: '689841', block_until_ms: 60000 })).toMatchObject({ kind: 'poll', process: '689841' });
    expect(readToolCall('Task', { description: 'Explore', prompt: 'x', subagent_type: 'explore', readonly: true }).kind).toBe('delegate');
    expect(readToolCall('MCP:create_issue', { owner: 'acme', repo: 'demo-app' })).toMatchObject({ kind: 'mcp', mcp: { server: '', tool: 'create_issue' } });
    for (const tool of ['TodoWrite', 'AskQuestion', 'CreatePlan']) expect(readToolCall(tool, {}).kind).toBe('message');
  });
});
