import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { WardenClient } from '@warden/sdk';
import { measureAgentEndpoints, measureShims } from './agent-endpoints.js';
import type { BenchEnvironment } from './environment.js';
import { measureHooks, type HookFigures } from './hook-latency.js';
import type { machineInfo } from './machine.js';
import type { BenchOptions } from './options.js';
import type { Progress } from './progress.js';
import { ms, num } from './report.js';

/** H: the Claude Code hooks, with the gateway started for the phase and stopped after it. */
export async function runHookPhase(env: BenchEnvironment, progress: Progress, client: WardenClient, options: BenchOptions): Promise<HookFigures> {
  progress.phase('starting gateway');
  const gateway = await env.startService('gateway');
  const agent = env.agent(0);
  const hooks = await measureHooks(
    { gatewayUrl: gateway.url, agentId: agent.agentId, password: agent.password, natsUrl: env.url, client, calls: options.hookCalls, runs: options.hookRuns },
    (text) => progress.phase(text),
  );
  const target = { gatewayUrl: gateway.url, agentId: agent.agentId, password: agent.password };
  hooks.endpoints = await measureAgentEndpoints({ ...target, calls: options.hookCalls }, (text) => progress.phase(text));
  hooks.shims = await measureShims({ ...target, runs: options.hookRuns }, (text) => progress.phase(text));
  for (const line of hookLines(hooks)) progress.note(line);
  progress.phase('stopping gateway');
  await gateway.stop();
  return hooks;
}

/** The hook figures as the report prints them. */
export function hookLines(h: HookFigures): string[] {
  return [
    `H: HTTP hook per PreToolUse p50 ${ms(h.http.latency.p50)}, p99 ${ms(h.http.latency.p99)} beside the SDK's decision round trip p50 ${ms(h.http.sdk.p50)}, p99 ${ms(h.http.sdk.p99)} ` +
      `(${num(h.http.calls)} sequential calls each): the endpoint adds ${ms(h.http.addedP50Ms)} p50 (target ${h.http.addedP50Target}: ${h.http.addedP50Met ? 'met' : 'NOT met'}), ${ms(h.http.addedP99Ms)} p99; ` +
      `in the gateway ${ms(h.http.inGatewayMeanMs)} mean per call, receipt to answer; a bare Node HTTP exchange (the floor) p50 ${ms(h.http.bareHttp.p50)}, ` +
      `p99 ${ms(h.http.bareHttp.p99)}: beyond HTTP itself the endpoint adds ${ms(h.http.beyondHttpP50Ms)} p50`,
    `H: command hook (warden hook) wall time p50 ${ms(h.command.wallMs.p50)}, p99 ${ms(h.command.wallMs.p99)} beside node -e 0 p50 ${ms(h.command.nodeMs.p50)} ` +
      `(${h.command.runs} runs each): bound 2 x node + round trip = ${ms(h.command.boundMs)} (${h.command.met ? 'met' : 'NOT met'})`,
    ...(h.endpoints
      ? [
          `H: each agent's endpoint, p50 / p99 (${num(h.endpoints.calls)} shell calls each, round-robin): ` +
            Object.entries(h.endpoints.latency)
              .map(([agent, l]) => `${agent} ${ms(l.p50)} / ${ms(l.p99)} (${h.endpoints!.ratioToClaudeCodeP50[agent]}x)`)
              .join(', ') +
            ` (target ${h.endpoints.target}: ${h.endpoints.met ? 'met' : `NOT met by ${[...h.endpoints.over, ...h.endpoints.missing.map((a) => `${a} (no call to measure)`)].join(', ')}`})`,
        ]
      : []),
    ...(h.shims
      ? [
          `H: command shim as installed, wall time p50 / p99 (${h.shims.runs} runs each): ` +
            Object.entries(h.shims.wallMs)
              .map(([agent, l]) => `${agent} ${ms(l.p50)} / ${ms(l.p99)} (${h.shims!.ratioToNodeP50[agent]}x)`)
              .join(', ') +
            ` beside node -e 0 p50 ${ms(h.shims.nodeMs.p50)} (target ${h.shims.target}: ${h.shims.met ? 'met' : 'NOT met'})`,
        ]
      : []),
  ];
}

/** `--hooks-only`: the hook figures alone, written as the run's results. */
export function writeHooksOnly(options: BenchOptions, startedAt: Date, machine: ReturnType<typeof machineInfo>, hooks: HookFigures): number {
  const results = { schema: 'warden-bench/1', startedAt: startedAt.toISOString(), finishedAt: new Date().toISOString(), machine, parameters: { ...options }, hooks };
  mkdirSync(options.outDir, { recursive: true });
  const file = join(options.outDir, `bench-hooks-${startedAt.toISOString().replace(/[:.]/g, '-')}.json`);
  writeFileSync(file, `${JSON.stringify(results, null, 2)}\n`);
  process.stdout.write(`\nWarden benchmark ${startedAt.toISOString()} (hooks only)\n${hookLines(hooks).join('\n')}\nResults: ${file}\n`);
  return 0;
}
