import type { Logger } from '@warden/observability';
import type { IncidentReport } from '@warden/interventions';

/** Who gets told about an emergency stop. */
export interface IncidentNotice {
  agent_id: string;
  session_id: string;
  incident: IncidentReport;
}

/** A way to tell people about an emergency stop. Resolves when delivered; rejects when it gave up. */
export interface Notifier {
  readonly name: string;
  notify(notice: IncidentNotice): Promise<void>;
}

export interface WebhookOptions {
  url: string;
  timeoutMs: number;
  /** Attempts after the first. */
  retries: number;
  /** Wait before the first retry; doubled for each next one. */
  backoffMs: number;
}

/**
 * POSTs the incident as JSON. Each attempt has its own timeout; a network error, a timeout or a 5xx/429
 * answer is retried with exponential backoff, any other 4xx is not (the receiver refused it). The
 * `Idempotency-Key` header carries the incident id, so a receiver can drop a repeat.
 */
export class WebhookNotifier implements Notifier {
  readonly name = 'webhook';

  constructor(private readonly options: WebhookOptions) {}

  async notify(notice: IncidentNotice): Promise<void> {
    const body = JSON.stringify({ event: 'warden.emergency_stop', ...notice });
    let lastError = 'no attempt made';
    for (let attempt = 0; attempt <= this.options.retries; attempt++) {
      if (attempt > 0) await sleep(this.options.backoffMs * 2 ** (attempt - 1));
      try {
        const response = await fetch(this.options.url, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'idempotency-key': notice.incident.incident_id },
          body,
          signal: AbortSignal.timeout(this.options.timeoutMs),
        });
        await response.arrayBuffer().catch(() => undefined);
        if (response.ok) return;
        lastError = `HTTP ${response.status}`;
        if (response.status < 500 && response.status !== 429) break;
      } catch (error) {
        lastError = (error as Error).name === 'TimeoutError' ? `no answer within ${this.options.timeoutMs} ms` : (error as Error).message;
      }
    }
    throw new Error(`webhook ${redactUrl(this.options.url)} failed: ${lastError}`);
  }
}

/** Writes the incident to the service log (always available; the default). */
export class LogNotifier implements Notifier {
  readonly name = 'log';

  constructor(private readonly logger: Logger) {}

  async notify(notice: IncidentNotice): Promise<void> {
    this.logger.warn(
      { agent_id: notice.agent_id, session_id: notice.session_id, incident_id: notice.incident.incident_id, summary: notice.incident.summary },
      'emergency stop: incident opened',
    );
  }
}

/** The URL without user info or query, which may hold credentials. */
export function redactUrl(url: string): string {
  try {
    const u = new URL(url);
    return `${u.protocol}//${u.host}${u.pathname}`;
  } catch {
    return '(invalid url)';
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
