import { withCommandLine } from '@warden/actions';
import type { ParsedAction } from '../parsing/parsed-action.js';

/**
 * A copy of the action's input with its command line replaced: the input of a `modify` verdict, the
 * command written in the field the agent reads it from (@warden/actions' withCommandLine).
 */
export function withCommand(action: ParsedAction, command: string): Record<string, unknown> {
  return withCommandLine(action.input, command);
}
