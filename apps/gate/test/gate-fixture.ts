import {
  EXAMPLE_PAYLOADS,
  createMessage,
  newMessageId,
  OPERATOR_ID_HEADER,
  publishSubject,
  type MessageOf,
  type PayloadOf,
} from '@warden/contracts';
import { BusConnection } from '@warden/messaging';
import { BusRecorder, operatorToken, startInProcess, TestNatsServer, type InProcessService, type RecordedMessage } from '@warden/testing';
import { GateAppModule } from '../src/app.module.js';
import { loadGateConfig } from '../src/config.js';

export const AGENT = 'agent-1';
/** An approver, the operator of every call unless a test says otherwise. */
export const OPERATOR = 'operator-xander';
/** A viewer: may read, never change anything. */
export const VIEWER = 'viewer-vera';
const encoder = new TextEncoder();

export interface GateResponse {
  status: number;
  body: Record<string, any>;
}

/** A real nats-server, gate replicas in this process, and a recorder of everything on `warden.>`. */
export class GateFixture {
  readonly gates: InProcessService[] = [];
  /** The replica reads (views) go to. */
  reader = 0;
  private sequence = 0;
  /** API tokens of the fixture's operators. */
  readonly tokens: Record<string, string> = {};

  private constructor(
    readonly nats: TestNatsServer,
    readonly bus: BusConnection,
    readonly recorder: BusRecorder,
    private readonly env: NodeJS.ProcessEnv,
  ) {}

  static async start(env: NodeJS.ProcessEnv = {}, replicas = 1): Promise<GateFixture> {
    const nats = await TestNatsServer.start({ partitions: 4 });
    const bus = await BusConnection.open(nats.service);
    const recorder = await BusRecorder.start(bus.nc, 'warden.>');
    const fixture = new GateFixture(nats, bus, recorder, {
      NATS_URL: nats.url,
      NATS_USER: nats.service.user,
      NATS_PASSWORD: nats.service.password,
      WARDEN_PARTITIONS: String(nats.partitions),
      WARDEN_HEARTBEAT_MS: '200',
      WARDEN_LEASE_MS: '1000',
      HTTP_PORT: '0',
      ...env,
    });
    fixture.tokens[OPERATOR] = await operatorToken(bus.nc, OPERATOR, 'approver');
    fixture.tokens[VIEWER] = await operatorToken(bus.nc, VIEWER, 'viewer');
    for (let i = 0; i < replicas; i++) await fixture.startGate(`gate-${i}`);
    return fixture;
  }

  async startGate(replicaId: string, env: NodeJS.ProcessEnv = {}): Promise<InProcessService> {
    const merged = { ...this.env, WARDEN_REPLICA_ID: replicaId, ...env };
    const gate = await startInProcess('gate', (logger) => GateAppModule.forRoot(loadGateConfig(merged), logger));
    this.gates.push(gate);
    return gate;
  }

  get gate(): InProcessService {
    return this.gates[0]!;
  }

  async stop(): Promise<void> {
    for (const gate of this.gates) await gate.close().catch(() => undefined);
    this.recorder.stop();
    await this.bus.close();
    await this.nats.stop();
  }

  newSession(prefix = 's'): string {
    return `${prefix}-${newMessageId().slice(0, 8)}`;
  }

  /** Publishes a reviewer verdict for an action, as the reviewer would (trace id = the action's id). */
  async verdict(
    sessionId: string,
    payload: Partial<PayloadOf<'review.verdict'>> = {},
    options: { agentId?: string; control?: { hitl_required?: boolean }; actionId?: string } = {},
  ): Promise<MessageOf<'review.verdict'>> {
    const actionId = options.actionId ?? payload.action_id ?? `act-${++this.sequence}-${newMessageId().slice(0, 6)}`;
    const traceId = newMessageId();
    const message = createMessage('review.verdict', {
      session_id: sessionId,
      agent_id: options.agentId ?? AGENT,
      trace_id: traceId,
      causation_id: traceId,
      ...(options.control ? { control: options.control } : {}),
      payload: {
        ...EXAMPLE_PAYLOADS['review.verdict'],
        verdict: 'allow',
        reasons: ['Read: no concerns'],
        risk: { score: 0.1, severity: 'low', factors: ['file_read'] },
        action: { kind: 'tool_use', tool: 'Read', input: { file_path: `/work/app/${actionId}.ts` } },
        side_effects: undefined,
        rule_hits: [],
        validations: undefined,
        ...payload,
        action_id: actionId,
      } as PayloadOf<'review.verdict'>,
    });
    await this.publish(message as MessageOf<'review.verdict'>);
    return message;
  }

  async publish(message: { id: string; type: string; session_id: string; agent_id: string }): Promise<void> {
    const channel = message.type.startsWith('session.') ? 'session' : message.type === 'gate.command' ? 'gate_command' : 'verdict';
    await this.bus.js.publish(publishSubject(channel, message.agent_id, message.session_id), encoder.encode(JSON.stringify(message)), { msgID: message.id });
  }

  async sessionEvent<T extends 'session.started' | 'session.phase_changed' | 'session.ended'>(sessionId: string, type: T, payload: PayloadOf<T>): Promise<void> {
    await this.publish(createMessage(type, { session_id: sessionId, agent_id: AGENT, payload } as never) as MessageOf<T>);
  }

  /**
   * An HTTP call to a gate replica as an operator (`as`, default the approver): their bearer token and
   * the FRD's operator header naming them. `as: null` sends no token, `token` another one, `header`
   * another operator header (null: none); `raw` sends the body as it is.
   */
  async http(
    method: string,
    path: string,
    options: { body?: unknown; raw?: string; as?: string | null; token?: string; header?: string | null; replica?: number } = {},
  ): Promise<GateResponse> {
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    const as = options.as === undefined ? OPERATOR : options.as;
    const token = options.token ?? (as ? this.tokens[as] : undefined);
    if (token) headers.authorization = `Bearer ${token}`;
    const header = options.header === undefined ? as : options.header;
    if (header !== null) headers[OPERATOR_ID_HEADER] = header;
    const response = await fetch(`${this.gates[options.replica ?? 0]!.url}${path}`, {
      method,
      headers,
      ...(options.raw !== undefined ? { body: options.raw } : options.body !== undefined ? { body: JSON.stringify(options.body) } : {}),
    });
    const text = await response.text();
    return { status: response.status, body: text ? (JSON.parse(text) as Record<string, any>) : {} };
  }

  /** A command body with the fields FR-11.4 requires besides those the path and header give. */
  body(fields: Record<string, unknown> = {}): Record<string, unknown> {
    return { agent_id: AGENT, timestamp: new Date().toISOString(), ...fields };
  }

  command(sessionId: string, command: 'pause' | 'unpause' | 'rewrite' | 'inject' | 'approve' | 'reject' | 'rewrite-and-approve' | 'stop', fields: Record<string, unknown> = {}, replica = 0) {
    const defaults = command === 'pause' ? { reason: 'Inspect before it runs' } : {};
    return this.http('POST', `/gateway/sessions/${sessionId}/${command}`, { body: this.body({ ...defaults, ...fields }), replica });
  }

  /** Messages recorded for a session on a channel, in the order the server stored them. */
  on(channel: string, sessionId: string, type?: string): RecordedMessage[] {
    return this.recorder.messages.filter(
      (m) => m.subject.startsWith(`warden.${channel}.`) && m.subject.endsWith(`.${sessionId}`) && (!type || m.body.type === type) && m.subject.split('.').length === 5,
    );
  }

  /** Decisions and control messages sent to the session's agent, in order. */
  toAgent(sessionId: string): RecordedMessage[] {
    return this.recorder.messages.filter(
      (m) => (m.subject.startsWith('warden.decision.') || m.subject.startsWith('warden.control.')) && m.subject.endsWith(`.${sessionId}`),
    );
  }

  waitOn(channel: string, sessionId: string, type: string, count = 1, timeoutMs = 15_000): Promise<RecordedMessage[]> {
    return this.recorder.waitForCount(count, timeoutMs, (m) => m.subject.startsWith(`warden.${channel}.`) && m.subject.endsWith(`.${sessionId}`) && m.body.type === type);
  }

  async waitDecision(sessionId: string, actionId: string, timeoutMs = 15_000): Promise<Record<string, any>> {
    const found = await this.recorder.waitFor(
      (m) => m.subject.startsWith('warden.decision.') && m.subject.endsWith(`.${sessionId}`) && (m.body.payload as { action_id?: string })?.action_id === actionId,
      timeoutMs,
    );
    return found.body as Record<string, any>;
  }

  /** The session as the API shows it. */
  async view(sessionId: string, agentId = AGENT): Promise<Record<string, any>> {
    const response = await this.http('GET', `/gateway/sessions/${sessionId}?agent_id=${agentId}`, { replica: this.reader });
    expect(response.status).toBe(200);
    return response.body;
  }

  /** Waits until the session holds `count` buffered messages. */
  async waitBuffered(sessionId: string, count: number, timeoutMs = 15_000): Promise<Record<string, any>> {
    const deadline = Date.now() + timeoutMs;
    let view = await this.view(sessionId);
    while (view.messages.length < count && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      view = await this.view(sessionId);
    }
    if (view.messages.length < count) throw new Error(`session ${sessionId} holds ${view.messages.length} messages, expected ${count}`);
    return view;
  }

  /** Waits until the gate processed `count` messages of a type on a channel (reading its /metrics). */
  async waitProcessed(channel: string, type: string, count: number, replica = 0, timeoutMs = 15_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    const read = async () => {
      const text = await (await fetch(`${this.gates[replica]!.url}/metrics`)).text();
      const pattern = new RegExp(`^warden_messages_processed_total\\{channel="${channel}",type="${type.replaceAll('.', '\\.')}",[^}]*\\} (\\d+)$`, 'gm');
      let total = 0;
      for (const match of text.matchAll(pattern)) total += Number(match[1]);
      return total;
    };
    while ((await read()) < count) {
      if (Date.now() > deadline) throw new Error(`gate processed ${await read()} ${type}, expected ${count}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
}

