import { validateMessage } from '@warden/contracts';
import { usageMessages } from '@warden/gateway/in-process';
import { readUsage, type Encoding, type LogsRequest, type MetricsRequest, type Signal } from '@warden/telemetry';

/** Data points (log records or metric points) in one export. */
export const POINTS = 100;

const str = (key: string, value: string) => ({ key, value: { stringValue: value } });
const int = (key: string, value: number) => ({ key, value: { intValue: String(value) } });

/** 100 claude_code.api_request events of one session (a Claude Code process exports its own), in Claude Code's documented shape; export `n` of session n % 10. */
export function logsExport(run: string, n: number): LogsRequest {
  const now = Date.now();
  return {
    resourceLogs: [
      {
        resource: { attributes: [str('service.name', 'claude-code'), str('service.version', '2.1.300')] },
        scopeLogs: [
          {
            scope: { name: 'com.anthropic.claude_code.events' },
            logRecords: Array.from({ length: POINTS }, (_, i) => ({
              timeUnixNano: `${now + i}000000`,
              body: { stringValue: 'claude_code.api_request' },
              attributes: [
                str('event.name', 'api_request'),
                str('event.timestamp', new Date(now + i).toISOString()),
                int('event.sequence', i),
                str('session.id', `bench-${run}-${n % 10}`),
                str('prompt.id', '550e8400-e29b-41d4-a716-446655440000'),
                str('user.id', 'f3a2'),
                str('terminal.type', 'tmux'),
                str('model', 'claude-sonnet-4-6'),
                { key: 'cost_usd', value: { doubleValue: 0.0001 } },
                int('input_tokens', 1834),
                int('output_tokens', 212),
                int('cache_read_tokens', 40211),
                int('cache_creation_tokens', 0),
                str('request_id', `req_${run}_${n}_${i}`),
                str('query_source', 'repl_main_thread'),
              ],
            })),
          },
        ],
      },
    ],
  };
}

/** 100 points of claude_code.cost.usage and claude_code.token.usage of one session: 20 series (model and attribution) of 5 points. */
export function metricsExport(run: string, n: number): MetricsRequest {
  const end = Date.now() + n;
  const point = (session: number, value: Record<string, unknown>, extra: { key: string; value: { stringValue: string } }[] = []) => ({
    ...value,
    startTimeUnixNano: `${end - 60_000}000000`,
    timeUnixNano: `${end}000000`,
    attributes: [str('session.id', `bench-${run}-m${n % 10}`), str('model', 'claude-sonnet-4-6'), str('query_source', 'main'), str('agent.name', `series-${session}`), ...extra],
  });
  const sessions = Array.from({ length: 20 }, (_, s) => s);
  return {
    resourceMetrics: [
      {
        resource: { attributes: [str('service.name', 'claude-code')] },
        scopeMetrics: [
          {
            scope: { name: 'com.anthropic.claude_code' },
            metrics: [
              { name: 'claude_code.cost.usage', unit: 'USD', sum: { aggregationTemporality: 1, isMonotonic: true, dataPoints: sessions.map((s) => point(s, { asDouble: 0.001 })) } },
              {
                name: 'claude_code.token.usage',
                unit: 'tokens',
                sum: { aggregationTemporality: 1, isMonotonic: true, dataPoints: sessions.flatMap((s) => ['input', 'output', 'cacheRead', 'cacheCreation'].map((type) => point(s, { asInt: '1000' }, [str('type', type)]))) },
              },
            ],
          },
        ],
      },
    ],
  };
}

const encoder = new TextEncoder();

/**
 * What the gateway's telemetry receiver does with an export before it publishes, with its own code: read
 * the usage per session, build each session's usage.reported messages, validate and serialise them as the
 * agent's client does before it publishes. Returns the data points taken as usage.
 */
export function receiveExport(signal: Signal, encoding: Encoding, body: Uint8Array): number {
  const reading = readUsage(signal, encoding, body);
  for (const session of reading.sessions) {
    for (const message of usageMessages('bench-agent', session)) {
      if (!validateMessage(message).ok) throw new Error('an invalid usage.reported');
      encoder.encode(JSON.stringify(message));
    }
  }
  return reading.used;
}
