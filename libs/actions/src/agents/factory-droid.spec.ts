import { readToolCall } from '../tool-call.js';

// Factory Droid's tools, as its PreToolUse hook names them: Factory-AI/factory docs/reference/hooks-reference.mdx
// (https://docs.factory.ai/reference/hooks-reference): Execute {command}, Read, Edit, Create {file_path, content},
// Glob, Grep, LS, Task, FetchUrl, WebSearch, mcp__<server>__<tool>.
describe('Factory Droid', () => {
  it('reads Execute as a shell', () => {
    expect(readToolCall('Execute', { command: 'git push --force origin fix/date-parser' })).toMatchObject({ kind: 'shell', command: 'git push --force origin fix/date-parser' });
  });

  it('reads Create as a write, Edit as an edit and Read as a read, by file_path', () => {
    expect(readToolCall('Create', { file_path: '/home/dev/demo-app/src/week.ts', content: 'export const W = 1;\n' })).toMatchObject({ kind: 'write', written: ['/home/dev/demo-app/src/week.ts'] });
    expect(readToolCall('Edit', { file_path: '/home/dev/demo-app/src/date.ts', old_str: 'a', new_str: 'b' })).toMatchObject({ kind: 'edit', written: ['/home/dev/demo-app/src/date.ts'], content: 'b' });
    expect(readToolCall('Read', { file_path: '/home/dev/demo-app/README.md' })).toMatchObject({ kind: 'read', read: ['/home/dev/demo-app/README.md'] });
  });

  it('reads LS, Glob and Grep as searches, FetchUrl and WebSearch as fetches, Task as a subagent, MCP tools by name', () => {
    expect(readToolCall('LS', { path: '/home/dev' })).toMatchObject({ kind: 'search', read: ['/home/dev'] });
    expect(readToolCall('FetchUrl', { url: 'https://docs.factory.ai' })).toMatchObject({ kind: 'fetch', urls: ['https://docs.factory.ai'] });
    expect(readToolCall('WebSearch', { query: 'droid hooks' })).toMatchObject({ kind: 'fetch', query: 'droid hooks' });
    expect(readToolCall('Task', { prompt: 'x' }).kind).toBe('delegate');
    expect(readToolCall('mcp__github__create_issue', { title: 'x' }).mcp).toEqual({ server: 'github', tool: 'create_issue' });
  });
});
