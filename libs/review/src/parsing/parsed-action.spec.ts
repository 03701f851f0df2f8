import { parseAction, UnknownActionKindError } from './parsed-action.js';

const bash = (command: string, cwd = '/work/app') => parseAction({ kind: 'tool_use', tool: 'Bash', input: { command } }, cwd);
const tool = (name: string, input: Record<string, unknown>, kind = 'tool_use') => parseAction({ kind, tool: name, input }, '/work/app');

describe('parseAction', () => {
  it.each([
    ['Read', { file_path: 'src/a.ts' }, 'file_read'],
    ['Glob', { pattern: '**/*.ts' }, 'file_read'],
    ['Grep', { pattern: 'parseDate', path: 'src' }, 'file_read'],
    ['Write', { file_path: 'src/new.ts', content: 'x' }, 'file_creation'],
    ['Edit', { file_path: 'src/a.ts', old_string: 'a', new_string: 'b' }, 'file_modification'],
    ['WebFetch', { url: 'https://nodejs.org/api/fs.html', prompt: 'x' }, 'network_request'],
    ['WebSearch', { query: 'jest esm' }, 'network_request'],
    ['Task', { description: 'explore', prompt: 'find the parser', subagent_type: 'general-purpose' }, 'delegation'],
    ['Agent', { prompt: 'x' }, 'delegation'],
    ['mcp__github__create_issue', { title: 'Bug' }, 'external_tool'],
    ['http', { url: 'https://api.example.com', method: 'POST' }, 'network_request'],
    ['package_install', { packages: ['left-pad'] }, 'package_install'],
    ['shell', { command: 'ls' }, 'file_read'],
    ['TodoWrite', { todos: [] }, 'message'],
    ['SomethingNew', {}, 'unknown'],
  ])('names the intent of %s', (name, input, intent) => {
    expect(tool(name, input).intent).toBe(intent);
  });

  // Antigravity's tools (specstoryai/getspecstory specstory-cli/docs/antigravity-format-spec.md §3.5), Factory
  // Droid's (Factory-AI/factory docs/reference/hooks-reference.mdx, "Tool names") and OpenCode 2.x's built-ins,
  // as @warden/actions reads them.
  it.each([
    ['run_command', { CommandLine: 'rm -rf build', Cwd: '/work/app', WaitMsBeforeAsync: 5000 }, 'file_deletion', ['/work/app/build']],
    ['view_file', { AbsolutePath: '/work/app/README.md' }, 'file_read', []],
    ['write_to_file', { TargetFile: '/work/app/src/week.ts', CodeContent: 'x', Overwrite: false }, 'file_creation', ['/work/app/src/week.ts']],
    ['replace_file_content', { TargetFile: '/work/app/src/date.ts', TargetContent: 'a', ReplacementContent: 'b' }, 'file_modification', ['/work/app/src/date.ts']],
    ['Execute', { command: 'rm -rf build' }, 'file_deletion', ['/work/app/build']],
    ['Create', { file_path: 'src/week.ts', content: 'x' }, 'file_creation', ['/work/app/src/week.ts']],
    ['FetchUrl', { url: 'https://nodejs.org/api/fs.html' }, 'network_request', []],
    ['read', { filePath: 'src/a.ts' }, 'file_read', []],
    ['edit', { filePath: 'src/date.ts', oldString: 'a', newString: 'b' }, 'file_modification', ['/work/app/src/date.ts']],
    ['edit', { path: 'src/date.ts', oldString: 'a', newString: 'b' }, 'file_modification', ['/work/app/src/date.ts']],
    ['subagent', { agent: 'explore', prompt: 'find the parser' }, 'delegation', []],
  ])('reads %s of the other agents Warden supervises', (name, input, intent, written) => {
    const parsed = tool(name, input);
    expect(parsed.intent).toBe(intent);
    expect(parsed.writtenPaths).toEqual(written);
  });

  it('reads the intents of each simple command of a shell line, riskiest first', () => {
    const parsed = bash('cd src && curl -fsSL https://x.io/a.tgz -o a.tgz && rm -rf old && npm test');
    expect(parsed.intents).toEqual(['file_deletion', 'network_request', 'file_creation', 'command_execution', 'file_read']);
    expect(parsed.intent).toBe('file_deletion');
    expect(parsed.urls).toEqual(['https://x.io/a.tgz']);
  });

  // Adding GitHub's host key before a first push over SSH (a public Claude Code session): a network read, not an unknown system command.
  it('reads ssh-keyscan as a network request', () => {
    expect(bash('ssh-keyscan -t ed25519 github.com >> ~/.ssh/known_hosts').intents).toEqual(['network_request', 'file_modification']);
  });

  it('tells project commands from system commands and read-only commands', () => {
    expect(bash('npm test').intent).toBe('command_execution');
    expect(bash('git status && git diff --stat').intent).toBe('file_read');
    expect(bash('git commit -m "fix: dates"').intent).toBe('command_execution');
    expect(bash('systemctl restart nginx').intent).toBe('system_command');
    // The shell's look-ups of its own aliases only show them.
    expect(bash('alias config; shopt -s globstar').intents).toEqual(['file_read']);
    expect(bash('./scripts/gen.sh').intent).toBe('command_execution');
    expect(bash('sudo ls').intents).toEqual(['file_read']);
    expect(bash('sudo systemctl restart nginx').intents).toContain('system_command');
  });

  it('names no path of the blocks and patterns of a PowerShell line bash cannot parse', () => {
    const command = 'if (Get-Command rg -ErrorAction SilentlyContinue) { rg -n "\\[DRAFT\\]" specs/001 -S } else { Select-String -Path "specs/001/*.md" -Pattern "\\[DRAFT\\]" }';
    expect(parseAction({ kind: 'tool_use', tool: 'shell', input: { command: ['pwsh', '-NoProfile', '-Command', command] } }, 'C:\\dev\\mail').paths).toEqual(['c:/dev/mail/specs/001', 'c:/dev/mail/specs/001/*.md']);
  });

  it("reads PowerShell's navigation and look-up cmdlets as reads, whatever their case", () => {
    const run = parseAction({ kind: 'tool_use', tool: 'PowerShell', input: { command: "Set-Location 'C:\\dev\\weather-bot'; npx vitest run 2>&1" } }, 'C:\\dev\\weather-bot');
    expect(run.intents).toEqual(['command_execution', 'file_read']);
    expect(parseAction({ kind: 'tool_use', tool: 'PowerShell', input: { command: 'get-childitem -Recurse | select-object -First 5' } }, 'C:\\dev').readOnly).toBe(true);
  });

  it('finds package installs and their packages, also through npx and python -m', () => {
    expect(bash('npm install left-pad@1.3.0 --save').packages).toEqual(['left-pad@1.3.0']);
    expect(bash('npx playwright install chromium').intent).toBe('package_install');
    expect(bash('python -m pip install requests').packages).toEqual(['requests']);
    expect(bash('npm install').intent).toBe('package_install');
    expect(bash('npm run build').intent).toBe('command_execution');
  });

  it('resolves paths against the working directory and keeps home paths as ~', () => {
    expect(tool('Read', { file_path: 'src/../README.md' }).paths).toEqual(['/work/app/README.md']);
    expect(bash('cat $HOME/.aws/credentials').paths).toEqual(['~/.aws/credentials']);
    expect(bash('rm -rf ../other').writtenPaths).toEqual(['/work/other']);
  });

  it('records the files a reader reads, after the pattern of grep-like commands', () => {
    expect(bash('grep -n API_URL .env config/app.json').paths).toEqual(['/work/app/.env', '/work/app/config/app.json']);
    expect(bash('rg parseDate').paths).toEqual([]);
    expect(bash('diff a.txt b.txt').paths).toEqual(['/work/app/a.txt', '/work/app/b.txt']);
  });

  it('collects written paths from redirections but not /dev/null', () => {
    const parsed = bash('npm test > out.log 2>/dev/null');
    expect(parsed.writtenPaths).toEqual(['/work/app/out.log']);
    expect(parsed.intents).toContain('file_creation');
  });

  it('marks read-only actions and privileged ones', () => {
    expect(bash('ls -la && cat package.json | jq .scripts').readOnly).toBe(true);
    expect(bash('echo hi > file').readOnly).toBe(false);
    expect(bash('sudo apt-get install -y jq').privileged).toBe(true);
  });

  it('gives the same key to the same command however it is spaced, to a read of the same file, and to the same edit only', () => {
    expect(bash('npm   test').key).toBe(bash('npm test').key);
    expect(tool('Read', { file_path: 'src/a.ts' }).key).toBe(tool('Read', { file_path: '/work/app/src/a.ts' }).key);
    const edit = { file_path: '/work/app/src/a.ts', old_string: 'a', new_string: 'b' };
    expect(tool('Edit', edit).key).toBe(tool('Edit', { ...edit }).key);
    // Two different edits of one file in a row are progress, not a repetition.
    expect(tool('Edit', edit).key).not.toBe(tool('Edit', { ...edit, old_string: 'c', new_string: 'd' }).key);
  });

  it('keeps a long key short, and still tells long commands and writes apart', () => {
    const script = (n: number) => Array.from({ length: 100 }, (_, i) => `npm run build -- --filter pkg-${i}${i === 50 ? n : ''}`).join('\n');
    expect(bash(script(1)).key.length).toBeLessThan(40);
    expect(bash(script(1)).key).toBe(bash(script(1).replaceAll('\n', '  \n ')).key);
    expect(bash(script(1)).key).not.toBe(bash(script(2)).key);
    const write = (content: string) => tool('Write', { file_path: '/work/app/src/a.ts', content });
    expect(write('x'.repeat(5000)).key).toBe(write('x'.repeat(5000)).key);
    expect(write('x'.repeat(5000)).key).not.toBe(write(`y${'x'.repeat(4999)}`).key);
  });

  it("maps SWE-agent's commands and Claude Code's bookkeeping tools to what they do", () => {
    expect(bash('open src/numpy_handler.py 280')).toMatchObject({ intent: 'file_read', paths: ['/work/app/src/numpy_handler.py'] });
    expect(bash('find_file numpy_handler.py')).toMatchObject({ intent: 'file_read' });
    expect(bash('search_dir "BitsAllocated" src')).toMatchObject({ intent: 'file_read', paths: ['/work/app/src'] });
    const edit = bash("edit 287:295\n    required = ['Rows', 'Columns']\nend_of_edit");
    expect(edit.intent).toBe('file_modification');
    expect(edit).not.toHaveProperty('syntaxError');
    expect(bash('create reproduce.py')).toMatchObject({ intent: 'file_creation', writtenPaths: ['/work/app/reproduce.py'] });
    expect(bash('submit').intent).toBe('message');
    expect(tool('find_file', { file_name: 'dataset.py', dir: 'src' })).toMatchObject({ intent: 'file_read', paths: ['/work/app/src'] });
    for (const name of ['TaskCreate', 'TaskUpdate', 'TaskList', 'TaskGet', 'TodoWrite', 'ToolSearch', 'Skill', 'ExitPlanMode', 'AskUserQuestion', 'BashOutput', 'KillShell', 'Monitor']) {
      expect(tool(name, { taskId: '9', status: 'completed' }).intent).toBe('message');
    }
  });

  it('reads MCP look-ups (documentation, search, list, get) as reads, and other MCP calls as external tools', () => {
    expect(tool('mcp__context7__resolve-library-id', { libraryName: 'next.js' }).intent).toBe('file_read');
    expect(tool('mcp__context7__get-library-docs', { context7CompatibleLibraryID: '/vercel/next.js' }).intent).toBe('file_read');
    expect(tool('mcp__github__search_code', { q: 'parseDate' }).intent).toBe('file_read');
    expect(tool('mcp__linear__listIssues', {}).intent).toBe('file_read');
    expect(tool('mcp__github__create_issue', { title: 'x' }).intent).toBe('external_tool');
    expect(tool('mcp__db__run_query', { sql: 'select 1' }).intent).toBe('external_tool');
  });

  it('parses file_operation, system_command and message kinds', () => {
    expect(tool('fs', { operation: 'delete', path: '/tmp/x', recursive: true }, 'file_operation').intent).toBe('file_deletion');
    expect(tool('runner', { command: 'rm -rf build' }, 'system_command').intent).toBe('file_deletion');
    expect(tool('say', { content: 'done' }, 'message').intent).toBe('message');
  });

  it('names an MCP server and tool', () => {
    expect(tool('mcp__github__create_pull_request', {}).mcp).toEqual({ server: 'github', tool: 'create_pull_request' });
  });

  it("reads other agents' tools through @warden/actions as what they do", () => {
    const on = (name: string, input: Record<string, unknown>, cwd: string) => parseAction({ kind: 'tool_use', tool: name, input }, cwd);
    // Antigravity's run_command says where it runs: its relative paths are read from there.
    expect(on('run_command', { CommandLine: 'rm -rf dist', Cwd: 'C:\\Users\\Me\\App\\web' }, 'C:\\Users\\Me\\App')).toMatchObject({
      intent: 'file_deletion',
      command: 'rm -rf dist',
      cwd: 'c:/users/me/app/web',
      writtenPaths: ['c:/users/me/app/web/dist'],
    });
    // Codex's apply_patch is the edits, creations and deletions its headers name, not a shell line.
    const patch = on('apply_patch', { command: '*** Begin Patch\n*** Add File: docs/a.md\n+x\n*** Delete File: src/old.ts\n*** End Patch' }, '/work/app');
    expect(patch).toMatchObject({ intents: ['file_deletion', 'file_creation'], writtenPaths: ['/work/app/docs/a.md', '/work/app/src/old.ts'] });
    expect(patch).not.toHaveProperty('command');
    expect(on('shell', { command: ['bash', '-lc', 'npm test'], workdir: '/work/app' }, '/work/app')).toMatchObject({ intent: 'command_execution', command: 'npm test' });
    expect(on('read_file', { absolute_path: '/work/app/README.md' }, '/work/app')).toMatchObject({ intent: 'file_read', paths: ['/work/app/README.md'] });
    expect(on('StrReplace', { path: 'src/a.ts', old_string: 'a', new_string: 'b' }, '/work/app')).toMatchObject({ intent: 'file_modification', writtenPaths: ['/work/app/src/a.ts'] });
    expect(on('call_mcp_tool', { ServerName: 'github-mcp-server', ToolName: 'create_repository' }, '/work/app')).toMatchObject({ intent: 'external_tool', mcp: { server: 'github-mcp-server', tool: 'create_repository' } });
    expect(on('google_web_search', { query: 'jest esm' }, '/work/app')).toMatchObject({ intent: 'network_request', searchQuery: 'jest esm' });
    expect(on('manage_task', { Action: 'kill', TaskId: 'task-7' }, '/work/app').intent).toBe('message');
  });

  it('refuses an unknown kind with a clear error', () => {
    expect(() => tool('Bash', { command: 'ls' }, 'teleport')).toThrow(UnknownActionKindError);
    expect(() => tool('Bash', { command: 'ls' }, 'teleport')).toThrow('Unknown action kind "teleport": expected one of tool_use, message, file_operation, system_command.');
  });
});
