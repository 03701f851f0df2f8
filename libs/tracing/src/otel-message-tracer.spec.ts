import { SpanKind, SpanStatusCode } from '@opentelemetry/api';
import { InMemorySpanExporter, type ReadableSpan } from '@opentelemetry/sdk-trace';
import type { MessageTracer, TracedMessage } from './message-tracer.js';
import { createOtelMessageTracer } from './otel-message-tracer.js';
import { otelTraceId, publishSpanId } from './trace-ids.js';
import type { TracingSettings } from './tracing-settings.js';

const settings: Extract<TracingSettings, { enabled: true }> = { enabled: true, url: 'http://127.0.0.1:9/v1/traces', protocol: 'http/protobuf', serviceName: 'test', sampleRatio: 1, batch: {} };

/** A service's tracer whose spans are kept in memory (the exporter is not what is tested here). */
function tracerOf(service: string, ratio = 1): { tracer: MessageTracer; spans: () => Promise<ReadableSpan[]> } {
  const exporter = new InMemorySpanExporter();
  const tracer = createOtelMessageTracer({ settings: { ...settings, serviceName: `warden-${service}`, sampleRatio: ratio }, service, instance: `${service}-0`, exporter });
  return {
    tracer,
    spans: async () => {
      await tracer.flush();
      return exporter.getFinishedSpans();
    },
  };
}

const proposal: TracedMessage = { id: 'p-1', type: 'action.proposed', trace_id: 'p-1', session_id: 's-1', agent_id: 'agent-1' };
const verdict: TracedMessage = { id: 'v-1', type: 'review.verdict', trace_id: 'p-1', causation_id: 'p-1', session_id: 's-1', agent_id: 'agent-1' };
const decision: TracedMessage = { id: 'd-1', type: 'decision.made', trace_id: 'p-1', causation_id: 'v-1', session_id: 's-1', agent_id: 'agent-1' };
const outcome: TracedMessage = { id: 'o-1', type: 'action.outcome', trace_id: 'p-1', session_id: 's-1', agent_id: 'agent-1' };
const parentOf = (span: ReadableSpan) => span.parentSpanContext?.spanId ?? '';

describe('the OpenTelemetry message tracer', () => {
  const traceId = otelTraceId('p-1');

  it("starts the trace at the proposal, whose span id is the proposal's, and ends the span when told", async () => {
    const agent = tracerOf('agent');
    const end = agent.tracer.begin(proposal, { channel: 'action', subject: 'warden.action.agent-1.s-1' });
    end({ attributes: { 'warden.decision': 'allow' } });
    const [span] = await agent.spans();
    expect({ name: span!.name, kind: span!.kind, traceId: span!.spanContext().traceId, spanId: span!.spanContext().spanId, parent: parentOf(span!) }).toEqual({
      name: 'warden.propose',
      kind: SpanKind.PRODUCER,
      traceId,
      spanId: publishSpanId('p-1'),
      parent: '',
    });
    expect(span!.attributes).toMatchObject({ 'messaging.system': 'nats', 'messaging.destination.name': 'warden.action.agent-1.s-1', 'messaging.message.id': 'p-1', 'warden.message.type': 'action.proposed', 'warden.decision': 'allow' });
    expect(span!.resource.attributes).toMatchObject({ 'service.name': 'warden-agent', 'service.instance.id': 'agent-0' });
  });

  it('makes the handling a child of the publication, and what the handler publishes a child of the handling', async () => {
    const reviewer = tracerOf('reviewer');
    await reviewer.tracer.handle(proposal, { channel: 'action' }, () => reviewer.tracer.publish(verdict, { channel: 'verdict' }, async () => undefined));
    const spans = await reviewer.spans();
    const review = spans.find((s) => s.name === 'warden.review')!;
    const published = spans.find((s) => s.name === 'warden.publish review.verdict')!;
    expect(review.kind).toBe(SpanKind.CONSUMER);
    expect(review.spanContext().traceId).toBe(traceId);
    expect(parentOf(review)).toBe(publishSpanId('p-1'));
    expect(published.spanContext()).toMatchObject({ traceId, spanId: publishSpanId('v-1') });
    expect(parentOf(published)).toBe(review.spanContext().spanId);
  });

  it('parents a publication outside any handler on its cause, or on the first message of its trace', async () => {
    const gate = tracerOf('gate');
    await gate.tracer.publish(decision, { channel: 'decision' }, async () => undefined);
    await gate.tracer.publish(outcome, { channel: 'action' }, async () => undefined);
    const [decide, reported] = await gate.spans();
    expect({ name: decide!.name, traceId: decide!.spanContext().traceId, parent: parentOf(decide!) }).toEqual({ name: 'warden.decide', traceId, parent: publishSpanId('v-1') });
    expect({ traceId: reported!.spanContext().traceId, parent: parentOf(reported!) }).toEqual({ traceId, parent: publishSpanId('p-1') });
  });

  it('links, rather than parents, a publication of another trace made while handling a message', async () => {
    const controller = tracerOf('intervention-controller');
    const other: TracedMessage = { id: 'c-1', type: 'control.issued', trace_id: 'c-1', session_id: 's-1', agent_id: 'agent-1' };
    await controller.tracer.handle(verdict, { channel: 'verdict' }, () => controller.tracer.publish(other, { channel: 'control' }, async () => undefined));
    const spans = await controller.spans();
    const handling = spans.find((s) => s.name === 'warden.intervention')!;
    const control = spans.find((s) => s.name === 'warden.publish control.issued')!;
    expect(control.spanContext().traceId).toBe(otelTraceId('c-1'));
    expect(parentOf(control)).toBe('');
    expect(control.links.map((l) => l.context.spanId)).toEqual([handling.spanContext().spanId]);
  });

  it('marks a failed handling as an error, and passes the failure on', async () => {
    const audit = tracerOf('audit');
    await expect(audit.tracer.handle(verdict, { channel: 'verdict' }, () => Promise.reject(new Error('database down')))).rejects.toThrow('database down');
    const [span] = await audit.spans();
    expect({ name: span!.name, status: span!.status }).toEqual({ name: 'warden.audit.ingest', status: { code: SpanStatusCode.ERROR, message: 'database down' } });
    expect(span!.events.map((e) => e.name)).toEqual(['exception']);
  });

  it('keeps or drops a whole trace by its id, the same in every service', async () => {
    const keep = [tracerOf('reviewer', 0.5), tracerOf('gate', 0.5)];
    const ids = Array.from({ length: 40 }, (_, i) => `trace-${i}`);
    for (const { tracer } of keep) for (const id of ids) await tracer.handle({ ...verdict, id: `${id}-v`, trace_id: id }, { channel: 'verdict' }, async () => undefined);
    const [reviewed, gated] = await Promise.all(keep.map((k) => k.spans()));
    const traces = (spans: ReadableSpan[]) => spans.map((s) => s.spanContext().traceId).sort();
    expect(traces(reviewed!)).toEqual(traces(gated!));
    expect(reviewed!.length).toBeGreaterThan(5);
    expect(reviewed!.length).toBeLessThan(35);
  });
});
