import { TURN_END_MAX_LENGTH } from '@warden/contracts';
import type { RecordedAction } from '../recorded-session.js';

/**
 * The agent's words that end a turn, as its Stop hook would send them (`last_assistant_message`): the
 * reply after its last action of the turn, before the user's next request or the end of the recording.
 * Words followed by another action were said on the way, not at the end.
 */
export class TurnWords {
  private words: string | undefined;
  private after: RecordedAction | undefined;

  /** The agent said this (a text reply), after `lastAction`, the last action recorded so far. */
  said(text: string | undefined, lastAction: RecordedAction | undefined): void {
    const words = text?.trim();
    if (!words || !lastAction) return;
    this.words = this.words !== undefined && this.after === lastAction ? `${this.words}\n${words}` : words;
    this.after = lastAction;
  }

  /** The turn ended (the user asks again, or the recording ends): its last words go with its last action. */
  ended(lastAction: RecordedAction | undefined): void {
    if (this.words && lastAction && this.after === lastAction) lastAction.turnEnd = this.words.slice(-TURN_END_MAX_LENGTH);
    this.words = undefined;
    this.after = undefined;
  }
}
