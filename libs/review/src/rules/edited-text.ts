/** What an edit or a write leaves in a file, and what the edit replaced there (empty for a write). */
export function editedText(input: Record<string, unknown>): { before: string; after: string } {
  const before = typeof input['old_string'] === 'string' ? input['old_string'] : '';
  const after = typeof input['new_string'] === 'string' ? input['new_string'] : typeof input['content'] === 'string' ? input['content'] : '';
  return { before, after };
}
