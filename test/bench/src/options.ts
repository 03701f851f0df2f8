import { resolve } from 'node:path';
import { parseArgs } from 'node:util';

export interface BenchOptions {
  /** Simulated agent sessions driving load. */
  sessions: number;
  /** Agent users (one WardenClient, i.e. one NATS connection, each); sessions are spread over them. */
  agents: number;
  /** Offered rate of the fixed-rate latency phase, actions/s over all sessions. */
  rate: number;
  /** Measured seconds of the latency phase. */
  durationS: number;
  /** Seconds of load before measuring, at the latency phase's rate. */
  warmupS: number;
  /** Offered rates of the throughput steps, actions/s, tried in order until one is not sustained. */
  steps: number[];
  stepDurationS: number;
  /** Proposals each session keeps in flight in the closed-loop saturation phase; 0 skips the phase. */
  closedInFlight: number;
  closedDurationS: number;
  /** How long a proposal waits for its decision before the SDK's fallback denies it (counted as lost). */
  decisionTimeoutMs: number;
  /** Sequential core request/reply round trips measured (after a tenth as many for warm-up). */
  requests: number;
  /** Sequential JetStream publishes whose ack round trip is measured. */
  sequentialPublishes: number;
  /** Async JetStream publishes kept in flight for the publish-ack rate. */
  publishWindow: number;
  publishDurationS: number;
  partitions: number;
  outDir: string;
  /** Keep nats-server's and the services' logs here instead of the temporary directory. */
  logDir?: string;
  /** Write a CPU profile of each service process here (`<app>.cpuprofile`, open in Chrome DevTools). */
  profileDir?: string;
  /** Exit with 1 when a target is missed. */
  strict: boolean;
  quick: boolean;
  /** Sequential PreToolUse calls through the HTTP hook (and as many SDK proposals) in the hook phase. */
  hookCalls: number;
  /** Runs of the command hook (and of node -e 0) in the hook phase. */
  hookRuns: number;
  /** Run only the hook phase (nats-server, reviewer, gate, gateway). */
  hooksOnly: boolean;
  /** Live sessions on the console's sessions page in the console phase. */
  consoleSessions: number;
  /** Loads of the sessions page measured in the console phase. */
  consoleLoads: number;
  /** Run only the console phase (`warden up` and Chromium). */
  consoleOnly: boolean;
  /** Seconds of the idle window of the whole suite, no agent connected. */
  idleS: number;
}

export class UsageError extends Error {}

const DEFAULT_STEPS = [1000, 1500, 2000, 2500, 3000, 3500, 4000, 5000, 6000];

export const HELP = `Warden benchmark: decision round trip and sustained throughput of reviewer + gate, beside raw
NATS baselines measured in the same run on the same nats-server.

Usage: node test/bench/dist/main.js [options]      (or: npx nx run bench:run -- [options])

What it does, in one run:
  1. in process, each in its own process: the step reviewer's review time (R), the breakers' check
     time per event (K), the pattern detectors' time per event and memory with 10,000 active sessions
     (P), and the audit's ingest rate into PostgreSQL beside a raw multi-row INSERT into the same
     database (I, with its own nats-server and PostgreSQL cluster);
     C: the operator console: \`warden up\` with 1,000 live sessions, the sessions page loaded in
     Debian's Chromium by a logged-in operator, first frame with rows (target <= 1 s);
  2. starts nats-server on free loopback ports with a temporary store, configured with Warden's
     production configuration (renderNatsServerConfig: 8 partitions, service user, bench-agent-* users)
     and provisioned with the production topology;
  3. baseline A: core NATS request/reply round trip (sequential), p50/p99/p999;
     baseline B: JetStream publish-ack rate with a window of async publishes in flight, and the
     sequential publish-ack round trip, on a BENCH stream (subjects bench.>) made for the run;
     G: the gate relay's added time per verdict and the flush rate of a 10,000-message buffer;
  4. starts the built reviewer and gate as separate processes and warms them up;
     H: Claude Code's hooks: sequential PreToolUse calls through the gateway's HTTP hook beside as
     many SDK proposals (interleaved), and the command hook's wall time beside node -e 0;
  5. latency: open-loop load at --rate actions/s over --sessions sessions through the SDK
     (propose -> decision), p50/p99/p999, lost decisions (SDK fallback = no decision in time);
     the same again with the breaker running, and again with the audit service persisting every
     event into a real PostgreSQL (ingest lag from each event's timestamp to its row);
  6. throughput: open-loop steps at rising rates, stopping at the first step not sustained; a step
     is sustained when no decision is lost or rejected, decisions per second (first proposal to last
     decision) reach 95% of the offered rate, and the backlog (proposals without a decision) at the
     step's end is at most a quarter second of offered load;
     then a closed-loop saturation run (--closed-in-flight proposals per session);
  7. the whole suite: breaker, pattern detector, intervention controller, ladder and audit (into its
     own PostgreSQL) started beside the path, the latency phase's load again (and what its actions cost
     the bus: stream messages, KV writes and deliveries per action; and the machine: CPU ms per action
     of nats-server and each service, from the load's start until all it caused is handled), then every agent
     disconnected and, as a user meets it, one agent's PreToolUse calls through the HTTP hook one after
     another, each with its PostToolUse (--hook-calls; target p50 <= 5 ms, p99 <= 15 ms); then
     CPU of every process while the suite cools down from the load, then an idle window
     (--idle S) once the streams' duplicate window has passed: CPU and RSS of every process;
  8. prints a table beside the baselines and writes JSON to test/bench/results/latest.json and a
     timestamped copy. Every process it started is stopped at the end, on error and on Ctrl-C.

Targets reported against: decision p99 <= 5 ms at 500 actions/s; >= 2,000 actions/s sustained with no
lost decision; and as ratios to the baselines of the same run: decision p50 <= 3x and p99 <= 5x core
request/reply (also with the whole suite running), sustained >= 0.25x the JetStream publish-ack rate,
audit ingest >= 0.6x a raw INSERT, pattern detector <= 250 MB RSS with 10,000 sessions, idle suite
<= 2% of one core. Numbers are what was measured; the load generator shares the machine with nats-server
and the services, and its own CPU use and schedule lag are reported too.

Progress goes to stderr, the table to stdout.

Options:
  --sessions N            simulated sessions (default 50)
  --agents N              agent users / NATS connections the sessions are spread over (default 10,
                          at most one per session)
  --rate N                actions/s of the latency phase (default 500)
  --duration S            measured seconds of the latency phase (default 20)
  --warmup S              warm-up seconds before it (default 5)
  --steps A,B,...         offered rates of the throughput steps (default ${DEFAULT_STEPS.join(',')})
  --step-duration S       seconds per step (default 10)
  --closed-in-flight N    proposals in flight per session in the closed-loop run, 0 to skip (default 4)
  --closed-duration S     seconds of the closed-loop run (default 10)
  --timeout MS            decision timeout; a decision not in by then is lost (default 10000)
  --requests N            core request/reply round trips measured (default 20000)
  --publishes N           sequential JetStream publishes measured (default 5000)
  --publish-window N      async JetStream publishes in flight for the ack rate (default 256)
  --publish-duration S    seconds of the publish-ack rate run (default 5)
  --out DIR               results directory (default test/bench/results)
  --log-dir DIR           keep nats-server and service logs in DIR (default: removed with the temp dir)
  --profile DIR           write a CPU profile of each service to DIR (<app>.cpuprofile, written when the
                          service stops; open it in Chrome DevTools or summarise it with
                          node test/bench/dist/profile-summary.js DIR/<app>.cpuprofile), and nats-server's
                          over the latency phase and the idle window (nats-server-latency.pprof,
                          nats-server-idle.pprof; read them with go tool pprof -top FILE)
  --hook-calls N          sequential PreToolUse calls through the HTTP hook, and SDK proposals (default 2000)
  --hook-runs N           runs of the command hook, and of node -e 0 (default 30)
  --hooks-only            only the hook phase (H), with reviewer, gate and gateway
  --console-sessions N    live sessions on the console's sessions page (default 1000)
  --console-loads N       loads of the sessions page measured (default 5)
  --console-only          only the console phase (C): warden up, the sessions, Debian's Chromium
  --idle S                seconds of the whole suite's idle window, no agent connected (default 60); it
                          starts once the streams' 2-minute duplicate window has passed since the load
                          (not in --quick runs), and the minute before it is reported as cooling down
  --strict                exit 1 when a target is missed
  --quick                 short smoke run: 10 sessions, 2 agents, 1 s warm-up, 3 s phases, steps 1000,2000,
                          fewer baseline samples (explicit options still win)
  -h, --help              this text`;

function positiveInt(name: string, raw: string | undefined, fallback: number, min = 1): number {
  if (raw === undefined) return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min) throw new UsageError(`--${name} must be an integer >= ${min} (got "${raw}")`);
  return value;
}

function positiveNumber(name: string, raw: string | undefined, fallback: number): number {
  if (raw === undefined) return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value <= 0) throw new UsageError(`--${name} must be a number > 0 (got "${raw}")`);
  return value;
}

export function parseOptions(argv: string[], workspaceRoot: string): BenchOptions | 'help' {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      strict: true,
      allowPositionals: false,
      options: {
        sessions: { type: 'string' },
        agents: { type: 'string' },
        rate: { type: 'string' },
        duration: { type: 'string' },
        warmup: { type: 'string' },
        steps: { type: 'string' },
        'step-duration': { type: 'string' },
        'closed-in-flight': { type: 'string' },
        'closed-duration': { type: 'string' },
        timeout: { type: 'string' },
        requests: { type: 'string' },
        publishes: { type: 'string' },
        'publish-window': { type: 'string' },
        'publish-duration': { type: 'string' },
        out: { type: 'string' },
        'log-dir': { type: 'string' },
        profile: { type: 'string' },
        strict: { type: 'boolean' },
        quick: { type: 'boolean' },
        'hook-calls': { type: 'string' },
        'hook-runs': { type: 'string' },
        'hooks-only': { type: 'boolean' },
        'console-sessions': { type: 'string' },
        'console-loads': { type: 'string' },
        'console-only': { type: 'boolean' },
        idle: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const v = parsed.values;
  if (v.help) return 'help';
  const quick = v.quick ?? false;
  const steps = v.steps
    ? v.steps.split(',').map((s) => positiveInt('steps', s.trim(), 0))
    : quick
      ? [1000, 2000]
      : DEFAULT_STEPS;
  const sessions = positiveInt('sessions', v.sessions, quick ? 10 : 50);
  // Without --agents, fewer sessions than the default agent count get one agent each.
  const agents = positiveInt('agents', v.agents, Math.min(sessions, quick ? 2 : 10));
  if (agents > sessions) throw new UsageError(`--agents (${agents}) must not exceed --sessions (${sessions})`);
  if (agents > 1000) throw new UsageError('--agents must be at most 1000');
  const options: BenchOptions = {
    sessions,
    agents,
    rate: positiveInt('rate', v.rate, 500),
    durationS: positiveNumber('duration', v.duration, quick ? 3 : 20),
    warmupS: positiveNumber('warmup', v.warmup, quick ? 1 : 5),
    steps,
    stepDurationS: positiveNumber('step-duration', v['step-duration'], quick ? 3 : 10),
    closedInFlight: positiveInt('closed-in-flight', v['closed-in-flight'], 4, 0),
    closedDurationS: positiveNumber('closed-duration', v['closed-duration'], quick ? 3 : 10),
    decisionTimeoutMs: positiveInt('timeout', v.timeout, 10_000, 100),
    requests: positiveInt('requests', v.requests, quick ? 2_000 : 20_000),
    sequentialPublishes: positiveInt('publishes', v.publishes, quick ? 1_000 : 5_000),
    publishWindow: positiveInt('publish-window', v['publish-window'], 256),
    publishDurationS: positiveNumber('publish-duration', v['publish-duration'], quick ? 2 : 5),
    partitions: 8,
    outDir: resolve(v.out ?? resolve(workspaceRoot, 'test', 'bench', 'results')),
    ...(v['log-dir'] ? { logDir: resolve(v['log-dir']) } : {}),
    ...(v.profile ? { profileDir: resolve(v.profile) } : {}),
    strict: v.strict ?? false,
    quick,
    hookCalls: positiveInt('hook-calls', v['hook-calls'], quick ? 300 : 2_000),
    hookRuns: positiveInt('hook-runs', v['hook-runs'], quick ? 8 : 30),
    hooksOnly: v['hooks-only'] ?? false,
    consoleSessions: positiveInt('console-sessions', v['console-sessions'], quick ? 100 : 1_000),
    consoleLoads: positiveInt('console-loads', v['console-loads'], quick ? 2 : 5),
    consoleOnly: v['console-only'] ?? false,
    idleS: positiveNumber('idle', v.idle, quick ? 10 : 60),
  };
  // Bounded in time and count: a typo must not start an hour-long run.
  const maxRate = 50_000;
  if (options.rate > maxRate || options.steps.some((s) => s > maxRate)) throw new UsageError(`rates are capped at ${maxRate} actions/s`);
  for (const [name, seconds] of [
    ['duration', options.durationS],
    ['warmup', options.warmupS],
    ['step-duration', options.stepDurationS],
    ['closed-duration', options.closedDurationS],
    ['publish-duration', options.publishDurationS],
  ] as const) {
    if (seconds > 600) throw new UsageError(`--${name} must be at most 600 seconds`);
  }
  if (options.steps.length > 30) throw new UsageError('at most 30 throughput steps');
  if (options.requests > 1_000_000 || options.sequentialPublishes > 1_000_000) throw new UsageError('at most 1,000,000 baseline samples');
  if (options.sessions > 5_000) throw new UsageError('--sessions must be at most 5000');
  if (options.closedInFlight > 100) throw new UsageError('--closed-in-flight must be at most 100');
  return options;
}
