/** The SDK refuses to send a message that does not match its contract; `detail` names the fields. */
export class InvalidMessageError extends Error {
  constructor(
    readonly type: string,
    readonly detail: string,
  ) {
    super(`invalid ${type}: ${detail}`);
    this.name = 'InvalidMessageError';
  }
}
