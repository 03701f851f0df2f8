import { createHmac } from 'node:crypto';
import type { ApprovalChannel, OutboxEntry } from './approval-outbox.js';
import type { WebhookChannelSettings } from './approval-settings.js';

/** Header with the Unix time (seconds) the delivery was signed at; receivers refuse old ones (replay window). */
export const WARDEN_TIMESTAMP_HEADER = 'X-Warden-Timestamp';
/** Header with `v1=<hex HMAC-SHA256 of "<timestamp>.<raw body>" with the channel's secret>`. */
export const WARDEN_SIGNATURE_HEADER = 'X-Warden-Signature';
export const WARDEN_EVENT_HEADER = 'X-Warden-Event-Id';

/** The signature a webhook receiver recomputes: `v1=` + HMAC-SHA256(secret, `${timestamp}.${body}`) in hex. */
export function wardenSignature(secret: string, timestamp: string, body: string): string {
  return `v1=${createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')}`;
}

/**
 * The generic signed webhook: each event of a request is POSTed as JSON, oldest first, signed; any
 * answer but 2xx is a failure, retried by the outbox. The receiver answers the request by calling the
 * gate's API (`POST /gateway/requests/<id>/respond` with `digest`) with an operator's token.
 */
export class WebhookChannel implements ApprovalChannel {
  readonly type = 'webhook';
  readonly name: string;

  constructor(
    private readonly settings: WebhookChannelSettings,
    private readonly consoleUrl: string | undefined,
    private readonly timeoutMs: number,
  ) {
    this.name = settings.name;
  }

  async deliver(entry: OutboxEntry): Promise<{ delivered: number }> {
    const event = entry.queue[0]!;
    const request = event.request;
    const body = JSON.stringify({
      id: event.id,
      type: event.type,
      occurred_at: event.at,
      request,
      digest: request.digest,
      answer: {
        method: 'POST',
        path: `/gateway/requests/${request.request_id}/respond`,
        body: { approved: true, digest: request.digest },
      },
      ...(this.consoleUrl ? { links: { approval: `${this.consoleUrl}/approvals/${encodeURIComponent(request.request_id)}` } } : {}),
    });
    const timestamp = String(Math.floor(Date.now() / 1000));
    const response = await fetch(this.settings.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'user-agent': 'warden-gate',
        [WARDEN_TIMESTAMP_HEADER]: timestamp,
        [WARDEN_SIGNATURE_HEADER]: wardenSignature(this.settings.secret, timestamp, body),
        [WARDEN_EVENT_HEADER]: event.id,
      },
      body,
      signal: AbortSignal.timeout(this.timeoutMs),
    });
    await response.arrayBuffer().catch(() => undefined);
    if (response.status < 200 || response.status >= 300) throw new Error(`webhook answered ${response.status}`);
    return { delivered: 1 };
  }
}
