import type { INestApplication } from '@nestjs/common';
import { createMessage, publishSubject, type AnyMessage, type SessionChannelId } from '@warden/contracts';
import { BusConnection } from '@warden/messaging';
import { OperatorStore, type OperatorRole } from '@warden/operator-auth';
import { serviceUrl } from '@warden/service-bootstrap';
import { captureLogger, TestNatsServer } from '@warden/testing';
import { createConsole } from '../src/console-app.js';
import { loadConsoleConfig } from '../src/config.js';

const encoder = new TextEncoder();

export interface HttpAnswer {
  status: number;
  headers: Headers;
  text: string;
}

/** A real nats-server, the console in this process, and operators with passwords. */
export class ConsoleFixture {
  readonly passwords: Record<string, string> = {};

  private constructor(
    readonly nats: TestNatsServer,
    readonly bus: BusConnection,
    readonly app: INestApplication,
    readonly url: string,
  ) {}

  static async start(env: NodeJS.ProcessEnv = {}): Promise<ConsoleFixture> {
    const nats = await TestNatsServer.start({ partitions: 4 });
    const bus = await BusConnection.open(nats.service);
    const config = loadConsoleConfig({
      NATS_URL: nats.url,
      NATS_USER: nats.service.user,
      NATS_PASSWORD: nats.service.password,
      HTTP_PORT: '0',
      WARDEN_PARTITIONS: '4',
      CONSOLE_LIVE_INTERVAL_MS: '50',
      // Nothing listens here: actions that reach the gate answer 503 gate_unreachable.
      CONSOLE_GATE_URL: 'http://127.0.0.1:9',
      ...env,
    });
    const app = await createConsole(config, captureLogger('console').logger);
    return new ConsoleFixture(nats, bus, app, serviceUrl(app));
  }

  async stop(): Promise<void> {
    await this.app.close();
    await this.bus.close();
    await this.nats.stop();
  }

  async operator(id: string, role: OperatorRole): Promise<string> {
    const store = new OperatorStore(this.bus.nc);
    this.passwords[id] = `${id} has a long password`;
    if (!(await store.get(id))) await store.add(id, role, { password: this.passwords[id], createdBy: 'test' });
    return this.passwords[id];
  }

  /** Logs in through the form, as a browser does; returns the cookie header value. */
  async login(id: string): Promise<string> {
    const response = await this.request('POST', '/login', {
      form: { operator: id, password: this.passwords[id]!, next: '/' },
      headers: { origin: this.url },
    });
    if (response.status !== 303) throw new Error(`login of ${id} answered ${response.status}: ${response.text.slice(0, 300)}`);
    return response.headers.get('set-cookie')!.split(';')[0]!;
  }

  async request(
    method: string,
    path: string,
    options: { form?: Record<string, string>; json?: unknown; headers?: Record<string, string>; body?: string } = {},
  ): Promise<HttpAnswer> {
    const headers: Record<string, string> = { ...options.headers };
    let body: string | undefined = options.body;
    if (options.form) {
      headers['content-type'] = 'application/x-www-form-urlencoded';
      body = new URLSearchParams(options.form).toString();
    } else if (options.json !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(options.json);
    }
    const response = await fetch(`${this.url}${path}`, { method, headers, redirect: 'manual', ...(body !== undefined ? { body } : {}) });
    return { status: response.status, headers: response.headers, text: await response.text() };
  }

  /** Publishes a message of the suite on its channel, as the services or agents would. */
  async publish<T extends AnyMessage['type']>(channel: SessionChannelId, type: T, fields: { agent_id?: string; session_id: string; payload: unknown; trace_id?: string; causation_id?: string; timestamp?: string }): Promise<AnyMessage> {
    const message = createMessage(type, { agent_id: 'agent-1', ...fields } as never) as AnyMessage;
    await this.bus.js.publish(publishSubject(channel, message.agent_id, message.session_id), encoder.encode(JSON.stringify(message)), { msgID: message.id });
    return message;
  }
}

/** A Server-Sent Events stream as a browser reads it: every event seen so far, and a way to wait for more. */
export class EventStream {
  readonly events: { event: string; data: any }[] = [];
  private readonly controller = new AbortController();
  private readonly waiters = new Set<() => void>();
  private failure?: Error;

  private constructor() {}

  /** Opens the stream and resolves once the server said hello (so nothing published afterwards is missed). */
  static async open(url: string, cookie: string): Promise<EventStream> {
    const stream = new EventStream();
    const response = await fetch(url, { headers: { cookie }, signal: stream.controller.signal });
    if (response.status !== 200) throw new Error(`stream answered ${response.status}: ${await response.text()}`);
    void stream.read(response.body as unknown as AsyncIterable<Uint8Array>);
    await stream.waitFor((events) => events.some((e) => e.event === 'hello'));
    return stream;
  }

  waitFor(accept: (events: { event: string; data: any }[]) => boolean, timeoutMs = 10_000): Promise<{ event: string; data: any }[]> {
    return new Promise((resolve, reject) => {
      const check = () => {
        if (this.failure) return finish(() => reject(this.failure));
        if (accept(this.events)) return finish(() => resolve(this.events));
      };
      const timer = setTimeout(() => finish(() => reject(new Error(`timed out after ${timeoutMs} ms; events: ${JSON.stringify(this.events).slice(0, 1000)}`))), timeoutMs);
      const finish = (settle: () => void) => {
        clearTimeout(timer);
        this.waiters.delete(check);
        settle();
      };
      this.waiters.add(check);
      check();
    });
  }

  close(): void {
    this.controller.abort();
  }

  private async read(body: AsyncIterable<Uint8Array>): Promise<void> {
    const decoder = new TextDecoder();
    let buffer = '';
    try {
      for await (const chunk of body) {
        buffer += decoder.decode(chunk, { stream: true });
        let end: number;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const event = /^event: (.*)$/m.exec(block)?.[1];
          const data = /^data: (.*)$/m.exec(block)?.[1];
          if (event && data) this.events.push({ event, data: JSON.parse(data) });
        }
        for (const waiter of [...this.waiters]) waiter();
      }
    } catch (error) {
      if (!this.controller.signal.aborted) this.failure = error as Error;
    }
    for (const waiter of [...this.waiters]) waiter();
  }
}
