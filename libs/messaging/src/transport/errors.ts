/**
 * A handler throws this when the message itself is wrong in a way the schema cannot express (e.g. an
 * action for a session it never started). The message is dead-lettered at once with the detail.
 */
export class RejectMessageError extends Error {
  constructor(readonly detail: string) {
    super(detail);
    this.name = 'RejectMessageError';
  }
}

/**
 * A failure worth retrying (a dependency is down). Any other error is retried too, up to the delivery
 * limit; this class only makes the intent explicit in handler code and logs.
 */
export class TransientError extends Error {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = 'TransientError';
  }
}

/** An outgoing message that does not match its contract: a bug in the service, never sent. */
export class ContractViolationError extends Error {
  constructor(type: string, detail: string) {
    super(`refusing to publish an invalid ${type}: ${detail}`);
    this.name = 'ContractViolationError';
  }
}
