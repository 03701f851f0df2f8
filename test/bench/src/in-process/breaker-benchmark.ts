import { performance } from 'node:perf_hooks';
import { parseBenchmarkOptions, summariseLatencies, type LatencySummary } from '@warden/observability';
import type { Phase } from '@warden/contracts';
import { resolveBreakerSettings } from '@warden/breakers';
import { SessionBreakers, type BreakerEvent } from '@warden/breakers';

/**
 * Measures the breaker's check time per event, in process: one session's four breakers evaluating a
 * proposed action or an outcome (error window, model call, progress report), over many sessions with
 * long histories. Run by the suite's benchmark (test/bench) and on its own:
 * `node test/bench/dist/in-process/breaker-benchmark.js --help`.
 */

const HELP = `Usage: node test/bench/dist/in-process/breaker-benchmark.js [options]

Measures how long the breakers of a session take to evaluate one event, in process.

Options:
  --count N      events measured (default 50000)
  --warmup N     events before measuring (default 10000)
  --sessions N   sessions the events are spread over (default 200)
  --json         print the figures as JSON only
  --help         this text
`;

const parseOptions = (argv: string[]) => parseBenchmarkOptions(argv, { count: 50_000, warmup: 10_000, sessions: 200 }, HELP);
type Options = ReturnType<typeof parseOptions>;


const PHASES: Phase[] = ['planning', 'implementation', 'testing', 'review'];

export function measureBreakerTime(options: Omit<Options, 'json'>) {
  // Limits high enough that sessions keep running: the cost measured is the evaluation, not a blocked session.
  const settings = resolveBreakerSettings({
    iteration: { limits: { default: 1e9, planning: 1e9, implementation: 1e9, review: 1e9, testing: 1e9, deployment: 1e9 } },
    cost: { budgets: { per_run: 1e9, per_day: 1e12 } },
  });
  const start = Date.now();
  const sessions = Array.from({ length: options.sessions }, (_, i) => SessionBreakers.open(settings, `agent-${i % 10}`, `session-${i}`, start));
  sessions.forEach((s, i) => s.started(`start-${i}`, start, PHASES[i % PHASES.length]));
  let sequence = 0;
  let events = 0;
  const run = (count: number): { action: number[]; outcome: number[] } => {
    const action: number[] = [];
    const outcome: number[] = [];
    for (let i = 0; i < count; i++) {
      const session = sessions[i % sessions.length]!;
      const at = start + ++sequence;
      const id = `m${sequence}`;
      let emitted: BreakerEvent[];
      // Every action has its outcome; one in three carries a model call, one in five a progress report.
      if (i % 2 === 0) {
        const began = performance.now();
        emitted = session.actionProposed(id, at, undefined);
        action.push(performance.now() - began);
      } else {
        const reading = {
          action_id: `a${sequence}`,
          status: (i % 13 === 0 ? 'error' : 'success') as 'error' | 'success',
          ...(i % 3 === 0 ? { model: 'claude-sonnet-4-5-20250929', tokens: { prompt: 4000, completion: 800 } } : {}),
          ...(i % 5 === 0 ? { progress: { files_modified: i % 10 === 0 ? 0 : 1, tests_passed: i } } : {}),
        };
        const began = performance.now();
        emitted = session.outcomeReported(id, at, reading, 1);
        outcome.push(performance.now() - began);
      }
      events += emitted.length;
    }
    return { action, outcome };
  };
  run(options.warmup);
  const measured = run(options.count);
  return {
    sessions: options.sessions,
    action: summariseLatencies(measured.action),
    outcome: summariseLatencies(measured.outcome),
    all: summariseLatencies([...measured.action, ...measured.outcome]),
    eventsPublished: events,
  };
}

function main(): void {
  let options: Options;
  try {
    options = parseOptions(process.argv.slice(2));
  } catch (error) {
    process.stderr.write(`breaker-benchmark: ${(error as Error).message}\n`);
    process.exit(2);
  }
  const figures = measureBreakerTime(options);
  if (options.json) {
    process.stdout.write(`${JSON.stringify(figures)}\n`);
    return;
  }
  const line = (name: string, s: LatencySummary) =>
    `${name}: p50 ${s.p50Ms} ms, p99 ${s.p99Ms} ms, p999 ${s.p999Ms} ms, max ${s.maxMs} ms over ${s.count} events`;
  process.stdout.write(
    [`Breakers of a session, in process, ${figures.sessions} sessions`, line('proposed action', figures.action), line('outcome        ', figures.outcome), line('all            ', figures.all), ''].join('\n'),
  );
}

if (import.meta.url === `file://${process.argv[1]}`) main();
