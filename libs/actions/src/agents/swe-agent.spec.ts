import { sweAgentCommand } from '../swe-agent.js';
import { readToolCall } from '../tool-call.js';

// SWE-agent's tools (https://swe-agent.com/latest/config/tools/): open/goto/scroll, find_file/search_dir/search_file,
// create, edit N:M … end_of_edit, str_replace_editor view|create|str_replace|insert <path>, submit.
describe('SWE-agent', () => {
  it('reads its commands in a shell line', () => {
    expect(sweAgentCommand('open src/numpy_handler.py 280')).toEqual({ kind: 'read', read: ['src/numpy_handler.py'], written: [] });
    expect(sweAgentCommand('search_dir "BitsAllocated" src')).toEqual({ kind: 'read', read: ['src'], written: [] });
    expect(sweAgentCommand('edit 12:20\n    return x\nend_of_edit')).toEqual({ kind: 'edit', read: [], written: [] });
    expect(sweAgentCommand('create reproduce.py')).toEqual({ kind: 'write', read: [], written: ['reproduce.py'] });
    expect(sweAgentCommand('str_replace_editor view /testbed/a.py')).toEqual({ kind: 'read', read: ['/testbed/a.py'], written: [] });
    expect(sweAgentCommand('str_replace_editor str_replace /testbed/a.py --old_str x --new_str y')).toEqual({ kind: 'edit', read: [], written: ['/testbed/a.py'] });
    expect(sweAgentCommand('submit')).toEqual({ kind: 'message', read: [], written: [] });
    expect(sweAgentCommand('scroll_down')).toEqual({ kind: 'read', read: [], written: [] });
  });

  it('leaves other lines to the shell', () => {
    expect(sweAgentCommand('python reproduce.py')).toBeNull();
    expect(sweAgentCommand('open')).toBeNull();
    expect(sweAgentCommand('goto end')).toBeNull();
    expect(sweAgentCommand('edit the file')).toBeNull();
  });

  it('reads its commands proposed as tools, search commands as searches', () => {
    expect(readToolCall('find_file', { file_name: 'dataset.py', dir: 'src' })).toMatchObject({ kind: 'search', read: ['src'] });
    expect(readToolCall('open', { path: 'src/a.py', line_number: '40' })).toMatchObject({ kind: 'read', read: ['src/a.py'] });
    expect(readToolCall('edit', { args: '12:20 return x' })).toMatchObject({ kind: 'edit', written: [] });
    expect(readToolCall('str_replace_editor', { command: 'create', path: '/testbed/new.py', file_text: 'x = 1' })).toMatchObject({ kind: 'write', written: ['/testbed/new.py'] });
    expect(readToolCall('str_replace_editor', { path: '/testbed/a.py', command: 'view' })).toMatchObject({ kind: 'read', read: ['/testbed/a.py'] });
    expect(readToolCall('str_replace_editor', { args: 'insert /testbed/a.py 3' })).toMatchObject({ kind: 'edit', written: ['/testbed/a.py'] });
    expect(readToolCall('open', {}).kind).toBe('unknown');
  });
});
