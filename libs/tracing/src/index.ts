// Nothing here imports OpenTelemetry's SDK: createMessageTracer loads it when tracing is on.
export * from './trace-ids.js';
export * from './tracing-settings.js';
export * from './message-tracer.js';
export * from './span-names.js';
export * from './create-message-tracer.js';
export type { OtelTracerOptions } from './otel-message-tracer.js';
