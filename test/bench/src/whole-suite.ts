import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import type { JetStreamManager } from '@nats-io/jetstream';
import type { ServiceName } from '@warden/contracts';
import { TOPOLOGY_DEFAULTS } from '@warden/messaging';
import { TestPostgres } from '@warden/testing';
import { BENCH_BREAKER_CONFIG } from './breaker-time.js';
import { pendingFor, startFromNewMessages } from './consumers.js';
import { CpuMeter, type CpuPerAction, type CpuShares } from './cpu.js';
import { messagesPerAction, messagesPerActionLine, serverMessagesPerAction, snapshotBus, type MessagesPerAction } from './message-counts.js';
import type { BenchEnvironment } from './environment.js';
import { measureSuiteHook, type SuiteHookFigures } from './hook-latency.js';
import type { BacklogProbe, LoadDriver, LoadResult } from './load.js';
import type { BenchOptions } from './options.js';
import type { Progress, ProgressStatus } from './progress.js';
import { ms, num } from './report.js';

/** The services that run beside the decision path (reviewer and gate), started for the whole-suite phases. */
export const BESIDE_THE_PATH = ['breaker', 'pattern-detector', 'intervention-controller', 'ladder', 'audit'] as const satisfies readonly ServiceName[];
const SUITE: readonly ServiceName[] = ['reviewer', 'gate', ...BESIDE_THE_PATH];

export interface IdleFigures {
  durationS: number;
  /** CPU of each process over the idle window, % of one core. */
  cpuPercent: CpuShares;
  /** The suite's processes together (nats-server and the services; not the benchmark itself), % of one core. */
  suiteCpuPercent: number;
  /** Resident memory of each process at the end of the window, MB. */
  rssMb: Record<string, number | null>;
  suiteRssMb: number;
  /** Messages the services still had to handle when the window started (0: the suite was idle). */
  pendingAtStart: number;
  /** Seconds from the end of the load to the start of the window. */
  afterLoadS: number;
  /**
   * The same figures over the first seconds after the load, while nats-server still forgets the ids of the
   * messages it stored (the streams' duplicate window) and the services let go of what the load left.
   */
  coolDown: Omit<IdleFigures, 'pendingAtStart' | 'coolDown' | 'afterLoadS' | 'rssMb' | 'suiteRssMb'>;
}

/**
 * The idle window starts this long after the load: nats-server keeps each stored message's id for the
 * streams' duplicate window (2 minutes) and forgets them one by one as they age out, which is the load's
 * work, not the idle suite's.
 */
export const IDLE_SETTLE_MS = TOPOLOGY_DEFAULTS.duplicateWindowMs + 5_000;

export interface WholeSuiteFigures {
  latency: LoadResult;
  /** The HTTP hook as a user meets it, one agent calling one tool after another, the rest of the suite idle. */
  hook: SuiteHookFigures;
  /** What the latency phase's actions cost the bus, each on average (everything they caused, handled to the end). */
  messages: MessagesPerAction;
  /** The CPU of nats-server and every service per action of the latency phase, from its start until the suite handled all it caused. */
  cpuPerAction: CpuPerAction;
  idle: IdleFigures;
  services: string[];
}

/** Resident set size of a process in MB, from /proc; null when it cannot be read. */
export function rssMb(pid: number | undefined): number | null {
  if (pid === undefined) return null;
  try {
    const line = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return line ? Math.round(Number(line[1]) / 102.4) / 10 : null;
  } catch {
    return null;
  }
}

export interface WholeSuiteContext {
  options: BenchOptions;
  progress: Progress;
  env: BenchEnvironment;
  jsm: JetStreamManager;
  driver: LoadDriver;
  cpu: CpuMeter;
  probeBacklog: () => Promise<BacklogProbe>;
  withServiceFigures: (phase: () => Promise<LoadResult>) => Promise<LoadResult>;
  /** Disconnects the benchmark's agents, so that the idle window has none connected. */
  disconnectAgents: () => Promise<void>;
}

const sleep = (milliseconds: number) => new Promise((resolve) => setTimeout(resolve, milliseconds));

/**
 * The whole suite: breaker, pattern detector, intervention controller, ladder and audit (into a real
 * PostgreSQL) and the gateway started beside reviewer and gate, each from new messages. Then the latency
 * phase's load once more (what the neighbours cost the decision path), and, with every agent
 * disconnected and the backlog handled, an idle window: what the suite costs when nobody uses it.
 */
export async function measureWholeSuite(ctx: WholeSuiteContext): Promise<WholeSuiteFigures> {
  const { options, progress, env, jsm } = ctx;
  const status = (name: string) => (s: Parameters<Progress['phase']>[1]) => progress.phase(name, s);
  progress.phase('starting PostgreSQL and the rest of the suite');
  const postgres = await TestPostgres.start();
  try {
    const databaseUrl = await postgres.createDatabase('warden_bench_suite');
    const breakerConfig = join(env.logDir, 'breakers-suite.yaml');
    writeFileSync(breakerConfig, BENCH_BREAKER_CONFIG);
    const settings: Partial<Record<ServiceName, Record<string, string>>> = { audit: { DATABASE_URL: databaseUrl }, breaker: { BREAKER_CONFIG: breakerConfig } };
    for (const app of BESIDE_THE_PATH) {
      await startFromNewMessages(jsm, app, options.partitions);
      const service = await env.startService(app, settings[app] ?? {});
      progress.note(`${app} ready at ${service.url} (pid ${service.pid})`);
    }
    // The agents' HTTP edge is part of the suite at rest (the hook phase stopped its own).
    const gateway = env.services.find((s) => s.app === 'gateway' && s.running) ?? (await env.startService('gateway'));
    progress.note(`gateway ready at ${gateway.url} (pid ${gateway.pid})`);
    const maxBacklog = Math.max(1_000, options.rate * 2);
    const warm = `whole suite warm-up ${num(options.rate)}/s for ${Math.min(5, options.warmupS)} s`;
    await ctx.driver.openLoop({ label: 'suite-warmup', rate: options.rate, durationS: Math.min(5, options.warmupS), maxBacklog, status: status(warm) });
    // Counted from a suite with nothing left to handle to the same again: all that the phase's actions caused.
    await drain(jsm, options.partitions);
    const busBefore = await snapshotBus(jsm);
    const trafficBefore = await env.connectionTraffic();
    const cpuUntilHandled = new CpuMeter(() => suitePids(env));
    cpuUntilHandled.begin();
    const name = `latency with the whole suite ${num(options.rate)}/s for ${options.durationS} s`;
    const latency = await ctx.withServiceFigures(() =>
      ctx.driver.openLoop({ label: 'latency-whole-suite', rate: options.rate, durationS: options.durationS, maxBacklog, status: status(name), cpu: ctx.cpu, probeBacklog: ctx.probeBacklog }),
    );
    progress.note(`latency with the whole suite @ ${num(options.rate)}/s: p50 ${ms(latency.latency.p50)}, p99 ${ms(latency.latency.p99)}; ${latency.lost} lost of ${num(latency.sent)}`);

    await ctx.disconnectAgents();
    progress.phase('whole suite: handling the backlog before the idle window');
    let pendingAtStart = await drain(jsm, options.partitions);
    const cpuPerAction = cpuUntilHandled.perAction(latency.sent);
    const messages = {
      ...messagesPerAction(busBefore, await snapshotBus(jsm), latency.sent),
      serverMessages: serverMessagesPerAction(trafficBefore, await env.connectionTraffic(), latency.sent),
    };
    progress.note(messagesPerActionLine(messages));
    progress.note(cpuPerActionLine(cpuPerAction));
    // Then what one agent's Claude Code waits for per tool call, nothing else asked of the suite.
    const agent = env.agent(0);
    const hook = await measureSuiteHook({ gatewayUrl: gateway.url, agentId: agent.agentId, password: agent.password, calls: options.hookCalls }, (text) => progress.phase(text));
    progress.note(suiteHookLine(hook));
    const loadEnded = performance.now();
    pendingAtStart += await drain(jsm, options.partitions);
    const settleMs = options.quick ? 0 : IDLE_SETTLE_MS;
    const sinceLoad = () => performance.now() - loadEnded;
    const coolDownS = Math.max(1, Math.min(options.idleS, Math.floor((settleMs - sinceLoad()) / 1000)));
    const coolDown = await measureIdle(() => suitePids(env), coolDownS, status(`suite cooling down after the load, ${coolDownS} s`));
    progress.note(`first ${coolDownS} s after the load: ${coolDown.suiteCpuPercent}% of one core (nats-server ${coolDown.cpuPercent['nats-server'] ?? 'n/a'}%)`);
    if (sinceLoad() < settleMs) {
      status(`waiting for the streams' duplicate window to pass since the load, ${Math.round(settleMs / 1000)} s`)(() => ({ done: Math.min(1, sinceLoad() / settleMs) }));
      await sleep(settleMs - sinceLoad());
    }
    const afterLoadS = Math.round(sinceLoad() / 1000);
    // With --profile, nats-server's CPU over the same window (the services' profiles cover their whole run).
    const natsProfile = env.profileNats('idle', options.idleS);
    const idle = await measureIdle(() => suitePids(env), options.idleS, status(`idle suite, no agent connected, ${options.idleS} s`));
    const natsProfileFile = await natsProfile;
    if (natsProfileFile) progress.note(`nats-server's CPU profile of the idle window: ${natsProfileFile}`);
    progress.note(
      `idle suite (${SUITE.length} services + gateway + nats-server, no agent), from ${afterLoadS} s after the load: ${idle.suiteCpuPercent}% of one core, ${num(idle.suiteRssMb)} MB RSS in all` +
        (pendingAtStart ? ` (${pendingAtStart} messages still pending when it started)` : ''),
    );
    const { rssMb: _rss, suiteRssMb: _suiteRss, ...coolDownCpu } = coolDown;
    return { latency, hook, messages, cpuPerAction, idle: { ...idle, pendingAtStart, afterLoadS, coolDown: coolDownCpu }, services: [...SUITE, 'gateway'] };
  } finally {
    for (const service of env.services.filter((s) => [...BESIDE_THE_PATH, 'gateway'].includes(s.app) && s.running)) await service.stop();
    await postgres.destroy();
  }
}

/** Waits (at most a minute) until no service has messages left to handle; returns what was still pending. */
async function drain(jsm: JetStreamManager, partitions: number): Promise<number> {
  const started = performance.now();
  for (;;) {
    let pending = 0;
    for (const service of SUITE) pending += await pendingFor(jsm, service, partitions);
    if (pending === 0 || performance.now() - started > 60_000) return pending;
    await sleep(500);
  }
}

function suitePids(env: BenchEnvironment): Record<string, number | undefined> {
  const { bench: _bench, ...suite } = env.pids();
  return suite;
}

/** CPU and memory of every process over a window in which nothing is asked of them. */
export async function measureIdle(
  pids: () => Record<string, number | undefined>,
  durationS: number,
  status: (status: () => ProgressStatus) => void,
): Promise<Omit<IdleFigures, 'pendingAtStart' | 'afterLoadS' | 'coolDown'>> {
  const meter = new CpuMeter(pids);
  const started = performance.now();
  status(() => ({ done: Math.min(1, (performance.now() - started) / (durationS * 1000)) }));
  meter.begin();
  await sleep(durationS * 1000);
  const cpuPercent = meter.end();
  const rss = Object.fromEntries(Object.entries(pids()).map(([name, pid]) => [name, rssMb(pid)]));
  const sum = (values: (number | null)[]) => Math.round(values.reduce<number>((total, v) => total + (v ?? 0), 0) * 10) / 10;
  return { durationS, cpuPercent, suiteCpuPercent: sum(Object.values(cpuPercent)), rssMb: rss, suiteRssMb: sum(Object.values(rss)) };
}

/** The whole-suite phases for the printed report. */
export function wholeSuiteLines(figures: WholeSuiteFigures): string[] {
  const { latency, idle } = figures;
  const each = (values: Record<string, number | null>, unit: string) =>
    Object.entries(values)
      .map(([name, v]) => `${name} ${v === null ? 'n/a' : `${v}${unit}`}`)
      .join(', ');
  return [
    `Whole suite (${figures.services.join(', ')}) @ ${num(latency.offeredRate ?? 0)}/s: decision p50 ${ms(latency.latency.p50)}, p99 ${ms(latency.latency.p99)}, ` +
      `${latency.lost} lost; CPU % of one core: ${each(latency.cpu ?? {}, '%')}`,
    `Idle suite over ${idle.durationS} s from ${idle.afterLoadS} s after the load, no agent connected: ${idle.suiteCpuPercent}% of one core in all (${each(idle.cpuPercent, '%')}); ` +
      `RSS ${num(idle.suiteRssMb)} MB in all (${each(idle.rssMb, ' MB')})`,
    `Cooling down, the first ${idle.coolDown.durationS} s after the load: ${idle.coolDown.suiteCpuPercent}% of one core in all (${each(idle.coolDown.cpuPercent, '%')})`,
    messagesPerActionLine(figures.messages),
    cpuPerActionLine(figures.cpuPerAction),
    suiteHookLine(figures.hook),
  ];
}

function cpuPerActionLine(cpu: CpuPerAction): string {
  const each = Object.entries(cpu.byProcessMs)
    .filter(([, v]) => v !== null)
    .sort(([, a], [, b]) => (b ?? 0) - (a ?? 0))
    .map(([name, v]) => `${name} ${v}`)
    .join(', ');
  return `CPU per action with the whole suite (${num(cpu.actions)} actions, from the load's start until all they caused was handled, ${cpu.seconds} s): ${cpu.totalMs} ms in all (${each})`;
}

function suiteHookLine(hook: SuiteHookFigures): string {
  return (
    `H with the whole suite: HTTP hook per PreToolUse p50 ${ms(hook.latency.p50)}, p99 ${ms(hook.latency.p99)} (${num(hook.calls)} sequential calls of one agent, each with its PostToolUse; ` +
    `target ${hook.target}: ${hook.met ? 'met' : 'NOT met'})`
  );
}
