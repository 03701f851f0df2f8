// The OpenTelemetry side of MessageTracer. Loaded only when tracing is on (createMessageTracer imports
// this module dynamically), so that a service without OTEL_EXPORTER_OTLP_ENDPOINT loads no SDK.
import { context, ROOT_CONTEXT, SpanKind, SpanStatusCode, trace, TraceFlags, type Context, type Link, type Span, type SpanContext } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { OTLPTraceExporter as JsonExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { OTLPTraceExporter as ProtobufExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { AlwaysOffSampler, AlwaysOnSampler, BatchSpanProcessor, RandomIdGenerator, TraceIdRatioBasedSampler, TracerProvider, type IdGenerator, type SpanExporter } from '@opentelemetry/sdk-trace';
import type { MessagePlace, MessageTracer, TracedMessage } from './message-tracer.js';
import { handlingSpanName, publishingSpanName } from './span-names.js';
import { otelTraceId, publishSpanId } from './trace-ids.js';
import type { TracingSettings } from './tracing-settings.js';

export interface OtelTracerOptions {
  settings: Extract<TracingSettings, { enabled: true }>;
  /** The Warden service (`reviewer`, ...) or `agent`: names the handling spans. */
  service: string;
  /** This replica or agent process, as the resource's `service.instance.id`. */
  instance?: string;
  /** Instead of the OTLP exporter (tests). */
  exporter?: SpanExporter;
}

/**
 * Random ids, except for the one span being started when a fixed id was asked for: the publication of a
 * message (span id from its message id) and a trace's first span (trace id from its `trace_id`).
 * `startSpan` draws its ids synchronously, so the fixed ids are set just before it and cleared after.
 */
class WardenIdGenerator implements IdGenerator {
  private readonly random = new RandomIdGenerator();
  fixedTraceId?: string;
  fixedSpanId?: string;

  generateTraceId(): string {
    return this.fixedTraceId ?? this.random.generateTraceId();
  }

  generateSpanId(): string {
    return this.fixedSpanId ?? this.random.generateSpanId();
  }
}

let contextManagerSet = false;

/** The process's context manager, once: an application's own OpenTelemetry setup keeps its own. */
function ensureContextManager(): void {
  if (contextManagerSet) return;
  contextManagerSet = true;
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
}

/** A parent in another process (or not recorded at all): referred to by its ids, always sampled. */
const remote = (traceId: string, spanId: string): SpanContext => ({ traceId, spanId, traceFlags: TraceFlags.SAMPLED, isRemote: true });

export function createOtelMessageTracer(options: OtelTracerOptions): MessageTracer {
  ensureContextManager();
  const { settings } = options;
  const exporter =
    options.exporter ?? (settings.protocol === 'http/json' ? new JsonExporter({ url: settings.url }) : new ProtobufExporter({ url: settings.url }));
  const ids = new WardenIdGenerator();
  const sampler = settings.sampleRatio >= 1 ? new AlwaysOnSampler() : settings.sampleRatio <= 0 ? new AlwaysOffSampler() : new TraceIdRatioBasedSampler(settings.sampleRatio);
  const provider = new TracerProvider({
    resource: resourceFromAttributes({
      'service.name': settings.serviceName,
      'service.namespace': 'warden',
      ...(options.instance ? { 'service.instance.id': options.instance } : {}),
    }),
    sampler,
    idGenerator: ids,
    spanProcessors: [new BatchSpanProcessor({ exporter, ...settings.batch })],
  });
  const tracer = provider.getTracer('@warden/tracing');
  const handlingName = handlingSpanName(options.service);

  function attributes(message: TracedMessage, place: MessagePlace, operation: 'publish' | 'process') {
    return {
      'messaging.system': 'nats',
      'messaging.operation.type': operation === 'publish' ? 'send' : 'process',
      'messaging.destination.name': place.subject ?? place.channel,
      'messaging.message.id': message.id,
      'warden.channel': place.channel,
      'warden.message.type': message.type,
      'warden.trace_id': message.trace_id,
      ...(message.causation_id ? { 'warden.causation_id': message.causation_id } : {}),
      'warden.session_id': message.session_id,
      'warden.agent_id': message.agent_id,
    };
  }

  /**
   * The publication span of a message. Its parent: the span this code runs in (the handling of the
   * cause) when it is of the same trace; else the cause's publication; else the trace's first message
   * (whose id the trace id is, by default); else none, and it starts the trace. A span of another trace
   * it runs in becomes a link.
   */
  function startPublication(message: TracedMessage, place: MessagePlace): Span {
    const traceId = otelTraceId(message.trace_id);
    const active = trace.getSpan(context.active())?.spanContext();
    const links: Link[] = [];
    let parent: Context;
    if (active && active.traceId === traceId) parent = context.active();
    else {
      if (active && trace.isSpanContextValid(active)) links.push({ context: active });
      const causeId = message.causation_id ?? (message.trace_id !== message.id ? message.trace_id : undefined);
      parent = causeId ? trace.setSpanContext(ROOT_CONTEXT, remote(traceId, publishSpanId(causeId))) : ROOT_CONTEXT;
    }
    ids.fixedTraceId = traceId;
    ids.fixedSpanId = publishSpanId(message.id);
    try {
      return tracer.startSpan(publishingSpanName(message.type), { kind: SpanKind.PRODUCER, attributes: attributes(message, place, 'publish'), links }, parent);
    } finally {
      ids.fixedTraceId = undefined;
      ids.fixedSpanId = undefined;
    }
  }

  async function within<T>(span: Span, work: () => Promise<T>): Promise<T> {
    try {
      return await context.with(trace.setSpan(context.active(), span), work);
    } catch (error) {
      span.recordException(error as Error);
      span.setStatus({ code: SpanStatusCode.ERROR, message: (error as Error).message });
      throw error;
    } finally {
      span.end();
    }
  }

  return {
    enabled: true,
    handle(message, place, work) {
      const traceId = otelTraceId(message.trace_id);
      const parent = trace.setSpanContext(ROOT_CONTEXT, remote(traceId, publishSpanId(message.id)));
      const span = tracer.startSpan(handlingName, { kind: SpanKind.CONSUMER, attributes: attributes(message, place, 'process') }, parent);
      return within(span, work);
    },
    publish(message, place, work) {
      return within(startPublication(message, place), work);
    },
    begin(message, place) {
      const span = startPublication(message, place);
      return (outcome) => {
        if (outcome?.attributes) span.setAttributes(outcome.attributes);
        if (outcome?.error) span.setStatus({ code: SpanStatusCode.ERROR, message: outcome.error });
        span.end();
      };
    },
    flush: () => provider.forceFlush(),
    shutdown: () => provider.shutdown(),
  };
}
