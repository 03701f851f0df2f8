import { ServiceProcess } from '@warden/local-runtime';
import { WardenClient, type AgentSession } from '@warden/sdk';
import { eventually, OtlpReceiver, TestNatsServer, TestPostgres, type ReceivedSpan } from '@warden/testing';
import { createMessageTracer, otelTraceId, publishSpanId, type MessageTracer } from '@warden/tracing';
import { FAST_LEASES, PARTITIONS } from './path-fixture.js';

const PRODUCER = 4;
const CONSUMER = 5;

/**
 * OpenTelemetry traces of one action across the suite, received by a real OTLP/HTTP endpoint in the test:
 * the services (reviewer, gate, audit, pattern detector, intervention controller) are processes with
 * nothing but the standard OTEL_* environment set, exporting protobuf; the agent's SDK in this process
 * exports JSON. An agent keeps running a failing test, so that its third action goes through review, the
 * gate and the decision, is ingested by audit, and its outcome becomes a pattern and an intervention:
 * all of that is one trace, each step the child of the one that caused it.
 */
describe('traces over OTLP', () => {
  let receiver: OtlpReceiver;
  let nats: TestNatsServer;
  let postgres: TestPostgres;
  const services: ServiceProcess[] = [];
  let tracer: MessageTracer;
  let client: WardenClient | undefined;

  beforeAll(async () => {
    receiver = await OtlpReceiver.start();
    nats = await TestNatsServer.start({ partitions: PARTITIONS, agents: ['agent-1'] });
    postgres = await TestPostgres.start();
    const databaseUrl = await postgres.createDatabase('traces');
    const otel = { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint, OTEL_BSP_SCHEDULE_DELAY: '100' };
    for (const app of ['reviewer', 'gate', 'pattern-detector', 'intervention-controller', 'audit']) {
      const env = { ...FAST_LEASES, ...otel, ...(app === 'audit' ? { DATABASE_URL: databaseUrl } : {}) };
      services.push(await ServiceProcess.start({ app, nats: nats.service, partitions: PARTITIONS, env }));
    }
    tracer = await createMessageTracer({ service: 'agent', instance: 'agent-1', env: { ...otel, OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json' } });
  }, 120_000);

  afterAll(async () => {
    await client?.close();
    await tracer?.shutdown();
    await Promise.all(services.map((s) => s.stop()));
    await postgres?.destroy();
    await nats?.stop();
    await receiver?.stop();
  }, 60_000);

  it("puts one action's proposal, review, gate, decision, audit, pattern and intervention in one trace, each span the child of its cause", async () => {
    client = await WardenClient.connect({ servers: nats.url, agentId: 'agent-1', password: nats.agent('agent-1').password, decisionTimeoutMs: 30_000, tracer });
    const session = client.session(`traced-${Date.now().toString(36)}`);
    await session.start({ context: { goal: 'Fix the date parser in src/parser.ts', expected_paths: ['/work/app/**'], cwd: '/work/app' }, phase: 'implementation' });
    for (const id of ['test-1', 'test-2', 'test-3']) await failingTest(session, id);

    const proposalId = client.actionMessageId(session.sessionId, 'test-3');
    const traceId = otelTraceId(proposalId);
    const spans = await eventually(
      'the whole trace of test-3 at the receiver',
      () => receiver.trace(traceId),
      (found) => ['warden.propose', 'warden.review', 'warden.gate', 'warden.decide', 'warden.pattern', 'warden.intervention', 'warden.publish intervention.issued'].every((n) => found.some((s) => s.name === n)) &&
        found.filter((s) => s.name === 'warden.audit.ingest').length >= 4 &&
        // Each process exports its spans in its own batches: the detector's handling of the outcome can reach
        // the receiver after the controller's spans that follow from it.
        found.some((s) => s.name === 'warden.pattern' && found.some((o) => o.name === 'warden.publish action.outcome' && s.parentSpanId === o.spanId)),
    );
    const service = (s: ReceivedSpan) => s.resource['service.name'];
    const one = (name: string, where: (s: ReceivedSpan) => boolean = () => true) => {
      const found = spans.filter((s) => s.name === name && where(s));
      expect({ name, count: found.length }).toEqual({ name, count: 1 });
      return found[0]!;
    };
    const message = (type: string) => (s: ReceivedSpan) => s.attributes['warden.message.type'] === type;
    const childOf = (parent: ReceivedSpan) => (s: ReceivedSpan) => s.parentSpanId === parent.spanId;

    // The agent's proposal starts the trace, with the span id its message id gives, and lasts until the decision.
    const propose = one('warden.propose');
    expect({ service: service(propose), kind: propose.kind, parent: propose.parentSpanId, spanId: propose.spanId, decision: propose.attributes['warden.decision'] }).toEqual({
      service: 'warden-agent',
      kind: PRODUCER,
      parent: '',
      spanId: publishSpanId(proposalId),
      decision: 'allow',
    });
    expect(propose.attributes['messaging.message.id']).toBe(proposalId);

    // reviewer: the review is the proposal's child, and publishes the verdict.
    const review = one('warden.review', childOf(propose));
    expect({ service: service(review), kind: review.kind }).toEqual({ service: 'warden-reviewer', kind: CONSUMER });
    const verdict = one('warden.publish review.verdict', childOf(review));
    expect(service(verdict)).toBe('warden-reviewer');

    // gate: handles the verdict and decides; the decision reaches the agent, whose proposal span ends once
    // it has it (possibly before JetStream's answer to the gate ends the gate's publication).
    const gate = one('warden.gate', (s) => childOf(verdict)(s) && message('review.verdict')(s));
    expect({ service: service(gate), kind: gate.kind }).toEqual({ service: 'warden-gate', kind: CONSUMER });
    const decide = one('warden.decide', childOf(gate));
    expect({ service: service(decide), kind: decide.kind }).toEqual({ service: 'warden-gate', kind: PRODUCER });
    expect(propose.endTimeUnixNano).toBeGreaterThan(decide.startTimeUnixNano);

    // audit: every one of these messages ingested, each ingest the child of its message's publication.
    for (const published of [propose, verdict, decide]) {
      const ingest = one('warden.audit.ingest', childOf(published));
      expect({ service: service(ingest), kind: ingest.kind }).toEqual({ service: 'warden-audit', kind: CONSUMER });
    }

    // The outcome the agent reports joins the trace of its action, under the proposal.
    const outcome = one('warden.publish action.outcome', childOf(propose));
    expect(service(outcome)).toBe('warden-agent');
    one('warden.audit.ingest', childOf(outcome));

    // pattern detector: the third failure is a pattern, detected while handling it.
    const pattern = one('warden.pattern', (s) => childOf(outcome)(s));
    expect(service(pattern)).toBe('warden-pattern-detector');
    const detected = one('warden.publish pattern.detected', childOf(pattern));

    // intervention controller: answers the pattern with an intervention. On a loaded machine the pattern's
    // first publication can time out; the detector then publishes it again from the session's stored outbox
    // while handling a later message, and the controller handles that publication: a child of either.
    const detections = spans.filter((s) => s.name === 'warden.publish pattern.detected' && s.attributes['messaging.message.id'] === detected.attributes['messaging.message.id']);
    const intervention = one('warden.intervention', (s) => detections.some((d) => childOf(d)(s)));
    expect(service(intervention)).toBe('warden-intervention-controller');
    const issued = one('warden.publish intervention.issued');
    expect(ancestors(spans, issued)).toContain(intervention.spanId);

    // The trace is whole: every parent a span names is a span of the trace, down from the proposal.
    const ids = new Set(spans.map((s) => s.spanId));
    expect(spans.filter((s) => s.parentSpanId && !ids.has(s.parentSpanId)).map((s) => `${s.name} (${service(s)})`)).toEqual([]);
    expect(spans.filter((s) => !s.parentSpanId).map((s) => s.name)).toEqual(['warden.propose']);
    // The services sent protobuf, the agent JSON: both encodings of OTLP/HTTP arrived.
    expect(receiver.requests).toMatchObject({ 'application/x-protobuf': expect.any(Number), 'application/json': expect.any(Number) });
  });

  /** An allowed test run that fails, reported as the agent would. */
  async function failingTest(session: AgentSession, actionId: string): Promise<void> {
    const decision = await session.propose({ actionId, tool: 'Bash', input: { command: 'npm test -- parser' } });
    expect(decision).toMatchObject({ allowed: true });
    await session.report({ actionId, tool: 'Bash', status: 'error', durationMs: 1200, error: { message: "src/parser.ts(2,25): error TS1005: ')' expected.", class: 'TS1005' } });
  }
});

/** The span ids above a span, nearest first. */
function ancestors(spans: ReceivedSpan[], span: ReceivedSpan): string[] {
  const byId = new Map(spans.map((s) => [s.spanId, s]));
  const out: string[] = [];
  for (let parent = byId.get(span.parentSpanId); parent; parent = byId.get(parent.parentSpanId)) out.push(parent.spanId);
  return out;
}
