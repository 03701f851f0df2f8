import { createHmac } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- Slack's arguments and answers are JSON a test reads field by field
type Json = Record<string, any>;

/** One call of Slack's Web API as the stand-in got it: the arguments parsed as Slack parses them. */
export interface SlackCall {
  /** `chat.postMessage`, `chat.update`, `chat.postEphemeral`, … */
  method: string;
  httpMethod: string;
  headers: IncomingHttpHeaders;
  /** The raw body. */
  raw: string;
  /**
   * The arguments: form fields (`application/x-www-form-urlencoded`) with the JSON-valued ones
   * (`blocks`, `attachments`) decoded, or the JSON body (`application/json`).
   */
  args: Json;
  /** What the stand-in answered. */
  answer: Json;
}

/**
 * A stand-in for Slack's Web API (`https://slack.com/api/<method>`) on 127.0.0.1, answering as Slack
 * documents: `chat.postMessage` → `{ok, channel, ts, message}` with a new message timestamp,
 * `chat.update` → `{ok, channel, ts, text}` of a message it posted (`message_not_found` otherwise),
 * `chat.postEphemeral` → `{ok, message_ts}`; a call without a bearer token is `not_authed`. It keeps
 * every call, for a test to check them field by field.
 */
export class SlackWebApi {
  readonly calls: SlackCall[] = [];
  private readonly posted = new Map<string, { channel: string; text: string }>();
  private sequence = 0;

  private constructor(
    private readonly server: Server,
    readonly token: string,
  ) {}

  static async start(token: string): Promise<SlackWebApi> {
    const server = createServer();
    const api = new SlackWebApi(server, token);
    server.on('request', (req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        const answer = api.answer(req.method ?? '', req.url ?? '', req.headers, raw);
        res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' }).end(JSON.stringify(answer));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return api;
  }

  /** The base URL a WebClient is given (`slackApiUrl`), ending in `/api/` as Slack's does. */
  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/api/`;
  }

  /** The calls of one method, in order. */
  of(method: string): SlackCall[] {
    return this.calls.filter((c) => c.method === method);
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  private answer(httpMethod: string, url: string, headers: IncomingHttpHeaders, raw: string): Record<string, unknown> {
    const method = url.replace(/^\/api\//, '').replace(/\?.*$/, '');
    const type = String(headers['content-type'] ?? '').split(';')[0]!.trim();
    let args: Json = {};
    if (type === 'application/json') {
      args = JSON.parse(raw || '{}') as Json;
    } else {
      for (const [key, value] of new URLSearchParams(raw)) {
        args[key] = (key === 'blocks' || key === 'attachments') && value.startsWith('[') ? JSON.parse(value) : value;
      }
    }
    const call: SlackCall = { method, httpMethod, headers, raw, args, answer: {} };
    call.answer = this.reply(method, headers, args);
    this.calls.push(call);
    return call.answer;
  }

  private reply(method: string, headers: IncomingHttpHeaders, args: Json): Record<string, unknown> {
    const token = String(headers.authorization ?? '').replace(/^Bearer /, '') || args.token;
    if (!token) return { ok: false, error: 'not_authed' };
    if (token !== this.token) return { ok: false, error: 'invalid_auth' };
    switch (method) {
      case 'chat.postMessage': {
        if (!args.channel) return { ok: false, error: 'channel_not_found' };
        if (!args.text && !args.blocks && !args.attachments) return { ok: false, error: 'no_text' };
        const ts = `${Math.floor(Date.now() / 1000)}.${String(++this.sequence).padStart(6, '0')}`;
        this.posted.set(`${args.channel}/${ts}`, { channel: args.channel, text: args.text ?? '' });
        return { ok: true, channel: args.channel, ts, message: { type: 'message', subtype: 'bot_message', text: args.text ?? '', ts, ...(args.blocks ? { blocks: args.blocks } : {}) } };
      }
      case 'chat.update': {
        if (!args.channel || !args.ts) return { ok: false, error: 'invalid_arguments' };
        if (!this.posted.has(`${args.channel}/${args.ts}`)) return { ok: false, error: 'message_not_found' };
        return { ok: true, channel: args.channel, ts: args.ts, text: args.text ?? '', message: { text: args.text ?? '', ...(args.blocks ? { blocks: args.blocks } : {}) } };
      }
      case 'chat.postEphemeral':
        if (!args.channel || !args.user) return { ok: false, error: 'invalid_arguments' };
        return { ok: true, message_ts: `${Math.floor(Date.now() / 1000)}.${String(++this.sequence).padStart(6, '0')}` };
      default:
        return { ok: false, error: 'unknown_method' };
    }
  }
}

/**
 * A request as Slack sends it to an app's interactivity Request URL: the `block_actions` payload
 * form-encoded as `payload=<JSON>`, with `X-Slack-Request-Timestamp` and `X-Slack-Signature`
 * (`v0=` + hex HMAC-SHA256 of `v0:<timestamp>:<body>` with the app's signing secret), computed here
 * from Slack's documentation, independently of the code under test.
 */
export function slackInteraction(
  signingSecret: string,
  payload: Record<string, unknown>,
  options: { timestamp?: number } = {},
): { body: string; headers: Record<string, string> } {
  const body = new URLSearchParams({ payload: JSON.stringify(payload) }).toString();
  const timestamp = String(options.timestamp ?? Math.floor(Date.now() / 1000));
  const signature = `v0=${createHmac('sha256', signingSecret).update(`v0:${timestamp}:${body}`).digest('hex')}`;
  return {
    body,
    headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-slack-request-timestamp': timestamp, 'x-slack-signature': signature },
  };
}
