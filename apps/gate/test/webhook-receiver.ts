import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
  headers: IncomingMessage['headers'];
  raw: string;
  body: Record<string, any>;
  verified: boolean;
}

export interface WebhookReceiver {
  server: Server;
  url: string;
  /** Deliveries it took (2xx), each verified. */
  received: Received[];
  /** The status it answered to every delivery, in order. */
  answers: number[];
  close(): void;
}

/**
 * The receiver a team would write: it checks X-Warden-Signature (`v1=` + hex HMAC-SHA256 of
 * `<X-Warden-Timestamp>.<raw body>` with the shared secret, constant-time) and a 5-minute replay window
 * on X-Warden-Timestamp, independently of the gate's code. With `failFirst` it answers its first
 * delivery 503, so that the gate's retry is seen.
 */
export async function startWebhookReceiver(secret: string, options: { failFirst?: boolean } = {}): Promise<WebhookReceiver> {
  const received: Received[] = [];
  const answers: number[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      const timestamp = String(req.headers['x-warden-timestamp'] ?? '');
      const expected = Buffer.from(`v1=${createHmac('sha256', secret).update(`${timestamp}.${raw}`).digest('hex')}`);
      const given = Buffer.from(String(req.headers['x-warden-signature'] ?? ''));
      const fresh = Math.abs(Date.now() / 1000 - Number(timestamp)) <= 300;
      const verified = fresh && given.length === expected.length && timingSafeEqual(given, expected);
      const status = options.failFirst && answers.length === 0 ? 503 : verified ? 204 : 401;
      answers.push(status);
      if (status === 204) received.push({ headers: req.headers, raw, body: JSON.parse(raw) as Record<string, any>, verified });
      res.writeHead(status).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/warden`, received, answers, close: () => server.close() };
}
