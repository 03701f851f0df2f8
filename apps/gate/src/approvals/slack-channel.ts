import { createHmac, timingSafeEqual } from 'node:crypto';
import { WebClient, type KnownBlock } from '@slack/web-api';
import { durationText, type GateRequestRecord } from '@warden/gate';
import { RecordConflictError, type RecordStore } from '@warden/messaging';
import type { ApprovalChannel, OutboxEntry } from './approval-outbox.js';
import type { SlackChannelSettings } from './approval-settings.js';

const clip = (text: string, max: number) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);
const STATUS_TEXT: Record<string, string> = {
  approved: ':white_check_mark: Approved',
  approved_with_conditions: ':white_check_mark: Approved with conditions',
  rejected: ':no_entry: Rejected',
  timed_out: ':hourglass: Denied, nobody answered in time',
};

/** The message that started a session's thread in a Slack channel. */
export interface SlackThread {
  channel: string;
  ts: string;
}

/** The value of an Approve / Reject button: the request and the digest of what the message shows. */
export function buttonValue(request: GateRequestRecord): string {
  return `${request.request_id}:${request.digest ?? ''}`;
}

/** A request as a Block Kit message: what the approver approves, and the buttons while it is pending. */
export function slackMessage(request: GateRequestRecord, consoleUrl: string | undefined): { text: string; blocks: KnownBlock[] } {
  const action = (request.details.action ?? {}) as { tool?: string; input?: unknown };
  const input = clip(JSON.stringify(action.input ?? null, null, 2), 2500);
  const pending = request.status === 'pending';
  const link = consoleUrl ? `${consoleUrl}/approvals/${encodeURIComponent(request.request_id)}` : undefined;
  const blocks: KnownBlock[] = [
    {
      type: 'section',
      text: { type: 'mrkdwn', text: `*Approval needed* · gate \`${request.gate_id}\`\n*Agent* \`${request.agent_id}\` · *Session* \`${request.session_id}\`` },
    },
    { type: 'section', text: { type: 'mrkdwn', text: `*Why:* ${clip(request.summary, 1500)}` } },
    { type: 'section', text: { type: 'mrkdwn', text: `*Tool* \`${action.tool ?? '?'}\`\n\`\`\`${input}\`\`\`` } },
    { type: 'context', elements: [{ type: 'mrkdwn', text: `digest \`${(request.digest ?? '').slice(0, 16)}\` · denied unless answered by ${request.expires_at}` }] },
  ];
  const escalated = request.escalations?.at(-1);
  if (escalated && pending) {
    blocks.splice(1, 0, { type: 'context', elements: [{ type: 'mrkdwn', text: `:rotating_light: Escalated: nobody answered within ${durationText(escalated.after_ms)} (asked: ${clip((request.asked ?? []).join(', '), 500)})` }] });
  }
  if (pending) {
    blocks.push({
      type: 'actions',
      // Slack asks for a new block_id for each version of a message: the digest names the version.
      block_id: `warden_request.${request.request_id}.${(request.digest ?? '').slice(0, 16)}`,
      elements: [
        { type: 'button', action_id: 'approve', style: 'primary', text: { type: 'plain_text', text: 'Approve' }, value: buttonValue(request) },
        { type: 'button', action_id: 'reject', style: 'danger', text: { type: 'plain_text', text: 'Reject' }, value: buttonValue(request) },
        ...(link ? [{ type: 'button' as const, action_id: 'open', text: { type: 'plain_text' as const, text: 'Open' }, url: link }] : []),
      ],
    });
  } else {
    // A request nobody answered was denied by its deadline, not by someone: the reason says which channels were asked.
    const by = request.approver && request.status !== 'timed_out' ? ` by ${request.approver}` : '';
    const via = request.channel ? ` via ${request.channel}` : '';
    blocks.push({ type: 'section', text: { type: 'mrkdwn', text: `${STATUS_TEXT[request.status] ?? request.status}${by}${via}${request.reason ? `: ${clip(request.reason, 500)}` : ''}` } });
  }
  const text = pending ? `Warden asks for an approval: ${action.tool ?? ''} in session ${request.session_id}` : `${STATUS_TEXT[request.status] ?? request.status}: ${action.tool ?? ''} in session ${request.session_id}`;
  return { text, blocks };
}

/**
 * A Slack channel: `chat.postMessage` once per request (the message is kept in the outbox), then
 * `chat.update` of that message for every change and the answer, with Slack's official Web API client.
 * The queue is taken whole: the message always shows the request as it is now.
 */
export class SlackChannel implements ApprovalChannel {
  readonly type = 'slack';
  readonly name: string;
  readonly client: WebClient;

  constructor(
    readonly settings: SlackChannelSettings,
    private readonly consoleUrl: string | undefined,
    timeoutMs: number,
    /** The first message of each session (`thread.<channel>.<agent>.<session>` in warden_gate_approvals): later ones reply in its thread. */
    private readonly threads?: RecordStore<SlackThread>,
  ) {
    this.name = settings.name;
    // Retries are the outbox's (with its backoff, across restarts); the client makes one call.
    this.client = new WebClient(settings.botToken, { slackApiUrl: settings.apiUrl, timeout: timeoutMs, retryConfig: { retries: 0 }, rejectRateLimitedCalls: true });
  }

  async deliver(entry: OutboxEntry): Promise<{ delivered: number; message: { channel: string; ts: string } }> {
    const latest = entry.queue[entry.queue.length - 1]!.request;
    const { text, blocks } = slackMessage(latest, this.consoleUrl);
    if (entry.message) {
      await this.client.chat.update({ channel: entry.message.channel, ts: entry.message.ts, text, blocks });
      return { delivered: entry.queue.length, message: entry.message };
    }
    // Threaded per session: the session's first request starts the thread, the next ones reply in it.
    const threadKey = `thread.${this.name}.${latest.agent_id}.${latest.session_id}`;
    const thread = (await this.threads?.get(threadKey))?.value;
    const posted = await this.client.chat.postMessage({
      channel: thread?.channel ?? this.settings.channel,
      text,
      blocks,
      unfurl_links: false,
      ...(thread ? { thread_ts: thread.ts } : {}),
    });
    if (!posted.ts || !posted.channel) throw new Error('chat.postMessage answered without channel and ts');
    if (!thread && this.threads) {
      await this.threads.write(threadKey, { channel: posted.channel, ts: posted.ts }, undefined).catch((error: unknown) => {
        // Another request of the session started the thread first: this one stays where it is.
        if (!(error instanceof RecordConflictError)) throw error;
      });
    }
    return { delivered: entry.queue.length, message: { channel: posted.channel, ts: posted.ts } };
  }

  /** Tells one Slack user why their click was refused (only they see it). */
  async tell(channel: string, user: string, text: string): Promise<void> {
    await this.client.chat.postEphemeral({ channel, user, text });
  }
}

export type SlackSignatureProblem = 'missing_signature' | 'stale_timestamp' | 'invalid_signature';

/**
 * Slack's request signature (v0): `v0=` + hex HMAC-SHA256 of `v0:<X-Slack-Request-Timestamp>:<raw body>`
 * with the app's signing secret, compared in constant time; a timestamp more than `toleranceS` from
 * now is refused (a replayed request).
 */
export function slackSignatureProblem(secret: string, timestamp: string | undefined, signature: string | undefined, body: string, nowS: number, toleranceS: number): SlackSignatureProblem | null {
  if (!timestamp || !signature) return 'missing_signature';
  if (!/^\d{1,12}$/.test(timestamp) || Math.abs(nowS - Number(timestamp)) > toleranceS) return 'stale_timestamp';
  const expected = Buffer.from(`v0=${createHmac('sha256', secret).update(`v0:${timestamp}:${body}`).digest('hex')}`);
  const given = Buffer.from(signature);
  return given.length === expected.length && timingSafeEqual(given, expected) ? null : 'invalid_signature';
}
