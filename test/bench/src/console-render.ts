import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { WardenClient } from '@warden/sdk';
import { browser, eventually, logIn, measureFirstRender, WardenUp, type FirstRender } from '@warden/testing';
import type { machineInfo } from './machine.js';
import type { BenchOptions } from './options.js';
import { ms, num } from './report.js';
import { round } from './stats.js';

/** The console's target: first render of the sessions page with 1,000 live sessions. */
export const CONSOLE_FIRST_RENDER_TARGET_MS = 1000;
const AGENT = 'bench-console-agent';

export interface ConsoleRenderFigures {
  sessions: number;
  loads: number;
  /** Rows on the page at each load (every live session is a row). */
  rows: number;
  firstFrameWithRowsMs: { p50: number; max: number };
  firstContentfulPaintMs: { p50: number; max: number };
  /** The sessions page's HTML as it travelled (compressed). */
  transferBytes: number;
  targetMs: number;
  /** The median load's first frame with rows within the target. */
  met: boolean;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor((sorted.length - 1) / 2)]!;
}

/**
 * C: the operator console as a person uses it: `warden up`, an agent with `sessions` live sessions,
 * an operator logged in with Debian's Chromium; the sessions page loaded `loads` times in new tabs.
 */
export async function measureConsoleRender(options: { sessions: number; loads: number }, phase: (text: string) => void): Promise<ConsoleRenderFigures> {
  phase('C: starting warden up');
  const up = await WardenUp.start([AGENT]);
  let agent: WardenClient | undefined;
  let person: Awaited<ReturnType<typeof browser>> | undefined;
  try {
    agent = await WardenClient.connect({ servers: up.service.servers, agentId: AGENT, password: up.agentPassword(AGENT), decisionTimeoutMs: 60_000 });
    const before = await up.sessionsFollowed();
    const runTag = Date.now().toString(36);
    for (let i = 0; i < options.sessions; i += 50) {
      phase(`C: starting sessions ${num(i)} of ${num(options.sessions)}`);
      await Promise.all(
        Array.from({ length: Math.min(50, options.sessions - i) }, async (_, j) => {
          const session = agent!.session(`console-${runTag}-${i + j}`);
          await session.start({ context: { goal: `Bench session ${i + j}`, expected_paths: ['/work/app/**'], cwd: '/work/app' } });
          await session.propose({ tool: 'Read', input: { file_path: `/work/app/src/file-${i + j}.ts` } });
        }),
      );
    }
    await eventually('the console following every session', () => up.sessionsFollowed(), (n) => n >= before + options.sessions, { timeoutMs: 120_000 });
    const added = await up.warden(['operator', 'add', 'bench-viewer', '--role', 'viewer']);
    const password = /console password\s+(\S+)/.exec(added.stdout)?.[1];
    if (added.code !== 0 || !password) throw new Error(`warden operator add failed (${added.code}): ${added.stderr || added.stdout}`);
    person = await browser();
    const page = await person.context.newPage();
    await logIn(page, up.consoleUrl, 'bench-viewer', password);
    await page.close();
    const renders: FirstRender[] = [];
    for (let k = 0; k < options.loads; k++) {
      phase(`C: loading the sessions page ${k + 1} of ${options.loads}`);
      renders.push(await measureFirstRender(person.context, up.consoleUrl));
    }
    const frames = renders.map((r) => r.firstFrameWithRows);
    const paints = renders.map((r) => r.firstContentfulPaint);
    return {
      sessions: options.sessions,
      loads: options.loads,
      rows: Math.min(...renders.map((r) => r.rows)),
      firstFrameWithRowsMs: { p50: round(median(frames)), max: round(Math.max(...frames)) },
      firstContentfulPaintMs: { p50: round(median(paints)), max: round(Math.max(...paints)) },
      transferBytes: median(renders.map((r) => r.transferSize)),
      targetMs: CONSOLE_FIRST_RENDER_TARGET_MS,
      met: median(frames) <= CONSOLE_FIRST_RENDER_TARGET_MS && Math.min(...renders.map((r) => r.rows)) >= options.sessions,
    };
  } finally {
    await person?.close();
    await agent?.close();
    await up.stop();
  }
}

export function consoleLine(c: ConsoleRenderFigures): string {
  return (
    `C: console sessions page with ${num(c.sessions)} live sessions (${num(c.rows)} rows), ${c.loads} loads: first frame with rows p50 ${ms(c.firstFrameWithRowsMs.p50)}, ` +
    `max ${ms(c.firstFrameWithRowsMs.max)}; first contentful paint p50 ${ms(c.firstContentfulPaintMs.p50)}; HTML ${num(Math.round(c.transferBytes / 1024))} KB ` +
    `(target first render <= ${num(c.targetMs)} ms: ${c.met ? 'met' : 'NOT met'})`
  );
}

/** `--console-only`: the console figures alone, written as the run's results. */
export function writeConsoleOnly(options: BenchOptions, startedAt: Date, machine: ReturnType<typeof machineInfo>, figures: ConsoleRenderFigures): number {
  const results = { schema: 'warden-bench/1', startedAt: startedAt.toISOString(), finishedAt: new Date().toISOString(), machine, parameters: { ...options }, console: figures };
  mkdirSync(options.outDir, { recursive: true });
  const file = join(options.outDir, `bench-console-${startedAt.toISOString().replace(/[:.]/g, '-')}.json`);
  writeFileSync(file, `${JSON.stringify(results, null, 2)}\n`);
  process.stdout.write(`\nWarden benchmark ${startedAt.toISOString()} (console only)\n${consoleLine(figures)}\nResults: ${file}\n`);
  return 0;
}
