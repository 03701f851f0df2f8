import { performance } from 'node:perf_hooks';
import {
  createMessage,
  EXAMPLE_PAYLOADS,
  gateBufferSubject,
  GATE_BUFFER_STREAM,
  newMessageId,
  publishSubject,
  sessionSubscription,
  type MessageOf,
  type PayloadOf,
} from '@warden/contracts';
import { buildTopology, BusConnection, MessagePublisher, MessagingMetrics, provision } from '@warden/messaging';
import { createLogger, MetricsRegistry, percentile } from '@warden/observability';
import { resolveGates } from '@warden/gate';
import { GateMetrics, GateStores, HitlRelay } from '@warden/gate-service/in-process';

/**
 * Measures the gate's relay against a real nats-server, in process: the time the relay adds to a
 * verdict's way to its decision in the normal state (beside a bare JetStream publish of the same
 * decision), how fast it buffers a paused session, and how fast an unpause flushes a 10,000-message
 * buffer (each message acknowledged before the next, progress recorded after each). Run by the
 * suite's benchmark (test/bench) and on its own: `node test/bench/dist/in-process/gate-benchmark.js --help`.
 */

const HELP = `Usage: node test/bench/dist/in-process/gate-benchmark.js [options] [NATS_URL]

Measures the gate's HITL relay against a running nats-server with JetStream (the Warden topology is
provisioned first; it is idempotent). Prints JSON with --json.

Options:
  --nats URL         the server [$NATS_URL or nats://127.0.0.1:4222]
  --user U           NATS user [$NATS_USER]
  --password P       NATS password [$NATS_PASSWORD]
  --partitions N     partitions of the server's mapping (default 8)
  --buffer N         messages in the buffer that is flushed (default 10000)
  --samples N        verdicts timed in the normal state (default 2000)
  --warmup N         verdicts before timing (default 500)
  --json             print the figures as JSON only
  --help             this text
`;

interface Options {
  nats: string;
  user?: string;
  password?: string;
  partitions: number;
  buffer: number;
  samples: number;
  warmup: number;
  json: boolean;
}

function parseOptions(argv: string[]): Options {
  const options: Options = {
    nats: process.env.NATS_URL ?? 'nats://127.0.0.1:4222',
    ...(process.env.NATS_USER ? { user: process.env.NATS_USER } : {}),
    ...(process.env.NATS_PASSWORD ? { password: process.env.NATS_PASSWORD } : {}),
    partitions: 8,
    buffer: 10_000,
    samples: 2_000,
    warmup: 500,
    json: false,
  };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const value = () => {
      const next = argv[++i];
      if (next === undefined) throw new Error(`${arg} needs a value`);
      return next;
    };
    const number = (name: 'partitions' | 'buffer' | 'samples' | 'warmup') => {
      const parsed = Number(value());
      if (!Number.isInteger(parsed) || parsed < 1) throw new Error(`${arg} needs a whole number above 0`);
      options[name] = parsed;
    };
    if (arg === '--help' || arg === '-h') {
      process.stdout.write(HELP);
      process.exit(0);
    } else if (arg === '--json') options.json = true;
    else if (arg === '--nats') options.nats = value();
    else if (arg === '--user') options.user = value();
    else if (arg === '--password') options.password = value();
    else if (arg === '--partitions') number('partitions');
    else if (arg === '--buffer') number('buffer');
    else if (arg === '--samples') number('samples');
    else if (arg === '--warmup') number('warmup');
    else if (!arg.startsWith('-')) options.nats = arg;
    else throw new Error(`unknown option ${arg} (see --help)`);
  }
  return options;
}

const encoder = new TextEncoder();
const AGENT = 'bench-agent';

function verdict(sessionId: string, i: number): MessageOf<'review.verdict'> {
  return createMessage('review.verdict', {
    session_id: sessionId,
    agent_id: AGENT,
    payload: {
      ...EXAMPLE_PAYLOADS['review.verdict'],
      action_id: `a-${i}`,
      verdict: 'allow',
      reasons: ['Read: no concerns'],
      risk: { score: 0.1, severity: 'low', factors: ['file_read'] },
      side_effects: undefined,
      rule_hits: [],
      action: { kind: 'tool_use', tool: 'Read', input: { file_path: `/work/app/src/file-${i}.ts` } },
    } as PayloadOf<'review.verdict'>,
  });
}

function command(sessionId: string, type: 'hitl_pause' | 'hitl_unpause'): MessageOf<'gate.command'> {
  return createMessage('gate.command', {
    session_id: sessionId,
    agent_id: AGENT,
    payload: { command_type: type, operator_id: 'bench-operator', ...(type === 'hitl_pause' ? { reason: 'benchmark' } : {}) },
  });
}

const round = (value: number, digits = 3) => Math.round(value * 10 ** digits) / 10 ** digits;

async function main(): Promise<void> {
  const options = parseOptions(process.argv.slice(2));
  const bus = await BusConnection.open({ servers: options.nats, user: options.user, password: options.password, name: 'warden-gate-benchmark' });
  try {
    await provision(bus.nc, bus.jsm, buildTopology({ partitions: options.partitions }));
    const stores = await GateStores.open(bus);
    const registry = new MetricsRegistry('gate');
    const publisher = new MessagePublisher(bus, new MessagingMetrics(registry));
    const relay = new HitlRelay({
      stores,
      publish: (message) => publisher.publishMessage(message),
      gates: () => resolveGates(),
      metrics: new GateMetrics(registry),
      log: createLogger({ service: 'gate', level: 'warn' }),
      partitions: options.partitions,
      agentUserApprovals: true,
      refuse: () => Promise.reject(new Error('the benchmark proposes every action id once')),
    });

    // Normal state: the relay (session lookup, gate conditions, decision, publish) against a bare publish.
    const normal = `bench-normal-${newMessageId().slice(0, 8)}`;
    const relayMs: number[] = [];
    for (let i = 0; i < options.warmup + options.samples; i++) {
      const started = performance.now();
      await relay.onVerdict(verdict(normal, i));
      if (i >= options.warmup) relayMs.push(performance.now() - started);
    }
    const bare = `bench-bare-${newMessageId().slice(0, 8)}`;
    const publishMs: number[] = [];
    for (let i = 0; i < options.warmup + options.samples; i++) {
      const decision = createMessage('decision.made', {
        session_id: bare,
        agent_id: AGENT,
        payload: { action_id: `a-${i}`, decision: 'allow', verdict: 'allow', reason: 'Read: no concerns', reasons: ['Read: no concerns'], decided_by: 'reviewer' },
      });
      const data = encoder.encode(JSON.stringify(decision));
      const started = performance.now();
      await bus.js.publish(publishSubject('decision', AGENT, bare), data, { msgID: decision.id });
      if (i >= options.warmup) publishMs.push(performance.now() - started);
    }
    relayMs.sort((a, b) => a - b);
    publishMs.sort((a, b) => a - b);

    // Paused: buffer N verdicts, then time the unpause that flushes them all.
    const paused = `bench-flush-${newMessageId().slice(0, 8)}`;
    await relay.onCommand(command(paused, 'hitl_pause'));
    const bufferStarted = performance.now();
    for (let i = 0; i < options.buffer; i++) await relay.onVerdict(verdict(paused, i));
    const bufferSeconds = (performance.now() - bufferStarted) / 1000;
    const subject = gateBufferSubject(AGENT, paused);
    const buffered = (await bus.jsm.streams.info(GATE_BUFFER_STREAM, { subjects_filter: subject })).state.subjects?.[subject] ?? 0;
    const flushStarted = performance.now();
    const outcome = await relay.onCommand(command(paused, 'hitl_unpause'));
    const flushSeconds = (performance.now() - flushStarted) / 1000;
    if (outcome.status !== 'ok') throw new Error(`unpause failed: ${JSON.stringify(outcome)}`);
    const decisionSubject = sessionSubscription('decision', AGENT, paused);
    const info = await bus.jsm.streams.info('WARDEN_DECISION', { subjects_filter: decisionSubject });
    const flushed = Object.values(info.state.subjects ?? {}).reduce((a, b) => a + b, 0);
    relay.stop();

    const figures = {
      nats: options.nats.replace(/\/\/[^@/]*@/, '//'),
      normal_path: {
        samples: options.samples,
        relay_p50_ms: round(percentile(relayMs, 0.5)),
        relay_p99_ms: round(percentile(relayMs, 0.99)),
        publish_p50_ms: round(percentile(publishMs, 0.5)),
        publish_p99_ms: round(percentile(publishMs, 0.99)),
        added_p50_ms: round(percentile(relayMs, 0.5) - percentile(publishMs, 0.5)),
      },
      buffering: { messages: buffered, seconds: round(bufferSeconds), messages_per_second: Math.round(buffered / bufferSeconds) },
      flush: { messages: flushed, seconds: round(flushSeconds), messages_per_second: Math.round(flushed / flushSeconds) },
    };
    if (flushed !== options.buffer || buffered !== options.buffer) throw new Error(`expected ${options.buffer} buffered and flushed, got ${buffered} and ${flushed}`);
    if (options.json) {
      process.stdout.write(`${JSON.stringify(figures)}\n`);
      return;
    }
    process.stdout.write(
      [
        `Gate relay against ${figures.nats}`,
        `  normal state: relay p50 ${figures.normal_path.relay_p50_ms} ms, p99 ${figures.normal_path.relay_p99_ms} ms; bare publish p50 ${figures.normal_path.publish_p50_ms} ms, p99 ${figures.normal_path.publish_p99_ms} ms (added p50 ${figures.normal_path.added_p50_ms} ms)`,
        `  buffering:    ${figures.buffering.messages} messages in ${figures.buffering.seconds} s (${figures.buffering.messages_per_second}/s)`,
        `  flush:        ${figures.flush.messages} messages in ${figures.flush.seconds} s (${figures.flush.messages_per_second}/s)`,
        '',
      ].join('\n'),
    );
  } finally {
    await bus.close();
  }
}

main().catch((error: Error) => {
  process.stderr.write(`gate benchmark failed: ${error.message}\n`);
  process.exitCode = 1;
});
