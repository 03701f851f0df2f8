export { usageFromLogs, usageFromMetrics, type SessionUsage, type UsageEntry, type UsageReading } from './agent-usage.js';
export {
  decodeExportRequest,
  encodeExportRequest,
  encodeExportResponse,
  encodingOf,
  OtlpInputError,
  type Encoding,
  type LogsRequest,
  type MetricsRequest,
  type Signal,
} from './otlp-request.js';
