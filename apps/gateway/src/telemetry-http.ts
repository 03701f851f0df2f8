import type { IncomingMessage, ServerResponse } from 'node:http';
import { gunzip } from 'node:zlib';
import { encodingOf, type Signal } from '@warden/telemetry';
import type { TelemetryReceiver } from './telemetry-receiver.js';

/** Where agents export their telemetry: OTLP/HTTP's paths under the gateway's URL (`OTEL_EXPORTER_OTLP_ENDPOINT`). */
export const TELEMETRY_PATHS: Readonly<Record<string, Signal>> = { '/v1/metrics': 'metrics', '/v1/logs': 'logs' };

function send(res: ServerResponse, status: number, contentType: string, body: string | Uint8Array): void {
  res.writeHead(status, { 'content-type': contentType, 'content-length': typeof body === 'string' ? Buffer.byteLength(body) : body.byteLength }).end(body);
}

/** An error as OTLP/HTTP answers it: a google.rpc.Status-like JSON body with the reason (exporters log it). */
const refuse = (res: ServerResponse, status: number, message: string) => send(res, status, 'application/json', JSON.stringify({ code: status, message, error: message }));

/**
 * OTLP/HTTP `POST /v1/metrics` and `/v1/logs` (https://opentelemetry.io/docs/specs/otlp/#otlphttp):
 * binary protobuf (`application/x-protobuf`) or JSON (`application/json`), optionally gzip-compressed
 * (`Content-Encoding: gzip`), with the agent's token in `Authorization: Bearer`. A body larger than
 * `maxBodyBytes` (compressed or not) is refused with 413, another content type with 415, a body gzip
 * cannot read with 400; the rest is the receiver's.
 */
export function telemetryRequestHandler(receiver: TelemetryReceiver, maxBodyBytes: number) {
  return (req: IncomingMessage, res: ServerResponse): void => {
    const path = (req.url ?? '').split('?')[0]!;
    const signal = TELEMETRY_PATHS[path];
    if (!signal) {
      refuse(res, 404, `no telemetry endpoint at ${path}: agents export to ${Object.keys(TELEMETRY_PATHS).join(' and ')}`);
      req.resume();
      return;
    }
    if (req.method !== 'POST') {
      refuse(res, 405, `${req.method} is not allowed: OTLP/HTTP exporters POST to ${path}`);
      req.resume();
      return;
    }
    const encoding = encodingOf(req.headers['content-type']);
    if (!encoding) {
      refuse(res, 415, `content type ${JSON.stringify(req.headers['content-type'] ?? '')} is not OTLP/HTTP: send application/x-protobuf or application/json`);
      req.resume();
      return;
    }
    const contentEncoding = (req.headers['content-encoding'] ?? 'identity').toLowerCase();
    if (contentEncoding !== 'identity' && contentEncoding !== 'gzip') {
      refuse(res, 415, `content encoding ${contentEncoding} is not read: send the body as it is or gzip-compressed`);
      req.resume();
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    let refused = false;
    req.on('data', (chunk: Buffer) => {
      if (refused) return;
      size += chunk.length;
      if (size > maxBodyBytes) {
        refused = true;
        refuse(res, 413, `the export is larger than ${maxBodyBytes} bytes (GATEWAY_OTLP_MAX_BODY_BYTES): export in smaller batches`);
        req.resume();
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => {
      if (refused) return;
      const handle = (body: Buffer) =>
        receiver.receive({ signal, encoding, authorization: req.headers.authorization, body }).then(
          (reply) => (reply.status === 200 ? send(res, 200, reply.contentType, reply.body) : refuse(res, reply.status, reply.error)),
          (error: Error) => refuse(res, 500, `the gateway failed: ${error.message}`),
        );
      const raw = Buffer.concat(chunks);
      if (contentEncoding !== 'gzip') {
        void handle(raw);
        return;
      }
      gunzip(raw, { maxOutputLength: maxBodyBytes }, (error, body) => {
        if (!error) return void handle(body);
        if (error instanceof RangeError || (error as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE') refuse(res, 413, `the export is larger than ${maxBodyBytes} bytes once decompressed (GATEWAY_OTLP_MAX_BODY_BYTES)`);
        else refuse(res, 400, `the body is not gzip-compressed as Content-Encoding says (${error.message})`);
      });
    });
  };
}
