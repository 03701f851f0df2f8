import { commandPaths, stepOfAction, type ProposedAction } from './action-step.js';

const T = Date.parse('2026-11-28T10:00:00Z');
let n = 0;
const step = (tool: string, input: Record<string, unknown>, cwd = '/home/dev/app') =>
  stepOfAction({ action_id: `a${++n}`, kind: 'tool_use', tool, input } satisfies ProposedAction, T, cwd, '/home/dev');

describe("steps of other agents' actions (read through @warden/actions)", () => {
  it('counts their shells as commands, relative paths read from where the tool says it runs', () => {
    expect(step('shell', { command: ['bash', '-lc', 'cat notes/todo.md'], workdir: '/home/dev/other' })).toMatchObject({ op: 'exec', cmd: 'cat notes/todo.md', paths: ['/home/dev/other/notes/todo.md'] });
    expect(step('run_command', { CommandLine: 'type src/main.py', Cwd: 'C:\\Users\\Dev\\bot' }, 'C:\\Users\\Dev')).toMatchObject({ op: 'exec', paths: ['c:/users/dev/bot/src/main.py'] });
  });

  it('counts their reads, writes, searches and polls as such', () => {
    expect(step('read_file', { absolute_path: '~/app/README.md' })).toMatchObject({ op: 'read', paths: ['/home/dev/app/README.md'] });
    expect(step('write_to_file', { TargetFile: 'src/week.ts', CodeContent: 'export const W = 1;' })).toMatchObject({ op: 'write', paths: ['/home/dev/app/src/week.ts'] });
    expect(step('apply_patch', { input: '*** Begin Patch\n*** Update File: src/a.ts\n*** End Patch' })).toMatchObject({ op: 'write', paths: ['/home/dev/app/src/a.ts'] });
    expect(step('list_dir', { DirectoryPath: '/home/dev' })).toMatchObject({ op: 'search', paths: ['/home/dev'] });
    expect(step('Glob', { glob_pattern: '**/*.ts' })).toMatchObject({ op: 'search', paths: ['/home/dev/app'] });
    expect(step('search_web', { query: 'scanner' }).op).toBe('search');
    expect(step('command_status', { CommandId: 'task-7' }).op).toBe('poll');
    expect(step('Await', { task_id: '42' }).sig).toBe(step('Await', { task_id: '42' }).sig);
    expect(step('Await', { task_id: '42' }).sig).not.toBe(step('Await', { task_id: '43' }).sig);
  });

  it('counts a command an MCP tool runs as a command', () => {
    expect(step('mcp__desktop-commander__start_process', { command: 'npm run dev' })).toMatchObject({ op: 'exec', cmd: 'npm run dev' });
    expect(step('mcp__github__create_issue', { title: 'x' }).op).toBe('other');
  });

  it('counts a stopped background task as one process less', () => {
    expect(step('manage_task', { Action: 'kill', TaskId: 'task-7' }).bg).toBe(-1);
    expect(step('run_terminal_cmd', { command: 'npm run dev', is_background: true }).bg).toBe(1);
  });

  it('names no path for markup written by a command (`</script>` is no file)', () => {
    expect(step('Bash', { command: 'cat >> public/index.html <<EOF\n<main>\n  <script src="app.js"></script>\n</main>\nEOF' }).paths).toEqual(['/home/dev/app/public/index.html']);
  });

  it("names no path of this machine for what runs on another host, container or pod (only a mount's host side)", () => {
    for (const command of ['ssh root@router "rm /etc/init.d/x"', 'cd /tmp && ssh h rm -rf /var/lib/x', 'docker compose exec web rm -rf /app/tmp', 'kubectl exec api -- cat /etc/hosts', 'sshpass -p pw ssh r "rm /etc/x"']) {
      expect(step('Bash', { command }).paths ?? []).toEqual([]);
    }
    expect(step('Bash', { command: 'docker run -v /home/dev/app/data:/data img ls /data' }).paths).toEqual(['/home/dev/app/data']);
  });

  it('names no path from a word that a long command line was cut in, nor from the quote left open there', () => {
    const copies = Array.from({ length: 6 }, (_, i) => `"/home/dev/.local/share/applications/tools/tool-${i}"`).join(' ');
    const { paths } = step('Bash', { command: `cp -a ${copies} "/home/dev/app/bin/"` });
    expect(paths?.length).toBeGreaterThan(0);
    for (const path of paths!) expect(path).toMatch(/^\/home\/dev\/\.local\/share\/applications\/tools\/tool-\d+$/);
  });

  it("names no path from a here-document's body (a commit message naming routes)", () => {
    const commit = step('Bash', { command: "git commit -m \"$(cat <<'EOF'\nfeat: protected /dashboard and /auth/confirm\nEOF\n)\" && git push" });
    expect(commit.paths ?? []).toEqual([]);
    expect(commit.cmd).toContain('/dashboard');
  });
});

describe('paths a command names', () => {
  it("reads a loop over a site's paths as addresses, and a loop over files as files", () => {
    const site = `for p in / /llms.txt /robots.txt; do\n  read -r code type < <(curl -sS -o /dev/null -w '%{http_code}' "https://technocore.chat$p")\n  printf '%s %s' "$p" "$code"\ndone`;
    expect(commandPaths(site)).toEqual(['/dev/null']);
    expect(commandPaths('for f in /etc/hosts /etc/passwd ; do cat "$f"; done')).toEqual(['/etc/hosts', '/etc/passwd']);
  });

  it("reads a web API's routes given to a script as addresses, not files", () => {
    expect(commandPaths('"$SCRATCH/nvget.sh" /v1/waf/sensor')).toEqual([]);
    expect(commandPaths('./call.sh DELETE /api/users/42 /graphql')).toEqual(['./call.sh']);
    expect(commandPaths('cat /var/api/log /apiary/x')).toEqual(['/var/api/log', '/apiary/x']);
  });
});
