import { commandLine } from '../command-line.js';
import { readToolCall, withCommandLine } from '../tool-call.js';

// Codex hooks (https://developers.openai.com/codex/hooks; openai/codex codex-rs/hooks/schema/generated/*.command.input.schema.json):
// tool_name Bash {command}, apply_patch {command: the patch}, mcp__<server>__<tool>. Its recorded sessions
// (~/.codex/sessions/**/rollout-*.jsonl, response_item function_call / custom_tool_call) name the model's tools:
// shell {command: argv, workdir}, shell_command {command, workdir}, exec_command {cmd, workdir}, apply_patch (freeform
// patch text), write_stdin {session_id, chars}, update_plan, request_user_input, view_image {path}, <server>__<tool>.
const PATCH = [
  '*** Begin Patch',
  '*** Add File: docs/week.md',
  '+# Weeks',
  '*** Update File: src/date.ts',
  '*** Move to: src/dates.ts',
  '@@',
  '-export function parse(s: string) {',
  '+export function parse(s: string): Date {',
  '*** Delete File: src/old-date.ts',
  '*** End Patch',
].join('\n');

describe('Codex', () => {
  it('reads the hook payloads: Bash, apply_patch and MCP tools', () => {
    expect(readToolCall('Bash', { command: 'git push --force origin fix/date-parser' })).toMatchObject({ kind: 'shell', command: 'git push --force origin fix/date-parser' });
    expect(readToolCall('apply_patch', { command: '*** Begin Patch\n*** Update File: src/date.ts\n@@\n-a\n+b\n*** End Patch\n' })).toMatchObject({
      kind: 'edit',
      written: ['src/date.ts'],
      changes: [{ path: 'src/date.ts', change: 'modify' }],
    });
    expect(readToolCall('mcp__github__create_issue', { owner: 'acme', repo: 'demo-app', title: 'x' }).mcp).toEqual({ server: 'github', tool: 'create_issue' });
  });

  it("names every file of a patch by its header, and the riskiest change as the patch's kind", () => {
    const call = readToolCall('apply_patch', { input: PATCH });
    expect(call.kind).toBe('delete');
    expect(call.written).toEqual(['docs/week.md', 'src/date.ts', 'src/dates.ts', 'src/old-date.ts']);
    expect(call.changes).toEqual([
      { path: 'docs/week.md', change: 'create' },
      { path: 'src/date.ts', change: 'modify' },
      { path: 'src/dates.ts', change: 'create' },
      { path: 'src/old-date.ts', change: 'delete' },
    ]);
    expect(call.content).toBe(PATCH);
    expect(readToolCall('apply_patch', { input: '*** Begin Patch\n*** Add File: a.md\n+x\n*** End Patch' })).toMatchObject({ kind: 'write', written: ['a.md'] });
    expect(readToolCall('apply_patch', { input: '*** Begin Patch\n*** Update File: C:\\Users\\me\\app\\x.ts\n*** End Patch' }).written).toEqual(['C:\\Users\\me\\app\\x.ts']);
  });

  it('reads the shells of its recorded sessions: argv, command line and cmd, with the working directory', () => {
    expect(readToolCall('shell', { command: ['bash', '-lc', 'npm test -- --watch=false'], workdir: '/home/dev/demo-app' })).toMatchObject({
      kind: 'shell',
      command: 'npm test -- --watch=false',
      cwd: '/home/dev/demo-app',
    });
    expect(readToolCall('shell', { command: ['rg', '-n', 'parse date', 'src'] }).command).toBe("rg -n 'parse date' src");
    expect(readToolCall('shell_command', { command: 'Get-Content C:\\Users\\me\\.codex\\skills\\x\\SKILL.md', workdir: 'D:\\Ripple', timeout_ms: 10000 })).toMatchObject({
      kind: 'shell',
      command: 'Get-Content C:\\Users\\me\\.codex\\skills\\x\\SKILL.md',
      cwd: 'D:\\Ripple',
    });
    expect(readToolCall('exec_command', { cmd: 'rg -n "class Document" libs/agno', workdir: '/Users/me/agno', yield_time_ms: 1000 })).toMatchObject({
      kind: 'shell',
      command: 'rg -n "class Document" libs/agno',
      cwd: '/Users/me/agno',
    });
  });

  it('reads its other tools: polls of a running command, plans, questions, images, MCP tools by <server>__<tool>', () => {
    expect(readToolCall('write_stdin', { session_id: 29680, chars: '', yield_time_ms: 1000 })).toMatchObject({ kind: 'poll', process: '29680' });
    expect(readToolCall('update_plan', { plan: [{ step: 'x', status: 'in_progress' }] }).kind).toBe('message');
    expect(readToolCall('request_user_input', { questions: [] }).kind).toBe('message');
    expect(readToolCall('view_image', { path: 'C:\\Users\\me\\app\\public\\a.jpg', detail: 'original' })).toMatchObject({ kind: 'read', read: ['C:\\Users\\me\\app\\public\\a.jpg'] });
    expect(readToolCall('github__create_issue', { title: 'x' })).toMatchObject({ kind: 'mcp', mcp: { server: 'github', tool: 'create_issue' } });
  });

  it('joins an argv as the command line it runs', () => {
    expect(commandLine(['/bin/zsh', '-c', 'ls -la'])).toBe('ls -la');
    expect(commandLine(['powershell.exe', '-NoProfile', '-Command', 'Get-ChildItem'])).toBe('Get-ChildItem');
    expect(commandLine(['cmd.exe', '/c', 'dir /s'])).toBe('dir /s');
    expect(commandLine(['echo', "it's", '$HOME'])).toBe("echo 'it'\\''s' '$HOME'");
  });

  it('writes a changed command line into the argv, keeping the shell it starts', () => {
    expect(withCommandLine({ command: ['bash', '-lc', 'git push -f'], workdir: '/w' }, 'git push --force-with-lease')).toEqual({ command: ['bash', '-lc', 'git push --force-with-lease'], workdir: '/w' });
    expect(withCommandLine({ command: ['powershell.exe', '-NoProfile', '-Command', 'Remove-Item -Recurse x'] }, 'Remove-Item x')).toEqual({ command: ['powershell.exe', '-NoProfile', '-Command', 'Remove-Item x'] });
    expect(withCommandLine({ command: ['git', 'push', '-f'] }, 'git push --force-with-lease')).toEqual({ command: ['bash', '-lc', 'git push --force-with-lease'] });
    expect(withCommandLine({ cmd: 'chmod 777 out', workdir: '/w' }, 'chmod 755 out')).toEqual({ cmd: 'chmod 755 out', workdir: '/w' });
  });
});
