import type { DynamicModule } from '@nestjs/common';
import {
  CHANNELS,
  channelsReceivedBy,
  DEAD_LETTER_ROOT,
  deadLetterSubject,
  exampleMessage,
  MESSAGE_DEFINITIONS,
  messageTypesOn,
  newMessageId,
  parseSessionSubject,
  partitionOf,
  publishSubject,
  validateMessage,
  type ChannelId,
  type MessageDefinition,
  type ServiceName,
  type SessionChannelId,
} from '@warden/contracts';
import { BusConnection } from '@warden/messaging';
import type { Logger } from '@warden/observability';
import { BusRecorder } from './bus-recorder.js';
import { TestNatsServer } from './nats-server.js';
import { startInProcess, type InProcessService } from './service-app.js';

export interface ContractSuiteOptions {
  service: ServiceName;
  /** Builds the service's app module from an environment, as its main does from process.env. */
  createModule(env: NodeJS.ProcessEnv, logger: Logger): DynamicModule;
  /** Extra environment (e.g. DATABASE_URL), prepared before the service starts. */
  prepare?: () => Promise<{ env: NodeJS.ProcessEnv; cleanup?: () => Promise<void> }>;
  /** The largest JSON body its HTTP routes read, as its main sets it [100 KB]. */
  jsonBodyLimit?: string;
  /** See @warden/service-bootstrap ServiceStartOptions.operatorBodies. */
  operatorBodies?: boolean;
}

const encoder = new TextEncoder();
const AGENT = 'agent-1';

/** What a contract test can use: the running service, the bus, and everything published on it. */
export class ContractHarness {
  nats!: TestNatsServer;
  bus!: BusConnection;
  service!: InProcessService;
  recorder!: BusRecorder;
  private cleanup?: () => Promise<void>;
  private env: NodeJS.ProcessEnv = {};
  private running = false;

  constructor(readonly options: ContractSuiteOptions) {}

  async start(): Promise<void> {
    this.nats = await TestNatsServer.start({ partitions: 4 });
    this.bus = await BusConnection.open(this.nats.service);
    this.recorder = await BusRecorder.start(this.bus.nc, 'warden.>');
    const prepared = (await this.options.prepare?.()) ?? { env: {} };
    this.cleanup = prepared.cleanup;
    const env: NodeJS.ProcessEnv = {
      NATS_URL: this.nats.url,
      NATS_USER: this.nats.service.user,
      NATS_PASSWORD: this.nats.service.password,
      WARDEN_PARTITIONS: String(this.nats.partitions),
      WARDEN_HEARTBEAT_MS: '200',
      WARDEN_LEASE_MS: '1000',
      HTTP_PORT: '0',
      ...prepared.env,
    };
    this.env = env;
    await this.startService();
  }

  /** Stops the service, the bus and what it stored kept: a service down for a while. */
  async stopService(): Promise<void> {
    if (!this.running) return;
    this.running = false;
    await this.service.close();
  }

  /** Starts the service (again) with the same settings. */
  async startService(): Promise<void> {
    this.service = await startInProcess(this.options.service, (logger) => this.options.createModule(this.env, logger), {
      ...(this.options.jsonBodyLimit ? { jsonBodyLimit: this.options.jsonBodyLimit } : {}),
      ...(this.options.operatorBodies ? { operatorBodies: true } : {}),
    });
    this.running = true;
  }

  async stop(): Promise<void> {
    await this.stopService();
    this.recorder?.stop();
    await this.bus?.close();
    await this.nats?.stop();
    await this.cleanup?.();
  }

  /** Nats-Msg-Ids of what this harness published, which a service that also sends on that channel did not. */
  private readonly published = new Set<string>();

  /** Publishes raw bytes on a channel's subject for a session, as any client could. */
  async publishRaw(channel: ChannelId, sessionId: string, data: Uint8Array, id = newMessageId()): Promise<string> {
    const subject =
      CHANNELS[channel].kind === 'deadletter'
        ? deadLetterSubject('reviewer', { channel: 'action', partition: partitionOf(sessionId, this.nats.partitions), agentId: AGENT, sessionId })
        : publishSubject(channel as SessionChannelId, AGENT, sessionId);
    await this.bus.js.publish(subject, data, { msgID: id });
    this.published.add(id);
    return id;
  }

  /** A valid message of `type` for a new session, built from the contract's example. */
  example(type: string, sessionId = `contract-${newMessageId().slice(0, 8)}`): Record<string, unknown> {
    const definition = MESSAGE_DEFINITIONS.find((d) => d.type === type) as MessageDefinition;
    const channelKind = CHANNELS[definition.channel].kind;
    return {
      ...exampleMessage(definition),
      id: newMessageId(),
      session_id: channelKind === 'session' ? sessionId : '_',
      agent_id: channelKind === 'session' ? AGENT : '_',
      timestamp: new Date().toISOString(),
    };
  }

  /** Sum of warden_messages_processed_total for a channel and type, read from the service's /metrics. */
  async processed(channel: string, type: string): Promise<number> {
    const text = await (await fetch(`${this.service.url}/metrics`)).text();
    const pattern = new RegExp(`^warden_messages_processed_total\\{channel="${channel}",type="${type.replaceAll('.', '\\.')}",[^}]*\\} (\\d+)$`, 'gm');
    let total = 0;
    for (const match of text.matchAll(pattern)) total += Number(match[1]);
    return total;
  }

  async waitProcessed(channel: string, type: string, atLeast: number, timeoutMs = 10_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      if ((await this.processed(channel, type)) >= atLeast) return;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error(`${this.options.service} did not process ${type} on ${channel} (${await this.processed(channel, type)} < ${atLeast})`);
  }

  /** The dead letter this service published for the message with this Nats-Msg-Id. */
  deadLetterFor(messageId: string, timeoutMs = 10_000) {
    return this.recorder.waitFor(
      (m) =>
        m.subject.startsWith(`${DEAD_LETTER_ROOT}.${this.options.service}.`) &&
        (m.body.payload as { original_message_id?: string } | undefined)?.original_message_id === messageId,
      timeoutMs,
    );
  }

  /** Messages this service published: on channels it sends, or its own dead letters. */
  emitted() {
    return this.recorder.messages.filter((m) => {
      if (this.published.has(m.headers['Nats-Msg-Id'] ?? '')) return false;
      if (m.subject.startsWith(`${DEAD_LETTER_ROOT}.`)) return m.subject.startsWith(`${DEAD_LETTER_ROOT}.${this.options.service}.`);
      const address = parseSessionSubject(m.subject);
      return !!address && (CHANNELS[address.channel].senders as readonly string[]).includes(this.options.service);
    });
  }
}

const BAD_INPUTS: [string, (h: ContractHarness, type: string, session: string) => Uint8Array, string][] = [
  ['invalid JSON', () => encoder.encode('{"type": "action.proposed", oops'), 'invalid_json'],
  ['a wrong schema', (h, type, s) => encoder.encode(JSON.stringify({ ...h.example(type, s), payload: 'not an object' })), 'schema_invalid'],
  ['an unknown type', (h, type, s) => encoder.encode(JSON.stringify({ ...h.example(type, s), type: 'warden.teleported' })), 'unknown_type'],
  [
    'a 2 MB payload',
    (h, type, s) => encoder.encode(JSON.stringify({ ...h.example(type, s), padding: 'x'.repeat(2 * 1024 * 1024) })),
    'oversized',
  ],
];

/**
 * The contract test of a service: it runs against a real nats-server, consumes a valid example of
 * every message type on every channel it receives, dead-letters invalid JSON, a wrong schema, an
 * unknown type and a 2 MB payload on each of them with the reason and keeps serving, and everything it
 * publishes validates against libs/contracts and carries its id as Nats-Msg-Id. `extend` adds the
 * service's own cases to the same running service.
 */
export function describeServiceContract(options: ContractSuiteOptions, extend?: (harness: ContractHarness) => void): void {
  const harness = new ContractHarness(options);
  const received = channelsReceivedBy(options.service).filter((c) => CHANNELS[c].kind !== 'request');

  describe(`${options.service} contract`, () => {
    beforeAll(() => harness.start(), 60_000);
    afterAll(() => harness.stop(), 30_000);

    it('receives the channels the contracts say it receives', () => {
      expect(received.length).toBeGreaterThan(0);
      expect([...harness.service.transport.options.channels].sort()).toEqual(
        channelsReceivedBy(options.service).filter((c) => CHANNELS[c].kind !== 'request').sort(),
      );
    });

    describe('valid input', () => {
      const cases = received.flatMap((channel) => messageTypesOn(channel).map((type) => [channel, type] as const));
      it.each(cases)('consumes %s / %s', async (channel, type) => {
        const before = await harness.processed(channel, type);
        const session = `valid-${newMessageId().slice(0, 8)}`;
        const id = await harness.publishRaw(channel, session, encoder.encode(JSON.stringify(harness.example(type, session))));
        await harness.waitProcessed(channel, type, before + 1);
        expect(harness.recorder.messages.some((m) => (m.body.payload as { original_message_id?: string })?.original_message_id === id)).toBe(false);
      });
    });

    describe('invalid input', () => {
      const cases = received.flatMap((channel) => BAD_INPUTS.map(([name, make, reason]) => [channel, name, make, reason] as const));
      it.each(cases)('on %s: dead-letters %s and keeps serving', async (channel, _name, make, reason) => {
        const type = messageTypesOn(channel)[0]!;
        const session = `bad-${newMessageId().slice(0, 8)}`;
        const id = await harness.publishRaw(channel, session, make(harness, type, session));
        const letter = await harness.deadLetterFor(id);
        expect(letter.body.payload).toMatchObject({ service: options.service, reason });
        const before = await harness.processed(channel, type);
        const after = `after-${newMessageId().slice(0, 8)}`;
        await harness.publishRaw(channel, after, encoder.encode(JSON.stringify(harness.example(type, after))));
        await harness.waitProcessed(channel, type, before + 1);
      });
    });

    extend?.(harness);

    describe('output', () => {
      it('publishes only messages that validate against libs/contracts, each with its id as Nats-Msg-Id', () => {
        const emitted = harness.emitted();
        expect(emitted.length).toBeGreaterThan(0);
        for (const message of emitted) {
          const result = validateMessage(message.body);
          expect({ subject: message.subject, ...(result.ok ? { ok: true } : { ok: false, detail: result.detail }) }).toEqual({
            subject: message.subject,
            ok: true,
          });
          expect({ subject: message.subject, type: message.body.type, msgId: message.headers['Nats-Msg-Id'] }).toEqual({
            subject: message.subject,
            type: message.body.type,
            msgId: message.body.id,
          });
        }
      });
    });
  });
}
