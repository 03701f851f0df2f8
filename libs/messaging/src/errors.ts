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
 * A dependency is down (a database, a downstream API): the message is fine and will succeed later. It
 * is retried with a growing delay for as long as it takes and never dead-lettered. Other errors are
 * retried too, but only up to the delivery limit.
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
