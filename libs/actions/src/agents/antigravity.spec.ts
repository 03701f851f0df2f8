import { readToolCall, withCommandLine } from '../tool-call.js';

// Antigravity (agy): tool names and PascalCase args of its transcripts, specstoryai/getspecstory
// specstory-cli/docs/antigravity-format-spec.md; the PreToolUse payload captured from agy 1.0.1 in
// cisco-ai-defense/defenseclaw internal/gateway/connector/antigravity_hook_profile_test.go
// ({toolCall: {name: "run_command", args: {CommandLine, Cwd, WaitMsBeforeAsync}}}).
describe('Antigravity', () => {
  it('reads run_command as a shell, its CommandLine and Cwd', () => {
    expect(readToolCall('run_command', { CommandLine: 'echo phaseE-claude-shape', Cwd: '/tmp/agy-smoketest', WaitMsBeforeAsync: 1000 })).toEqual({
      kind: 'shell',
      command: 'echo phaseE-claude-shape',
      cwd: '/tmp/agy-smoketest',
      read: [],
      written: [],
      urls: [],
    });
    expect(readToolCall('run_command', { CommandLine: 'pip install -r requirements.txt', Cwd: 'C:\\Users\\me\\project', toolAction: 'Install' })).toMatchObject({ cwd: 'C:\\Users\\me\\project' });
  });

  it('writes a changed command line into run_command’s CommandLine', () => {
    expect(withCommandLine({ CommandLine: 'git push -f', Cwd: '/w', WaitMsBeforeAsync: 1000 }, 'git push --force-with-lease')).toEqual({ CommandLine: 'git push --force-with-lease', Cwd: '/w', WaitMsBeforeAsync: 1000 });
  });

  it('reads write_to_file as a write, replace_file_content and multi_replace_file_content as edits of TargetFile', () => {
    expect(readToolCall('write_to_file', { TargetFile: '/home/dev/demo-app/src/week.ts', CodeContent: 'export const W = 1;\n', Overwrite: false, IsArtifact: false })).toMatchObject({
      kind: 'write',
      written: ['/home/dev/demo-app/src/week.ts'],
      content: 'export const W = 1;\n',
    });
    expect(readToolCall('replace_file_content', { TargetFile: '/home/dev/demo-app/src/date.ts', TargetContent: 'a', ReplacementContent: 'b', StartLine: 12, EndLine: 12 })).toMatchObject({
      kind: 'edit',
      written: ['/home/dev/demo-app/src/date.ts'],
      content: 'b',
    });
    expect(readToolCall('multi_replace_file_content', { TargetFile: 'C:\\bot\\main.py', ReplacementChunks: '[]', Instruction: 'x' })).toMatchObject({ kind: 'edit', written: ['C:\\bot\\main.py'] });
  });

  it('reads view_file as a read of AbsolutePath, list_dir and grep_search as searches', () => {
    expect(readToolCall('view_file', { AbsolutePath: '/home/dev/demo-app/README.md', StartLine: 1, EndLine: 40 })).toMatchObject({ kind: 'read', read: ['/home/dev/demo-app/README.md'] });
    expect(readToolCall('list_dir', { DirectoryPath: 'C:\\Users\\me\\project' })).toMatchObject({ kind: 'search', read: ['C:\\Users\\me\\project'] });
    expect(readToolCall('grep_search', { Query: 'scan', SearchPath: 'C:/Users/me/bot', MatchPerLine: true })).toMatchObject({ kind: 'search', read: ['C:/Users/me/bot'] });
  });

  it('reads read_url_content as a fetch, search_web as a web search', () => {
    expect(readToolCall('read_url_content', { Url: 'https://qclay.design/styles.css' })).toMatchObject({ kind: 'fetch', urls: ['https://qclay.design/styles.css'] });
    expect(readToolCall('search_web', { query: 'scanner' })).toMatchObject({ kind: 'fetch', query: 'scanner' });
  });

  it('reads its tasks: command_status and manage_task look at a background command, manage_task kill stops it', () => {
    expect(readToolCall('command_status', { CommandId: 'task-7272', OutputCharacterCount: 500 })).toMatchObject({ kind: 'poll', process: 'task-7272' });
    expect(readToolCall('manage_task', { Action: 'status', TaskId: 'task-227' })).toMatchObject({ kind: 'poll', process: 'task-227' });
    expect(readToolCall('manage_task', { Action: 'kill', TaskId: 'task-227' })).toMatchObject({ kind: 'kill', process: 'task-227' });
  });

  it('reads call_mcp_tool by ServerName and ToolName, invoke_subagent as a subagent, its permissions and questions as messages', () => {
    expect(readToolCall('call_mcp_tool', { ServerName: 'github-mcp-server', ToolName: 'create_repository', Arguments: '{}' })).toMatchObject({
      kind: 'mcp',
      mcp: { server: 'github-mcp-server', tool: 'create_repository' },
    });
    expect(readToolCall('invoke_subagent', { Subagents: '[]' }).kind).toBe('delegate');
    for (const tool of ['ask_permission', 'list_permissions', 'ask_question', 'schedule']) expect(readToolCall(tool, {}).kind).toBe('message');
  });
});
