import type { Response } from 'express';
import type { DispatchOutcome } from '../core/command-dispatcher.js';

/** The HTTP answer to a command (FR-11.5): 200 `{"status":"ok"}`, the owner's refusal with its code, or 202 when stored for later. */
export function sendOutcome(outcome: DispatchOutcome, response: Response): Record<string, unknown> {
  switch (outcome.status) {
    case 'ok':
      response.status(200);
      return outcome.note ? { status: 'ok', note: outcome.note } : { status: 'ok' };
    case 'error':
      response.status(outcome.code);
      return { status: 'error', reason: outcome.reason };
    case 'accepted':
      response.status(202);
      return { status: 'accepted', note: outcome.note, command_id: outcome.command_id };
  }
}
