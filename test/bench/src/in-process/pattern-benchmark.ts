import { createMessage, type AnyMessage, type MessageType } from '@warden/contracts';
import { parseBenchmarkOptions, summariseLatencies } from '@warden/observability';
import { resolvePatternSettings } from '@warden/patterns';
import { priceOf, type PatternReport, type SessionPatterns } from '@warden/patterns';
import { PatternSessions } from '@warden/pattern-detector/in-process';

/**
 * Measures the pattern detector in process: the time to apply one event (a proposed action or an
 * outcome) to its session and run all eleven detectors over the session's windows, and the memory of
 * many active sessions whose windows are full — held as the service holds them, by its session keeper
 * with the ids of the messages applied; only the KV bucket is left out (it keeps nothing in the process).
 * Run by the suite's benchmark (test/bench) and on its own: `node test/bench/dist/in-process/pattern-benchmark.js --help`.
 */

const HELP = `Usage: node test/bench/dist/in-process/pattern-benchmark.js [options]

Measures pattern detection per event and the memory of active sessions, in process.

Options:
  --sessions N   active sessions, each with full windows (default 10000)
  --count N      events measured, spread over the sessions (default 50000)
  --warmup N     events before measuring (default 10000)
  --json         print the figures as JSON only (one line, the last of stdout)
  --help         this text

Run node with --expose-gc for steadier memory figures.
`;

const parseOptions = (argv: string[]) => parseBenchmarkOptions(argv, { sessions: 10_000, count: 50_000, warmup: 10_000 }, HELP);
type Options = ReturnType<typeof parseOptions>;


const settings = resolvePatternSettings();
const MB = 1024 * 1024;

/** A coding agent's ordinary mix: reads, searches, edits, test runs (some failing), background polls, model calls. */
function action(session: number, n: number) {
  const cwd = `/home/dev/projects/p${session % 50}`;
  const id = `s${session}-a${n}`;
  switch (n % 8) {
    case 0:
    case 1:
      return { action: { action_id: id, kind: 'tool_use', tool: 'Read', input: { file_path: `${cwd}/src/module${n % 40}/file${n % 13}.ts` } }, ok: true };
    case 2:
      return { action: { action_id: id, kind: 'tool_use', tool: 'Grep', input: { pattern: `handle${n % 17}`, path: `${cwd}/src` } }, ok: true };
    case 3:
    case 4:
      return { action: { action_id: id, kind: 'tool_use', tool: 'Edit', input: { file_path: `${cwd}/src/module${n % 40}/file${n % 13}.ts`, old_string: 'const a = 1;', new_string: `const a = ${n};` } }, ok: true, files: [`${cwd}/src/module${n % 40}/file${n % 13}.ts`] };
    case 5:
      return { action: { action_id: id, kind: 'tool_use', tool: 'Bash', input: { command: `npx jest test/module${n % 40}.test.ts` } }, ok: n % 3 !== 0 };
    case 6:
      return { action: { action_id: id, kind: 'tool_use', tool: 'BashOutput', input: { bash_id: `bash_${n % 3}` } }, ok: true };
    default:
      return { action: { action_id: id, kind: 'tool_use', tool: 'Bash', input: { command: `git diff --stat src/module${n % 40}` } }, ok: true };
  }
}

/**
 * Where the service stores its sessions, reduced to what the process holds of it: nothing but revisions.
 * Each record is still written out as the KV bucket's store writes it (JSON, then bytes) and let go, so
 * that the garbage of every event is the service's.
 */
const encoder = new TextEncoder();
const bucket = {
  get: () => Promise.resolve(undefined),
  write: (_key: string, value: unknown, revision: number | undefined) => {
    encoder.encode(JSON.stringify(value));
    return Promise.resolve((revision ?? 0) + 1);
  },
  keys: () => Promise.resolve([]),
};

/**
 * A full collection, then time for V8's background threads to sweep and return the pages it freed (a
 * second at least, then until the RSS stops falling, 5 s at most; on a loaded machine that takes
 * longer): the memory a service holds between its events, not in the instant a collection ends.
 */
async function settle(gc: (() => void) | undefined): Promise<void> {
  if (!gc) return;
  for (let i = 0; i < 2; i++) {
    gc();
    let rss = process.memoryUsage.rss();
    for (let waited = 250; waited <= 5000; waited += 250) {
      await new Promise((resolve) => setTimeout(resolve, 250));
      const now = process.memoryUsage.rss();
      const fell = rss - now;
      rss = now;
      if (waited >= 1000 && fell < 1024 * 1024) break;
    }
  }
}

export async function measurePatternDetector(options: Omit<Options, 'json'>) {
  const gc = (globalThis as { gc?: () => void }).gc;
  await settle(gc);
  const before = process.memoryUsage();
  const start = Date.parse('2026-03-02T09:00:00Z');
  let evaluated = 0;
  const patterns = new PatternSessions({
    settings,
    knowledge: [],
    partitions: 1,
    store: bucket,
    publish: () => Promise.resolve(),
    timing: { evaluated: (_event, ms) => (evaluated = ms), handled: () => undefined },
  });
  const next: number[] = [];
  const clock: number[] = [];
  /** Applies one message to session `i` as the service does; the time of applying it and running the detectors. */
  const apply = async (i: number, type: MessageType, payload: unknown, at: number, change: (p: SessionPatterns) => PatternReport[]): Promise<number> => {
    const message = createMessage(type, { agent_id: `agent-${i % 100}`, session_id: `session-${i}`, timestamp: new Date(at).toISOString(), payload: payload as never }) as AnyMessage;
    await patterns.apply(message, at, type, change);
    return evaluated;
  };
  for (let i = 0; i < options.sessions; i++) {
    const started = { context: { goal: `Fix the failing handler in src/module${i % 40}/file1.ts`, cwd: `/home/dev/projects/p${i % 50}`, expected_paths: ['src/**', 'test/**'] }, phase: 'implementation' as const };
    await apply(i, 'session.started', started, start, (p) => p.started(start, started));
    next.push(0);
    clock.push(start);
  }
  /** Applies the next event of session `i`: its next action, or that action's outcome. */
  const step = (i: number): Promise<number> => {
    const n = next[i]!++;
    const a = action(i, n >> 1);
    clock[i]! += 2500;
    const at = clock[i]!;
    if (n % 2 === 0) return apply(i, 'action.proposed', a.action, at, (p) => p.actionProposed(at, a.action));
    const tokens = { prompt: 6000 + (n % 50) * 100, completion: 300 };
    const outcome = {
      action_id: a.action.action_id,
      status: a.ok ? ('success' as const) : ('error' as const),
      ...(a.ok ? {} : { error: { message: `TypeError: Cannot read properties of undefined (reading 'id') at src/module${n % 40}.ts:${n % 90}:7`, class: 'TypeError' } }),
      ...(a.files ? { files_touched: a.files } : {}),
      model: 'claude-sonnet-4-5-20250929',
      tokens,
      output_excerpt: n % 4 === 0 ? 'running' : `ok ${n % 7}`,
      ...(n % 10 === 1 ? { progress: { files_modified: n % 20 === 1 ? 1 : 0, lines_added: n } } : {}),
    };
    return apply(i, 'action.outcome', outcome, at, (p) => p.outcomeReported(at, outcome, priceOf(settings.resource_spiral.pricing, 'claude-sonnet-4-5-20250929', tokens)));
  };
  // Fill every session's windows: max_actions actions with their outcomes each.
  for (let round = 0; round < settings.window.max_actions * 2; round++) for (let i = 0; i < options.sessions; i++) await step(i);
  await settle(gc);
  const filled = process.memoryUsage();
  let snapshotBytes = 0;
  const held = patterns.keeper.heldSessions();
  for (let i = 0; i < held.length; i += Math.max(1, Math.floor(held.length / 200))) snapshotBytes = Math.max(snapshotBytes, JSON.stringify(held[i]!.session.snapshot).length);
  for (let k = 0; k < options.warmup; k++) await step((k * 7919) % options.sessions);
  const samples: number[] = [];
  for (let k = 0; k < options.count; k++) samples.push(await step((k * 7919 + 13) % options.sessions));
  return {
    sessions: options.sessions,
    windowActions: settings.window.max_actions,
    event: summariseLatencies(samples),
    memory: {
      gcExposed: !!gc,
      heapUsedMb: Math.round((filled.heapUsed / MB) * 10) / 10,
      rssMb: Math.round((filled.rss / MB) * 10) / 10,
      heapPerSessionKb: Math.round(((filled.heapUsed - before.heapUsed) / options.sessions / 1024) * 10) / 10,
      largestSnapshotKb: Math.round((snapshotBytes / 1024) * 10) / 10,
    },
  };
}

async function main(): Promise<void> {
  let options: Options;
  try {
    options = parseOptions(process.argv.slice(2));
  } catch (error) {
    process.stderr.write(`pattern-benchmark: ${(error as Error).message}\n`);
    process.exit(2);
  }
  const figures = await measurePatternDetector(options);
  if (options.json) {
    process.stdout.write(`${JSON.stringify(figures)}\n`);
    return;
  }
  const e = figures.event;
  const m = figures.memory;
  process.stdout.write(
    [
      `Pattern detection in process, ${figures.sessions} active sessions with full windows (${figures.windowActions} actions each)`,
      `per event (apply + 11 detectors): p50 ${e.p50Ms} ms, p95 ${e.p95Ms} ms, p99 ${e.p99Ms} ms, p999 ${e.p999Ms} ms, max ${e.maxMs} ms over ${e.count} events`,
      `memory: heap ${m.heapUsedMb} MB, RSS ${m.rssMb} MB, ${m.heapPerSessionKb} KB heap per session, largest stored snapshot ${m.largestSnapshotKb} KB${m.gcExposed ? '' : ' (run with --expose-gc for steadier figures)'}`,
      '',
    ].join('\n'),
  );
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
