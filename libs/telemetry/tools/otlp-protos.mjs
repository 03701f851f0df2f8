// The OTLP proto files the receiver needs, read with protobuf.js: shared by the descriptor's writer and its test.
import { join } from 'node:path';
import protobuf from 'protobufjs';

export const OTLP_PROTO_FILES = [
  'opentelemetry/proto/collector/metrics/v1/metrics_service.proto',
  'opentelemetry/proto/collector/logs/v1/logs_service.proto',
];

/** The protobuf.js JSON descriptor of the metrics and logs export services, read from `protoDir`. */
export function otlpDescriptorFromProtos(protoDir) {
  const root = new protobuf.Root();
  root.resolvePath = (_origin, target) => join(protoDir, target);
  root.loadSync(OTLP_PROTO_FILES, { keepCase: false });
  root.resolveAll();
  return root.toJSON();
}
