import type { ParsedAction } from '../parsing/parsed-action.js';

/** The input fields a shell command is read from, in the order the parser reads them. */
const COMMAND_FIELDS = ['command', 'cmd', 'script'] as const;

/** A copy of the action's input with its command line replaced: the input of a `modify` verdict. */
export function withCommand(action: ParsedAction, command: string): Record<string, unknown> {
  const field = COMMAND_FIELDS.find((name) => typeof action.input[name] === 'string') ?? 'command';
  return { ...action.input, [field]: command };
}
