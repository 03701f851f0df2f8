import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { WORKSPACE_ROOT } from '@warden/local-runtime';
import type { NatsSettings } from '@warden/messaging';
import { inProcessBenchmark } from './in-process-entries.js';

const run = promisify(execFile);

export interface GateRelayFigures {
  normal_path: { samples: number; relay_p50_ms: number; relay_p99_ms: number; publish_p50_ms: number; publish_p99_ms: number; added_p50_ms: number };
  buffering: { messages: number; seconds: number; messages_per_second: number };
  flush: { messages: number; seconds: number; messages_per_second: number };
}

/**
 * The gate relay's own figures, measured by the gate benchmark
 * (test/bench/src/in-process/gate-benchmark.ts) against the benchmark's nats-server before the services start:
 * what the relay adds to a decision in the normal state beside a bare publish, and the flush rate of a
 * paused session's buffer.
 */
export async function measureGateRelay(nats: NatsSettings, options: { partitions: number; buffer: number }): Promise<GateRelayFigures> {
  const entry = inProcessBenchmark('gate');
  const { stdout } = await run(
    process.execPath,
    [entry, '--json', '--nats', nats.servers, '--partitions', String(options.partitions), '--buffer', String(options.buffer)],
    { cwd: WORKSPACE_ROOT, maxBuffer: 1024 * 1024, timeout: 600_000, env: { ...process.env, NATS_USER: nats.user ?? '', NATS_PASSWORD: nats.password ?? '' } },
  );
  return JSON.parse(stdout.trim().split('\n').pop()!) as GateRelayFigures;
}
