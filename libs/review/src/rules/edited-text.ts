/** What an edit or a write leaves in a file, and what the edit replaced there (empty for a write). */
export function editedText(input: Record<string, unknown>): { before: string; after: string } {
  const before = typeof input['old_string'] === 'string' ? input['old_string'] : '';
  const after = typeof input['new_string'] === 'string' ? input['new_string'] : typeof input['content'] === 'string' ? input['content'] : '';
  return { before, after };
}

/**
 * The lines a patch in Codex's apply_patch format brings in: its `+` lines that it does not also remove (a line a
 * hunk restates, removed and added back the same, changes nothing in the file).
 */
export function linesAddedBy(patch: string): string {
  const removed = new Set<string>();
  const added: string[] = [];
  for (const line of patch.split('\n')) {
    if (line.startsWith('+')) added.push(line.slice(1));
    else if (line.startsWith('-')) removed.add(line.slice(1));
  }
  return added.filter((line) => !removed.has(line)).join('\n');
}
