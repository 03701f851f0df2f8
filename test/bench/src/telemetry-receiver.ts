// The agents' telemetry receiver (apps/gateway, POST /v1/metrics and /v1/logs), measured on its own:
//   node test/bench/dist/telemetry-receiver.js [options]     (--help says what it measures and how)
import { randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { Session } from 'node:inspector/promises';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { WORKSPACE_ROOT } from '@warden/local-runtime';
import { encodeExportRequest, type Encoding, type Signal } from '@warden/telemetry';
import { cpuSeconds } from './cpu.js';
import { BenchEnvironment } from './environment.js';
import { machineInfo } from './machine.js';
import { UsageError } from './options.js';
import { Samples, type LatencySummary } from './stats.js';
import { logsExport, metricsExport, POINTS, receiveExport } from './telemetry-exports.js';
import { parseTelemetryOptions, TELEMETRY_HELP, type TelemetryBenchOptions } from './telemetry-options.js';

const TARGET_CPU_MS = 1;
const FORMATS = ['logs json', 'logs protobuf', 'metrics json', 'metrics protobuf'] as const;
type Format = (typeof FORMATS)[number];

interface InProcessFigure {
  bytes: number;
  /** CPU ms per export of each run, in order. */
  runs: number[];
  median: number;
  min: number;
  max: number;
  met: boolean;
}

const round3 = (n: number) => Math.round(n * 1000) / 1000;
const load = () => Math.round(loadavg()[0]! * 100) / 100;

/** CPU milliseconds of this process per call of `work`, over `count` calls. */
function cpuPerCall(count: number, work: (i: number) => void): number {
  const before = process.cpuUsage();
  for (let i = 0; i < count; i++) work(i);
  const used = process.cpuUsage(before);
  return (used.user + used.system) / 1000 / count;
}

/** 1. The receiver's own work on an export, in this process, each format in turn in every run. */
async function inProcess(options: TelemetryBenchOptions, run: string): Promise<Record<Format, InProcessFigure>> {
  const logs = Array.from({ length: 10 }, (_, n) => logsExport(run, n));
  const metrics = Array.from({ length: 10 }, (_, n) => metricsExport(run, n));
  const json = (r: unknown) => new TextEncoder().encode(JSON.stringify(r));
  const bodies: Record<Format, Uint8Array[]> = {
    'logs json': logs.map(json),
    'logs protobuf': logs.map((r) => encodeExportRequest('logs', r)),
    'metrics json': metrics.map(json),
    'metrics protobuf': metrics.map((r) => encodeExportRequest('metrics', r)),
  };
  const work = (format: Format) => {
    const [signal, encoding] = format.split(' ') as [Signal, Encoding];
    const list = bodies[format];
    return (i: number) => receiveExport(signal, encoding, list[i % list.length]!);
  };
  for (const format of FORMATS) {
    const used = work(format)(0);
    if (used !== POINTS && format.startsWith('logs')) throw new Error(`${format}: ${used} of ${POINTS} points read`);
    cpuPerCall(Math.min(500, options.exports), work(format));
  }
  const profiler = options.profileDir ? new Session() : undefined;
  if (profiler) {
    profiler.connect();
    await profiler.post('Profiler.enable');
    await profiler.post('Profiler.start');
  }
  const runs = Object.fromEntries(FORMATS.map((f) => [f, [] as number[]])) as Record<Format, number[]>;
  for (let r = 0; r < options.runs; r++) for (const format of FORMATS) runs[format].push(cpuPerCall(options.exports, work(format)));
  if (profiler) {
    const { profile } = await profiler.post('Profiler.stop');
    mkdirSync(options.profileDir!, { recursive: true });
    writeFileSync(join(options.profileDir!, 'telemetry-in-process.cpuprofile'), JSON.stringify(profile));
    profiler.disconnect();
  }
  const figures = {} as Record<Format, InProcessFigure>;
  for (const format of FORMATS) {
    const sorted = [...runs[format]].sort((a, b) => a - b);
    const median = sorted[Math.floor(sorted.length / 2)]!;
    figures[format] = { bytes: bodies[format][0]!.byteLength, runs: runs[format].map(round3), median: round3(median), min: round3(sorted[0]!), max: round3(sorted.at(-1)!), met: median <= TARGET_CPU_MS };
  }
  return figures;
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

const CONTENT_TYPES: Record<Encoding, string> = { json: 'application/json', protobuf: 'application/x-protobuf' };

/** Bodies of `count` logs exports (distinct request ids, so that each is new usage), made before any clock starts. */
function logsBodies(encoding: Encoding, run: string, count: number): Uint8Array[] {
  return Array.from({ length: count }, (_, n) => (encoding === 'json' ? new TextEncoder().encode(JSON.stringify(logsExport(run, n))) : encodeExportRequest('logs', logsExport(run, n))));
}

/** 2. Through the running gateway, beside the decision path. */
async function throughGateway(options: TelemetryBenchOptions, run: string): Promise<Record<string, unknown>> {
  const env = new BenchEnvironment({ partitions: 8, agents: 1, logDir: join(WORKSPACE_ROOT, 'test/bench/results/logs-telemetry'), ...(options.profileDir ? { profileDir: options.profileDir } : {}) });
  try {
    await env.startNats();
    await env.provision();
    for (const app of ['reviewer', 'gate', 'breaker']) await env.startService(app);
    const gateway = await env.startService('gateway');
    const { agentId, password } = env.agent(0);
    const authorization = `Bearer ${agentId}.${password}`;
    const logsUrl = new URL(`${gateway.url}/v1/logs`);
    const quiet = await hookLatency(gateway.url, authorization, run, 'quiet', options.calls);

    // A steady stream of exports (protobuf, 100 points each, each new usage) at `rate` a second while the
    // hooks run again; each body is made while the one before is sent (a fraction of a millisecond each).
    const agent = new Agent({ keepAlive: true, maxSockets: 4 });
    let streaming = true;
    let sent = 0;
    const stream = (async () => {
      const started = performance.now();
      while (streaming) {
        const answer = await post(agent, logsUrl, { 'content-type': CONTENT_TYPES.protobuf, authorization }, encodeExportRequest('logs', logsExport(`${run}s`, sent)));
        if (answer.status !== 200) throw new Error(`the receiver answered ${answer.status} ${answer.body}`);
        sent++;
        const wait = started + (sent * 1000) / options.rate - performance.now();
        if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      }
    })();
    const streamStarted = performance.now();
    const loaded = await hookLatency(gateway.url, authorization, run, 'loaded', options.calls);
    streaming = false;
    await stream;
    const seconds = (performance.now() - streamStarted) / 1000;
    agent.destroy();

    // The gateway's own CPU per export: exports alone, back to back from one client, bodies made beforehand.
    const idleStart = cpuSeconds(gateway.pid!)!;
    await new Promise((resolve) => setTimeout(resolve, 2000));
    const idleCpuPercent = ((cpuSeconds(gateway.pid!)! - idleStart) / 2) * 100;
    const perExport: Record<string, { gatewayCpuMsPerExport: number; wallMsPerExport: number; bytes: number }> = {};
    for (const encoding of ['protobuf', 'json'] as const) {
      const bodies = logsBodies(encoding, `${run}b${encoding}`, options.burst);
      const only = new Agent({ keepAlive: true, maxSockets: 1 });
      const cpuStart = cpuSeconds(gateway.pid!)!;
      const wallStart = performance.now();
      for (const body of bodies) {
        const answer = await post(only, logsUrl, { 'content-type': CONTENT_TYPES[encoding], authorization }, body);
        if (answer.status !== 200) throw new Error(`the receiver answered ${answer.status} ${answer.body}`);
      }
      const wallMs = performance.now() - wallStart;
      only.destroy();
      perExport[`logs ${encoding}`] = { gatewayCpuMsPerExport: round3(((cpuSeconds(gateway.pid!)! - cpuStart) * 1000) / bodies.length), wallMsPerExport: round3(wallMs / bodies.length), bytes: bodies[0]!.byteLength };
    }
    return {
      exportsSent: sent,
      exportsPerSecond: sent / seconds,
      hookQuiet: quiet,
      hookWithExports: loaded,
      p50RatioLoadedToQuiet: loaded.p50 / quiet.p50,
      p99RatioLoadedToQuiet: loaded.p99 / quiet.p99,
      gatewayIdleCpuPercent: Math.round(idleCpuPercent * 100) / 100,
      perExport,
    };
  } finally {
    await env.stop();
  }
}

function report(options: TelemetryBenchOptions, inProcessFigures: Record<Format, InProcessFigure>, gateway: Record<string, unknown> | undefined, loads: [number, number], file: string): string {
  const kb = (bytes: number) => `${(bytes / 1000).toFixed(1)} KB`;
  const lines = [
    `T: the telemetry receiver, one export of ${POINTS} data points: its own CPU in process (target: <= ${TARGET_CPU_MS} ms), median of ${options.runs} run(s) of ${options.exports} [lowest - highest]`,
    ...FORMATS.map((format) => {
      const f = inProcessFigures[format];
      return `T:   ${format.padEnd(17)} (${kb(f.bytes).padStart(7)}): ${f.median.toFixed(3)} ms CPU per export [${f.min.toFixed(3)} - ${f.max.toFixed(3)}]  ${f.met ? 'met' : 'NOT met'}`;
    }),
  ];
  if (gateway) {
    const g = gateway as { exportsPerSecond: number; hookQuiet: LatencySummary; hookWithExports: LatencySummary; gatewayIdleCpuPercent: number; perExport: Record<string, { gatewayCpuMsPerExport: number; wallMsPerExport: number }> };
    for (const [format, f] of Object.entries(g.perExport)) {
      lines.push(`T:   through the gateway, ${format}: ${f.gatewayCpuMsPerExport.toFixed(3)} ms of the gateway process's CPU per export (HTTP, read, published to JetStream, acknowledged), ${f.wallMsPerExport.toFixed(2)} ms wall`);
    }
    lines.push(`T:   the gateway idle: ${g.gatewayIdleCpuPercent}% of a core`);
    lines.push(
      `T: the HTTP hook's PreToolUse p50 ${g.hookQuiet.p50.toFixed(2)} ms, p99 ${g.hookQuiet.p99.toFixed(2)} ms alone; p50 ${g.hookWithExports.p50.toFixed(2)} ms, p99 ${g.hookWithExports.p99.toFixed(2)} ms beside ${g.exportsPerSecond.toFixed(1)} exports/s of ${POINTS} points`,
    );
  }
  lines.push(`T: load average ${loads[0]} at the start, ${loads[1]} at the end${options.profileDir ? ' (profiled: the figures include the profiler)' : ''}`);
  lines.push(`Results: ${file}`);
  return `${lines.join('\n')}\n`;
}

async function main(): Promise<number> {
  let options: TelemetryBenchOptions | 'help';
  try {
    options = parseTelemetryOptions(process.argv.slice(2), WORKSPACE_ROOT);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    process.stderr.write(`${error.message}\n\nRun with --help for the options.\n`);
    return 2;
  }
  if (options === 'help') {
    process.stdout.write(`${TELEMETRY_HELP}\n`);
    return 0;
  }
  const run = randomBytes(3).toString('hex');
  const startedAt = new Date().toISOString();
  const machine = machineInfo(WORKSPACE_ROOT);
  const figures = await inProcess(options, run);
  const gateway = options.inProcessOnly ? undefined : await throughGateway(options, run);
  const loads: [number, number] = [machine.loadAverageAtStart, load()];
  const results = {
    schema: 'warden-bench-telemetry/2',
    startedAt,
    finishedAt: new Date().toISOString(),
    machine,
    loadAverageAtEnd: loads[1],
    parameters: { exports: options.exports, runs: options.runs, calls: options.calls, rate: options.rate, burst: options.burst, points: POINTS, profiled: !!options.profileDir },
    targetCpuMsPerExport: TARGET_CPU_MS,
    inProcess: figures,
    ...(gateway ? { gateway } : {}),
  };
  mkdirSync(options.outDir, { recursive: true });
  const file = join(options.outDir, `bench-telemetry-${startedAt.replace(/[:.]/g, '-')}.json`);
  writeFileSync(file, `${JSON.stringify(results, null, 2)}\n`);
  process.stdout.write(report(options, figures, gateway, loads, file));
  return options.strict && FORMATS.some((f) => !figures[f].met) ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (error: Error) => {
    process.stderr.write(`${error.stack ?? error.message}\n`);
    process.exit(1);
  },
);
