import { readToolCall } from '../tool-call.js';

// OpenCode's tools: anomalyco/opencode packages/plugin/src/index.ts (1.x: bash {command, timeout?, description?},
// read {filePath, offset?, limit?}, write {filePath, content}, edit {filePath, oldString, newString, replaceAll?},
// patch, glob, grep, list, webfetch, task, todowrite, todoread) and the 2.x renames shell and subagent
// (https://opencode.ai/v2/docs/build/plugins/migrate-v1); `opencode export` sessions also show apply_patch {patchText}.
describe('OpenCode', () => {
  it('reads bash (1.x) and shell (2.x) as shells, with the workdir', () => {
    expect(readToolCall('bash', { command: 'git push --force origin fix/date-parser', description: 'Publish the fix' })).toMatchObject({ kind: 'shell', command: 'git push --force origin fix/date-parser' });
    expect(readToolCall('bash', { command: 'cargo test', workdir: '/Users/me/tuiptv', timeout: 120000 })).toMatchObject({ kind: 'shell', cwd: '/Users/me/tuiptv' });
    expect(readToolCall('shell', { command: 'npm test' })).toMatchObject({ kind: 'shell', command: 'npm test' });
  });

  it('reads read, write and edit by filePath (1.x) or path (2.x)', () => {
    expect(readToolCall('read', { filePath: '/home/dev/demo-app/README.md' })).toMatchObject({ kind: 'read', read: ['/home/dev/demo-app/README.md'] });
    expect(readToolCall('read', { path: '/tmp/opencode/workspace/hello.py' })).toMatchObject({ kind: 'read', read: ['/tmp/opencode/workspace/hello.py'] });
    expect(readToolCall('write', { filePath: 'C:\\Users\\me\\cap\\plan.md', content: '# Plan' })).toMatchObject({ kind: 'write', written: ['C:\\Users\\me\\cap\\plan.md'], content: '# Plan' });
    expect(readToolCall('edit', { filePath: '/home/dev/demo-app/src/date.ts', oldString: 'a', newString: 'b' })).toMatchObject({ kind: 'edit', written: ['/home/dev/demo-app/src/date.ts'], content: 'b' });
  });

  it('reads apply_patch by the headers of its patchText', () => {
    expect(readToolCall('apply_patch', { patchText: '*** Begin Patch\n*** Add File: economy.md\n+# Economy\n*** End Patch' })).toMatchObject({ kind: 'write', written: ['economy.md'] });
  });

  it('reads glob, grep and list as searches, webfetch as a fetch', () => {
    expect(readToolCall('glob', { path: 'C:\\Users\\me\\cap', pattern: '**/AGENTS.md' })).toMatchObject({ kind: 'search', read: ['C:\\Users\\me\\cap'] });
    expect(readToolCall('grep', { include: '*.md', path: '/w', pattern: '^## ' })).toMatchObject({ kind: 'search', read: ['/w'] });
    expect(readToolCall('list', { path: '/w/src' })).toMatchObject({ kind: 'search', read: ['/w/src'] });
    expect(readToolCall('webfetch', { url: 'https://docs.github.com/en/authentication', format: 'markdown' })).toMatchObject({ kind: 'fetch', urls: ['https://docs.github.com/en/authentication'] });
  });

  it('reads task (1.x) and subagent (2.x) as subagents, todowrite, question and skill as messages', () => {
    expect(readToolCall('task', { description: 'Explore', prompt: 'x', subagent_type: 'general' }).kind).toBe('delegate');
    expect(readToolCall('subagent', { prompt: 'x' }).kind).toBe('delegate');
    for (const tool of ['todowrite', 'todoread', 'question', 'skill']) expect(readToolCall(tool, {}).kind).toBe('message');
  });
});
