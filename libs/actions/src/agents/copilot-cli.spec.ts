import { readToolCall } from '../tool-call.js';

// GitHub Copilot CLI's tools, as its preToolUse hook names them: github/docs content/copilot/reference/hooks-reference.md
// (https://docs.github.com/en/copilot/reference/hooks-reference): bash {command, description?}, powershell, view {path},
// create {path, …}, edit {path, …}, glob, grep, web_fetch, task, ask_user; its Claude mapping also names
// str_replace_editor, apply_patch, rg, web_search and update_todo. (toolArgs arrives JSON-encoded; the adapter decodes it.)
describe('Copilot CLI', () => {
  it('reads bash and powershell as shells', () => {
    expect(readToolCall('bash', { command: 'git push --force origin fix/date-parser', description: 'Publish the fix' })).toMatchObject({ kind: 'shell', command: 'git push --force origin fix/date-parser' });
    expect(readToolCall('powershell', { command: 'Remove-Item -Recurse dist' })).toMatchObject({ kind: 'shell', command: 'Remove-Item -Recurse dist' });
  });

  it('reads view as a read, create as a write and edit as an edit, by path', () => {
    expect(readToolCall('view', { path: '/home/dev/demo-app/README.md' })).toMatchObject({ kind: 'read', read: ['/home/dev/demo-app/README.md'] });
    expect(readToolCall('create', { path: '/home/dev/demo-app/src/week.ts', file_text: 'export const WEEK_MS = 604800000;\n' })).toMatchObject({
      kind: 'write',
      written: ['/home/dev/demo-app/src/week.ts'],
      content: 'export const WEEK_MS = 604800000;\n',
    });
    expect(readToolCall('edit', { path: '/home/dev/demo-app/src/date.ts', old_str: 'a', new_str: 'b' })).toMatchObject({ kind: 'edit', written: ['/home/dev/demo-app/src/date.ts'], content: 'b' });
  });

  it('reads glob, grep and rg as searches, web_fetch and web_search as fetches', () => {
    expect(readToolCall('glob', { pattern: '**/*.ts', path: 'src' })).toMatchObject({ kind: 'search', read: ['src'] });
    expect(readToolCall('rg', { pattern: 'TODO', path: 'lib' })).toMatchObject({ kind: 'search', read: ['lib'] });
    expect(readToolCall('web_fetch', { url: 'https://date-fns.org/docs/parseISO' })).toMatchObject({ kind: 'fetch', urls: ['https://date-fns.org/docs/parseISO'] });
    expect(readToolCall('web_search', { query: 'date-fns' })).toMatchObject({ kind: 'fetch', query: 'date-fns' });
  });

  it('reads task as a subagent, ask_user and update_todo as messages', () => {
    expect(readToolCall('task', { prompt: 'Explore the parser' }).kind).toBe('delegate');
    expect(readToolCall('ask_user', { question: 'Which port?' }).kind).toBe('message');
    expect(readToolCall('update_todo', { todos: '- [ ] x' }).kind).toBe('message');
  });
});
