import { RequestOne } from '@nats-io/nats-core/internal';

type Cancel = (this: RequestOne, error?: Error) => void;
type Resolve = (this: RequestOne, error: Error | null, message: unknown) => void;

const ANSWERED = Symbol('warden.answered');
/** Passed to nats.js's cancel of an answered request, whose promise is settled: nobody ever sees it. */
const ALREADY_SETTLED = new Error('request already answered');
let patched = false;

/**
 * nats.js (3.x) cancels every request once it is answered, and that cancel builds a RequestError, stack
 * trace included, to reject a promise that is already settled, where the rejection is ignored. A
 * JetStream publish is such a request: under load, that Error was 4 to 6% of the reviewer's and the
 * gate's CPU. After this, the cancel of an answered request hands nats.js an Error built once instead;
 * a request cancelled before its answer (timeout, connection closed) rejects as before.
 * Leaves nats.js as it is when its request no longer has the shape this relies on.
 */
export function skipCancelErrorOfAnsweredRequests(): void {
  const proto = RequestOne.prototype as unknown as { resolver?: Resolve; cancel?: Cancel };
  if (patched || typeof proto.resolver !== 'function' || typeof proto.cancel !== 'function') return;
  patched = true;
  const resolver = proto.resolver;
  const cancel = proto.cancel;
  proto.resolver = function (this: RequestOne & { [ANSWERED]?: boolean }, error, message) {
    this[ANSWERED] = true;
    resolver.call(this, error, message);
  };
  proto.cancel = function (this: RequestOne & { [ANSWERED]?: boolean }, error) {
    cancel.call(this, error ?? (this[ANSWERED] ? ALREADY_SETTLED : undefined));
  };
}
