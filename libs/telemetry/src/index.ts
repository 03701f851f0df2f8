export { readUsage, usageFromLogs, usageFromMetrics, USAGE_SCOPE, type SessionUsage, type UsageEntry, type UsageReading, type SessionToolRuns, type ToolRun } from './agent-usage.js';
export type { AttributeValue, Attributes, LogRecordRead, LogsExport, MetricRead, MetricsExport, NumberPointRead, ReadScope } from './otlp-export.js';
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
