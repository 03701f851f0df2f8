// Moved to @warden/claude-code, shared by the command hook and the gateway; kept for the replay's imports.
export * from '@warden/claude-code';
