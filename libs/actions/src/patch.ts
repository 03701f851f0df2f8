import type { ToolCall } from './tool-call.js';

/** What a patch does to one file. */
export interface FileChange {
  path: string;
  change: 'create' | 'modify' | 'delete';
}

// Codex's apply_patch format (openai/codex codex-rs/apply-patch): one header per file.
const HEADER = /^\*\*\* (Add File|Update File|Delete File|Move to): *(.+?) *$/gm;
const CHANGES: Record<string, FileChange['change']> = { 'Add File': 'create', 'Update File': 'modify', 'Delete File': 'delete', 'Move to': 'create' };
/** Where the patch text is: Codex's hook input `command`, its recorded `input`, OpenCode's `patchText`. */
export const PATCH_FIELDS = ['input', 'patch', 'patchText', 'command'] as const;

/** An apply_patch call: the files its `*** Add File: / *** Update File: / *** Delete File: / *** Move to:` headers name. */
export function readPatch(input: Readonly<Record<string, unknown>>, none: readonly string[], urls: readonly string[]): ToolCall {
  let text: string | undefined;
  for (const field of PATCH_FIELDS) if (text === undefined && typeof input[field] === 'string') text = input[field] as string;
  if (text === undefined) return { kind: 'edit', read: none, written: none, urls };
  const changes: FileChange[] = [];
  for (const match of text.matchAll(HEADER)) changes.push({ path: match[2]!, change: CHANGES[match[1]!]! });
  // A patch that deletes is a deletion, one that only adds files a creation, anything else an edit.
  const kind = changes.some((c) => c.change === 'delete') ? 'delete' : changes.length && changes.every((c) => c.change === 'create') ? 'write' : 'edit';
  return { kind, read: none, written: [...new Set(changes.map((c) => c.path))], urls, changes, content: text };
}
