import { readToolCall } from '../tool-call.js';

// VS Code's Copilot agent: microsoft/vscode-copilot-chat src/extension/tools/common/toolNames.ts (run_in_terminal,
// replace_string_in_file, multi_replace_string_in_file, insert_edit_into_file, create_file, read_file, list_dir,
// grep_search, file_search, semantic_search, get_terminal_output, fetch_webpage, manage_todo_list, runSubagent); the
// inputs ({command}, {filePath, oldString, newString}) as sessions saved by SpecStory show them.
describe("VS Code's Copilot agent", () => {
  it('reads run_in_terminal as a shell and get_terminal_output as a poll of one', () => {
    expect(readToolCall('run_in_terminal', { command: 'mix ecto.migrate', explanation: 'Migrate', isBackground: false })).toMatchObject({ kind: 'shell', command: 'mix ecto.migrate' });
    expect(readToolCall('get_terminal_output', { id: 't1' })).toMatchObject({ kind: 'poll' });
  });

  it('reads its edits, creations and reads by filePath', () => {
    expect(readToolCall('replace_string_in_file', { filePath: '/home/dev/shop/lib/a.ex', oldString: 'a', newString: 'b' })).toMatchObject({ kind: 'edit', written: ['/home/dev/shop/lib/a.ex'] });
    expect(readToolCall('insert_edit_into_file', { filePath: '/home/dev/shop/lib/b.ex', code: 'x' })).toMatchObject({ kind: 'edit', written: ['/home/dev/shop/lib/b.ex'] });
    expect(readToolCall('create_file', { filePath: '/home/dev/shop/lib/c.ex', content: 'defmodule C do end' })).toMatchObject({ kind: 'write', written: ['/home/dev/shop/lib/c.ex'] });
    expect(readToolCall('read_file', { filePath: '/home/dev/shop/mix.exs' })).toMatchObject({ kind: 'read', read: ['/home/dev/shop/mix.exs'] });
  });

  it('reads its searches as searches and its to-do list as a message', () => {
    expect(readToolCall('file_search', { query: '**/*.ex' })).toMatchObject({ kind: 'search' });
    expect(readToolCall('semantic_search', { query: 'booking rooms' })).toMatchObject({ kind: 'search' });
    expect(readToolCall('manage_todo_list', { todoList: [] })).toMatchObject({ kind: 'message' });
  });

  // The ids VS Code gives the same tools (ContributedToolName in toolNames.ts), as its chat sessions and their SpecStory
  // exports record them (github.com/AltarsCN/Openwrt-CI .specstory/history, a "vscode Session" export @ 66801b6f).
  it('reads the tools by their VS Code ids: copilot_readFile, copilot_replaceString, copilot_findFiles, …', () => {
    expect(readToolCall('copilot_readFile', { filePath: '/home/dev/ci/Scripts/Packages.sh' })).toMatchObject({ kind: 'read', read: ['/home/dev/ci/Scripts/Packages.sh'] });
    expect(readToolCall('copilot_multiReplaceString', { filePath: '/home/dev/ci/README.md' })).toMatchObject({ kind: 'edit', written: ['/home/dev/ci/README.md'] });
    expect(readToolCall('copilot_createFile', { filePath: '/home/dev/ci/new.sh', content: 'x' })).toMatchObject({ kind: 'write', written: ['/home/dev/ci/new.sh'] });
    for (const search of ['copilot_findFiles', 'copilot_findTextInFiles', 'copilot_listDirectory', 'copilot_searchCodebase']) expect(readToolCall(search, { query: 'x' })).toMatchObject({ kind: 'search' });
    expect(readToolCall('copilot_getErrors', {})).toMatchObject({ kind: 'read' });
    expect(readToolCall('copilot_fetchWebPage', { urls: ['https://example.com'] })).toMatchObject({ kind: 'fetch' });
  });
});

// Cursor's own names for its tools, as its sessions saved by SpecStory show them (github.com/0xmcc/ubi-course
// .specstory/history/2026-03-02_21-25Z-vercel-project-identification.md @ f7b4e62); undocumented.
describe("Cursor's tool names in its saved sessions", () => {
  it('reads run_terminal_command_v2, read_file_v2, edit_file_v2, search_replace and its searches', () => {
    expect(readToolCall('run_terminal_command_v2', { command: 'git status' })).toMatchObject({ kind: 'shell', command: 'git status' });
    expect(readToolCall('read_file_v2', { file_path: '/Users/me/app/index.html' })).toMatchObject({ kind: 'read', read: ['/Users/me/app/index.html'] });
    expect(readToolCall('edit_file_v2', { file_path: '/Users/me/app/scripts.js' })).toMatchObject({ kind: 'edit', written: ['/Users/me/app/scripts.js'] });
    expect(readToolCall('search_replace', { file_path: 'src/cart.ts' })).toMatchObject({ kind: 'edit', written: ['src/cart.ts'] });
    expect(readToolCall('ripgrep_raw_search', { pattern: 'vercel', path: '/Users/me/app' })).toMatchObject({ kind: 'search', read: ['/Users/me/app'] });
    expect(readToolCall('glob_file_search', { glob_pattern: '**/*.json' })).toMatchObject({ kind: 'search' });
  });
});
