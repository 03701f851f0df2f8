import { readToolCall } from '../tool-call.js';

describe('tools no vocabulary lists', () => {
  it('reads MCP tools named <server>/<tool>, and the command an MCP tool runs', () => {
    expect(readToolCall('github/create_issue', { title: 'x' })).toMatchObject({ kind: 'mcp', mcp: { server: 'github', tool: 'create_issue' } });
    expect(readToolCall('mcp__desktop-commander__start_process', { command: 'npm run dev', timeout_ms: 5000 })).toMatchObject({ kind: 'mcp', command: 'npm run dev' });
  });

  it('reads anything with a command line as a shell, and the rest as unknown with the path it names', () => {
    expect(readToolCall('run', { cmd: 'make test' })).toMatchObject({ kind: 'shell', command: 'make test' });
    expect(readToolCall('frobnicate', { path: '/w/x', url: 'https://example.com' })).toEqual({ kind: 'unknown', read: ['/w/x'], written: [], urls: ['https://example.com'] });
  });

  it('reads names spelled in another case', () => {
    expect(readToolCall('bashoutput', { bash_id: 'b1' })).toMatchObject({ kind: 'poll', process: 'b1' });
    expect(readToolCall('MULTIEDIT', { file_path: '/w/a.ts' })).toMatchObject({ kind: 'edit', written: ['/w/a.ts'] });
  });
});
