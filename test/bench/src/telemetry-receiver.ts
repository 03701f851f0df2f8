// The agents' telemetry receiver (apps/gateway, POST /v1/metrics and /v1/logs), measured on its own:
//   node test/bench/dist/telemetry-receiver.js [--exports N] [--calls N] [--rate N]
// 1. In process: the CPU one export of 100 data points costs the receiver (decode, the usage per session,
//    the usage.reported messages validated), OTLP/JSON and protobuf, against the target of 1 ms.
// 2. Through the running gateway: its CPU per export (process CPU over many exports), and the HTTP hook's
//    PreToolUse latency with and without a steady export stream beside it: decisions must not slow down.
import { randomBytes } from 'node:crypto';
import { Agent, request } from 'node:http';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { createMessage, validateMessage } from '@warden/contracts';
import { WORKSPACE_ROOT } from '@warden/local-runtime';
import { decodeExportRequest, encodeExportRequest, usageFromLogs, usageFromMetrics, type LogsRequest, type MetricsRequest } from '@warden/telemetry';
import { cpuSeconds } from './cpu.js';
import { BenchEnvironment } from './environment.js';
import { Samples, type LatencySummary } from './stats.js';

const TARGET_CPU_MS = 1;
const POINTS = 100;

const str = (key: string, value: string) => ({ key, value: { stringValue: value } });
const int = (key: string, value: number) => ({ key, value: { intValue: String(value) } });

/** 100 claude_code.api_request events of one session (a Claude Code process exports its own), in Claude Code's documented shape; export `n` of session n % 10. */
function logsExport(run: string, n: number): LogsRequest {
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
function metricsExport(run: string, n: number): MetricsRequest {
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

/** CPU milliseconds per call of `work`, over `count` calls after a warm-up, in this process. */
function cpuPerCall(count: number, work: (i: number) => void): number {
  for (let i = 0; i < Math.min(200, count); i++) work(-1 - i);
  const before = process.cpuUsage();
  for (let i = 0; i < count; i++) work(i);
  const used = process.cpuUsage(before);
  return (used.user + used.system) / 1000 / count;
}

/** What the gateway does with an export before publishing: decode, read the usage, build and validate each session's message. */
function receive(signal: 'logs' | 'metrics', encoding: 'json' | 'protobuf', body: Uint8Array): number {
  const reading = signal === 'logs' ? usageFromLogs(decodeExportRequest('logs', encoding, body)) : usageFromMetrics(decodeExportRequest('metrics', encoding, body));
  for (const session of reading.sessions) {
    const message = createMessage('usage.reported', { agent_id: 'claude-code', session_id: session.sessionId, payload: { source: session.source, agent_kind: session.agentKind, entries: session.entries } });
    if (!validateMessage(message).ok) throw new Error('an invalid usage.reported');
  }
  return reading.used;
}

function post(agent: Agent, url: URL, headers: Record<string, string>, body: string | Uint8Array): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ agent, host: url.hostname, port: url.port, path: url.pathname, method: 'POST', headers: { ...headers, 'content-length': Buffer.byteLength(body) } }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (d) => (text += d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

async function hookLatency(gatewayUrl: string, authorization: string, run: string, label: string, calls: number): Promise<LatencySummary> {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const url = new URL(`${gatewayUrl}/hooks/claude-code`);
  const samples = new Samples();
  for (let i = 0; i < calls + 50; i++) {
    const body = JSON.stringify({ session_id: `hooks-${run}-${label}`, transcript_path: '/work/app/none.jsonl', cwd: '/work/app', hook_event_name: 'PreToolUse', permission_mode: 'default', tool_name: 'Read', tool_input: { file_path: `/work/app/src/f${i % 50}.ts` }, tool_use_id: `toolu_${run}${label}${i}` });
    const started = performance.now();
    const answer = await post(agent, url, { 'content-type': 'application/json', authorization }, body);
    if (answer.status !== 200) throw new Error(`the hook answered ${answer.status} ${answer.body}`);
    if (i >= 50) samples.add(performance.now() - started);
  }
  agent.destroy();
  return samples.summary();
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { exports: { type: 'string', default: '2000' }, calls: { type: 'string', default: '1000' }, rate: { type: 'string', default: '20' } } });
  const exports = Number(values.exports);
  const calls = Number(values.calls);
  const rate = Number(values.rate);
  const run = randomBytes(3).toString('hex');
  const results: Record<string, unknown> = { schema: 'warden-bench-telemetry/1', startedAt: new Date().toISOString(), parameters: { exports, calls, rate, points: POINTS } };

  // 1. In process.
  const logs = Array.from({ length: 10 }, (_, n) => logsExport(run, n));
  const metrics = Array.from({ length: 10 }, (_, n) => metricsExport(run, n));
  const bodies = {
    'logs json': logs.map((r) => new TextEncoder().encode(JSON.stringify(r))),
    'logs protobuf': logs.map((r) => encodeExportRequest('logs', r)),
    'metrics json': metrics.map((r) => new TextEncoder().encode(JSON.stringify(r))),
    'metrics protobuf': metrics.map((r) => encodeExportRequest('metrics', r)),
  };
  const inProcess: Record<string, { cpuMsPerExport: number; bytes: number; met: boolean }> = {};
  for (const [name, list] of Object.entries(bodies)) {
    const [signal, encoding] = name.split(' ') as ['logs' | 'metrics', 'json' | 'protobuf'];
    const used = receive(signal, encoding, list[0]!);
    if (used !== POINTS && signal === 'logs') throw new Error(`${name}: ${used} of ${POINTS} points read`);
    const cpu = cpuPerCall(exports, (i) => receive(signal, encoding, list[Math.abs(i) % list.length]!));
    inProcess[name] = { cpuMsPerExport: cpu, bytes: list[0]!.byteLength, met: cpu <= TARGET_CPU_MS };
  }
  results.inProcess = inProcess;

  // 2. Through the gateway, beside the decision path.
  const env = new BenchEnvironment({ partitions: 8, agents: 1, logDir: join(WORKSPACE_ROOT, 'test/bench/results/logs-telemetry') });
  try {
    await env.startNats();
    await env.provision();
    for (const app of ['reviewer', 'gate', 'breaker']) await env.startService(app);
    const gateway = await env.startService('gateway');
    const { agentId, password } = env.agent(0);
    const authorization = `Bearer ${agentId}.${password}`;
    const quiet = await hookLatency(gateway.url, authorization, run, 'quiet', calls);
    // A steady stream of exports (protobuf, 100 points each) at `rate` per second while the hooks run again.
    const agent = new Agent({ keepAlive: true, maxSockets: 4 });
    const logsUrl = new URL(`${gateway.url}/v1/logs`);
    let streaming = true;
    let sent = 0;
    const cpuBefore = cpuSeconds(gateway.pid!)!;
    const stream = (async () => {
      const started = performance.now();
      while (streaming) {
        const body = encodeExportRequest('logs', logsExport(`${run}s`, sent));
        const answer = await post(agent, logsUrl, { 'content-type': 'application/x-protobuf', authorization }, body);
        if (answer.status !== 200) throw new Error(`the receiver answered ${answer.status} ${answer.body}`);
        sent++;
        const due = started + (sent * 1000) / rate;
        const wait = due - performance.now();
        if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      }
    })();
    const streamStarted = performance.now();
    const loaded = await hookLatency(gateway.url, authorization, run, 'loaded', calls);
    streaming = false;
    await stream;
    const seconds = (performance.now() - streamStarted) / 1000;
    // The gateway's CPU over the loaded run covers the hooks too: per export, what it used beyond the quiet run's rate.
    const cpuAfter = cpuSeconds(gateway.pid!)!;
    agent.destroy();
    results.gateway = {
      exportsSent: sent,
      exportsPerSecond: sent / seconds,
      gatewayCpuSecondsDuringStream: cpuAfter - cpuBefore,
      hookQuiet: quiet,
      hookWithExports: loaded,
      p50RatioLoadedToQuiet: loaded.p50 / quiet.p50,
      p99RatioLoadedToQuiet: loaded.p99 / quiet.p99,
    };
    // The receiver's own cost through HTTP: exports alone, as fast as one client sends them.
    const only = new Agent({ keepAlive: true, maxSockets: 1 });
    const cpuStart = cpuSeconds(gateway.pid!)!;
    const burst = 500;
    const wallStart = performance.now();
    for (let i = 0; i < burst; i++) {
      const answer = await post(only, logsUrl, { 'content-type': 'application/x-protobuf', authorization }, encodeExportRequest('logs', logsExport(`${run}b`, i)));
      if (answer.status !== 200) throw new Error(`the receiver answered ${answer.status}`);
    }
    only.destroy();
    (results.gateway as Record<string, unknown>).exportOnly = {
      exports: burst,
      gatewayCpuMsPerExport: ((cpuSeconds(gateway.pid!)! - cpuStart) * 1000) / burst,
      wallMsPerExport: (performance.now() - wallStart) / burst,
    };
  } finally {
    await env.stop();
  }

  results.finishedAt = new Date().toISOString();
  const outDir = join(WORKSPACE_ROOT, 'test/bench/results');
  mkdirSync(outDir, { recursive: true });
  const file = join(outDir, `bench-telemetry-${String(results.startedAt).replace(/[:.]/g, '-')}.json`);
  writeFileSync(file, `${JSON.stringify(results, null, 2)}\n`);
  const g = results.gateway as { exportsPerSecond: number; hookQuiet: LatencySummary; hookWithExports: LatencySummary; exportOnly: { gatewayCpuMsPerExport: number; wallMsPerExport: number } };
  const lines = [
    `T: the telemetry receiver, one export of ${POINTS} data points (target: ≤ ${TARGET_CPU_MS} ms of CPU)`,
    ...Object.entries(inProcess).map(([name, f]) => `T:   in process, ${name} (${f.bytes} bytes): ${f.cpuMsPerExport.toFixed(3)} ms CPU per export (${f.met ? 'met' : 'NOT met'})`),
    `T:   through the gateway (HTTP, protobuf, published to JetStream): ${g.exportOnly.gatewayCpuMsPerExport.toFixed(3)} ms of the gateway's CPU and ${g.exportOnly.wallMsPerExport.toFixed(2)} ms wall per export`,
    `T: the HTTP hook's PreToolUse p50 ${g.hookQuiet.p50.toFixed(2)} ms, p99 ${g.hookQuiet.p99.toFixed(2)} ms alone; p50 ${g.hookWithExports.p50.toFixed(2)} ms, p99 ${g.hookWithExports.p99.toFixed(2)} ms beside ${g.exportsPerSecond.toFixed(1)} exports/s of ${POINTS} points`,
    `Results: ${file}`,
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
}

main().then(
  () => process.exit(0),
  (error: Error) => {
    process.stderr.write(`${error.stack ?? error.message}\n`);
    process.exit(1);
  },
);
