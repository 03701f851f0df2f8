import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { UsageError } from './options.js';

export interface TelemetryBenchOptions {
  /** Exports the receiver reads per format and run, in process. */
  exports: number;
  /** Runs of the in-process measurement, the formats taken in turn in each. */
  runs: number;
  /** Sequential PreToolUse calls through the HTTP hook, alone and beside the export stream. */
  calls: number;
  /** Exports a second in the steady stream beside the hooks. */
  rate: number;
  /** Exports sent back to back through the gateway, per encoding, for its CPU per export. */
  burst: number;
  inProcessOnly: boolean;
  outDir: string;
  profileDir?: string;
  strict: boolean;
}

export const TELEMETRY_HELP = `Warden benchmark: the agents' telemetry receiver (the gateway's OTLP/HTTP POST /v1/metrics and
/v1/logs), against its target: an export of 100 data points handled in <= 1 ms of CPU.

Usage: node test/bench/dist/telemetry-receiver.js [options]
       (build first: npx nx run-many -t build -p telemetry gateway bench)

What it does:
  1. in process: the receiver's own work on one export of 100 data points (read the request, the
     usage per session, the usage.reported messages built, validated and serialised as the gateway
     publishes them), with the gateway's code, in four formats: Claude Code's api_request events
     (logs) and its cost and token metrics, each in OTLP/JSON and protobuf. The bodies are made
     before the clock starts; the figure is this process's CPU (user + system) over the exports
     divided by their number, nothing else running in it. --runs runs, the formats in turn in each;
     reported: the median run, and the lowest and highest;
  2. through the running gateway (nats-server, reviewer, gate, breaker, gateway started on free
     ports): the HTTP hook's PreToolUse latency alone, then beside a steady stream of --rate exports
     a second (protobuf, 100 points each): decisions must not slow down; then --burst exports sent
     back to back, protobuf and OTLP/JSON: the gateway process's CPU per export (HTTP, read,
     published to JetStream and acknowledged), read from /proc, not the sender's;
  3. prints the figures and writes JSON to test/bench/results/bench-telemetry-<time>.json, with the
     load average at the start and the end: figures of a busy machine are not those of a quiet one.

Options:
  --exports N          exports per format and run, in process (default 2000)
  --runs N             runs of the in-process measurement (default 3)
  --calls N            PreToolUse calls per latency run (default 1000)
  --rate N             exports a second beside the hooks (default 20)
  --burst N            exports back to back through the gateway, per encoding (default 500)
  --in-process-only    only the in-process measurement (no nats-server, no services)
  --out DIR            results directory (default test/bench/results)
  --profile DIR        write CPU profiles: telemetry-in-process.cpuprofile (the in-process runs) and
                       gateway.cpuprofile (written when the gateway stops); summarise them with
                       node test/bench/dist/profile-summary.js FILE. The profiler costs CPU: figures of a
                       profiled run are not comparable with others
  --strict             exit 1 when the target is missed
  -h, --help           this text`;

function count(name: string, raw: string | undefined, fallback: number, max: number): number {
  if (raw === undefined) return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1 || value > max) throw new UsageError(`--${name} must be an integer from 1 to ${max} (got "${raw}")`);
  return value;
}

export function parseTelemetryOptions(argv: string[], workspaceRoot: string): TelemetryBenchOptions | 'help' {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      strict: true,
      allowPositionals: false,
      options: {
        exports: { type: 'string' },
        runs: { type: 'string' },
        calls: { type: 'string' },
        rate: { type: 'string' },
        burst: { type: 'string' },
        'in-process-only': { type: 'boolean' },
        out: { type: 'string' },
        profile: { type: 'string' },
        strict: { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const v = parsed.values;
  if (v.help) return 'help';
  return {
    exports: count('exports', v.exports, 2000, 1_000_000),
    runs: count('runs', v.runs, 3, 100),
    calls: count('calls', v.calls, 1000, 100_000),
    rate: count('rate', v.rate, 20, 1000),
    burst: count('burst', v.burst, 500, 100_000),
    inProcessOnly: v['in-process-only'] ?? false,
    outDir: resolve(v.out ?? resolve(workspaceRoot, 'test', 'bench', 'results')),
    ...(v.profile ? { profileDir: resolve(v.profile) } : {}),
    strict: v.strict ?? false,
  };
}
