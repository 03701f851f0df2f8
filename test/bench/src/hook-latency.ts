import { spawn } from 'node:child_process';
import { Agent, request } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { WORKSPACE_ROOT } from '@warden/local-runtime';
import type { WardenClient } from '@warden/sdk';
import type { AgentEndpointFigures, ShimFigures } from './agent-endpoints.js';
import { round, roundSummary, Samples, type LatencySummary } from './stats.js';

const WARDEN = join(WORKSPACE_ROOT, 'apps/cli/bin/warden.js');

export interface HookFigures {
  /** Sequential PreToolUse calls through the HTTP hook, and as many SDK proposals, interleaved. */
  http: {
    calls: number;
    latency: LatencySummary;
    sdk: LatencySummary;
    addedP50Ms: number;
    addedP99Ms: number;
    addedP50Target: string;
    addedP50Met: boolean;
    /** The gateway's own time per PreToolUse (its histogram's mean over the measured calls), receipt to answer. */
    inGatewayMeanMs: number;
    /**
     * The floor: the same POST to a bare Node HTTP server in its own process that reads the body and
     * answers 200 with nothing, interleaved with the other two. What any HTTP endpoint in Node costs here.
     */
    bareHttp: LatencySummary;
    /** HTTP hook p50 minus the SDK's p50 and the bare exchange's p50: the gateway's part beyond HTTP itself. */
    beyondHttpP50Ms: number;
  };
  /** Wall time of `warden hook` (a PreToolUse answered) beside a bare `node -e 0`, interleaved. */
  command: { runs: number; wallMs: LatencySummary; nodeMs: LatencySummary; roundTripP50Ms: number; boundMs: number; target: string; met: boolean };
  /** Each agent's endpoint beside Claude Code's (agent-endpoints.ts). */
  endpoints?: AgentEndpointFigures;
  /** The command shim as installed, per agent it serves, beside `node -e 0`. */
  shims?: ShimFigures;
}

export interface HookPhaseOptions {
  gatewayUrl: string;
  agentId: string;
  password: string;
  natsUrl: string;
  /** The SDK client of the same agent, for the decision round trip beside the hooks. */
  client: WardenClient;
  calls: number;
  runs: number;
}

const read = (i: number) => ({ file_path: `/work/app/src/module-${i % 50}.ts` });

/** The HTTP hook as a user meets it: the whole suite up, one agent calling one tool after another. */
export interface SuiteHookFigures {
  calls: number;
  /** PreToolUse, sent to its answer. */
  latency: LatencySummary;
  target: string;
  met: boolean;
}

/** Calls per session in the whole-suite hook measurement. */
const CALLS_PER_SESSION = 10;

/** What a user's hook should wait for at most per tool call with the whole suite running. */
export const SUITE_HOOK_TARGET = { p50Ms: 5, p99Ms: 15 } as const;

/**
 * The HTTP hook with the whole suite up (breaker, pattern detector, intervention controller, ladder and audit
 * beside reviewer and gate): sequential PreToolUse calls of one agent (ten to a session), each followed by its PostToolUse as
 * Claude Code sends it (not timed: Claude Code does not wait on it before the next call's decision), so that
 * every service handles each action and its outcome as in a real session.
 */
export async function measureSuiteHook(options: { gatewayUrl: string; agentId: string; password: string; calls: number }, status: (text: string) => void): Promise<SuiteHookFigures> {
  const run = Date.now().toString(36);
  const authorization = `Bearer ${options.agentId}.${options.password}`;
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const url = new URL(`${options.gatewayUrl}/hooks/claude-code`);
  const samples = new Samples();
  const warmup = Math.max(20, Math.round(options.calls / 10));
  try {
    for (let i = 0; i < warmup + options.calls; i++) {
      // A session of a few calls: a hundred reads a second in one session is a spiral the suite rightly stops.
      const session = `suite-hook-${run}-${Math.floor(i / CALLS_PER_SESSION)}`;
      const id = `toolu_w${run}${i}`;
      const started = performance.now();
      const response = await post(agent, url, authorization, JSON.stringify(preToolUse(session, id, read(i))));
      // After the load the suite may still tell this agent something (a throttling note): only a refusal is wrong.
      if (response.status !== 200 || /"permissionDecision":"(?:deny|ask)"/.test(response.body)) throw new Error(`the HTTP hook answered ${response.status} ${response.body.slice(0, 300)} to a harmless Read`);
      if (i >= warmup) samples.add(performance.now() - started);
      const outcome = { ...preToolUse(session, id, read(i)), hook_event_name: 'PostToolUse', tool_response: { type: 'text', file: { filePath: read(i).file_path, content: 'export {};' } } };
      const after = await post(agent, url, authorization, JSON.stringify(outcome));
      if (after.status !== 200) throw new Error(`the HTTP hook answered ${after.status} to a PostToolUse`);
      if (i % 100 === 0) status(`H (whole suite): HTTP hook, ${i}/${warmup + options.calls}`);
    }
  } finally {
    agent.destroy();
  }
  const latency = samples.summary();
  return {
    calls: options.calls,
    latency,
    target: `p50 <= ${SUITE_HOOK_TARGET.p50Ms} ms, p99 <= ${SUITE_HOOK_TARGET.p99Ms} ms`,
    met: latency.p50 <= SUITE_HOOK_TARGET.p50Ms && latency.p99 <= SUITE_HOOK_TARGET.p99Ms,
  };
}

function preToolUse(sessionId: string, toolUseId: string, input: Record<string, unknown>) {
  return { session_id: sessionId, transcript_path: '/work/app/none.jsonl', cwd: '/work/app', hook_event_name: 'PreToolUse', permission_mode: 'default', tool_name: 'Read', tool_input: input, tool_use_id: toolUseId };
}

/** One POST on a kept-alive connection (as a hook client keeps it); resolves with the status and body. */
function post(agent: Agent, url: URL, authorization: string, body: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(
      { agent, host: url.hostname, port: url.port, path: url.pathname, method: 'POST', headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), authorization } },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (d) => (text += d));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/** A bare HTTP server in a child process on a free loopback port: reads the body, answers 200 empty. */
async function startBareHttp(): Promise<{ url: URL; stop(): void }> {
  const source =
    "const s=require('node:http').createServer((q,r)=>{q.resume();q.on('end',()=>{r.writeHead(200,{'content-length':0});r.end();});});" +
    "s.keepAliveTimeout=60000;s.listen(0,'127.0.0.1',()=>process.stdout.write(String(s.address().port)+'\\n'));";
  const child = spawn(process.execPath, ['-e', source], { stdio: ['ignore', 'pipe', 'inherit'] });
  const port = await new Promise<number>((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`the bare HTTP server exited with ${code}`)));
    child.stdout.once('data', (d: Buffer) => resolve(Number(d.toString().trim())));
  });
  return { url: new URL(`http://127.0.0.1:${port}/hooks/claude-code`), stop: () => child.kill() };
}

/** The gateway's PreToolUse histogram: sum (s) and count. */
async function gatewayTime(gatewayUrl: string): Promise<{ sum: number; count: number }> {
  const text = await (await fetch(`${gatewayUrl}/metrics`)).text();
  const value = (name: string) => Number(new RegExp(`^${name}\\{[^}]*event="PreToolUse"[^}]*\\} ([0-9.e+-]+)$`, 'm').exec(text)?.[1] ?? 0);
  return { sum: value('warden_gateway_hook_call_seconds_sum'), count: value('warden_gateway_hook_call_seconds_count') };
}

/** Runs a process to its end, `stdin` piped in; resolves with its wall time in ms (spawn to exit). */
function timed(args: string[], stdin: string, env: NodeJS.ProcessEnv): Promise<{ ms: number; code: number | null; stdout: string }> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, args, { env, stdio: ['pipe', 'pipe', 'ignore'] });
    let stdout = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.on('error', reject);
    child.on('exit', (code) => resolve({ ms: performance.now() - started, code, stdout }));
    child.stdin.end(stdin);
  });
}

/**
 * H: what Claude Code waits for per tool call. Over HTTP: sequential PreToolUse calls to the gateway
 * (one agent, keep-alive, as Claude Code makes them one at a time) interleaved with as many SDK
 * proposals of the same action by the same agent and as many POSTs to a bare Node HTTP server, so that
 * all three see the same machine; the endpoint's share is the difference, the bare exchange its floor. As a command: `warden hook` runs (a new process each, the bundled entry
 * point) interleaved with bare `node -e 0` runs, against the bound 2 x node + the SDK's round trip.
 */
export async function measureHooks(options: HookPhaseOptions, status: (text: string) => void): Promise<HookFigures> {
  const run = Date.now().toString(36);
  const authorization = `Bearer ${options.agentId}.${options.password}`;
  const http = new Samples();
  const sdk = new Samples();
  const bare = new Samples();
  const bareServer = await startBareHttp();
  const bareAgent = new Agent({ keepAlive: true, maxSockets: 1 });
  const warmup = Math.max(20, Math.round(options.calls / 10));
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const url = new URL(`${options.gatewayUrl}/hooks/claude-code`);
  let before = { sum: 0, count: 0 };
  for (let i = 0; i < warmup + options.calls; i++) {
    const measured = i >= warmup;
    if (i === warmup) before = await gatewayTime(options.gatewayUrl);
    let started = performance.now();
    const response = await post(agent, url, authorization, JSON.stringify(preToolUse(`hook-bench-${run}`, `toolu_h${run}${i}`, read(i))));
    if (response.status !== 200 || response.body !== '') throw new Error(`the HTTP hook answered ${response.status} ${response.body.slice(0, 300)} to a harmless Read`);
    if (measured) http.add(performance.now() - started);
    started = performance.now();
    const decision = await options.client.session(`sdk-bench-${run}`).propose({ tool: 'Read', input: read(i), actionId: `toolu_s${run}${i}` });
    if (!decision.allowed) throw new Error(`the SDK got ${decision.decidedBy}: ${decision.reason}`);
    if (measured) sdk.add(performance.now() - started);
    started = performance.now();
    const floor = await post(bareAgent, bareServer.url, authorization, JSON.stringify(preToolUse(`hook-bench-${run}`, `toolu_b${run}${i}`, read(i))));
    if (floor.status !== 200) throw new Error(`the bare HTTP server answered ${floor.status}`);
    if (measured) bare.add(performance.now() - started);
    if (i % 100 === 0) status(`H: HTTP hook and SDK, ${i}/${warmup + options.calls}`);
  }
  const after = await gatewayTime(options.gatewayUrl);
  agent.destroy();
  bareAgent.destroy();
  bareServer.stop();
  const httpSummary = http.summary();
  const sdkSummary = sdk.summary();
  const bareSummary = bare.summary();

  const project = mkdtempSync(join(tmpdir(), 'hook-bench-'));
  try {
    const env = {
      ...process.env,
      CLAUDE_PROJECT_DIR: project,
      WARDEN_NATS_URL: options.natsUrl,
      WARDEN_AGENT_ID: options.agentId,
      WARDEN_AGENT_PASSWORD: options.password,
      WARDEN_HOOK_STATE_DIR: join(project, 'state'),
    };
    const wall = new Samples();
    const node = new Samples();
    // The first run declares the session and writes the bundle's code cache (after a whole call, as in
    // Claude Code's first call): not measured.
    rmSync(join(WORKSPACE_ROOT, 'apps/cli/dist/hook.bundle.cjs.v8cache'), { force: true });
    for (let i = -1; i < options.runs; i++) {
      const hook = await timed([WARDEN, 'hook'], JSON.stringify(preToolUse(`command-bench-${run}`, `toolu_c${run}${i + 1}`, read(i + 1))), env);
      if (hook.code !== 0 || hook.stdout !== '') throw new Error(`warden hook exited ${hook.code} with ${hook.stdout.slice(0, 300)} for a harmless Read`);
      const bare = await timed(['-e', '0'], '', env);
      if (i >= 0) {
        wall.add(hook.ms);
        node.add(bare.ms);
      }
      status(`H: warden hook beside node -e 0, ${i + 1}/${options.runs}`);
    }
    const wallMs = wall.summary();
    const nodeMs = node.summary();
    const boundMs = 2 * nodeMs.p50 + sdkSummary.p50;
    return {
      http: {
        calls: options.calls,
        latency: roundSummary(httpSummary),
        sdk: roundSummary(sdkSummary),
        addedP50Ms: round(httpSummary.p50 - sdkSummary.p50),
        addedP99Ms: round(httpSummary.p99 - sdkSummary.p99),
        addedP50Target: '<= 1 ms',
        addedP50Met: httpSummary.p50 - sdkSummary.p50 <= 1,
        bareHttp: roundSummary(bareSummary),
        beyondHttpP50Ms: round(httpSummary.p50 - sdkSummary.p50 - bareSummary.p50),
        inGatewayMeanMs: round(after.count > before.count ? ((after.sum - before.sum) / (after.count - before.count)) * 1000 : Number.NaN),
      },
      command: {
        runs: options.runs,
        wallMs: roundSummary(wallMs),
        nodeMs: roundSummary(nodeMs),
        roundTripP50Ms: round(sdkSummary.p50),
        boundMs: round(boundMs),
        target: 'p50 <= 2 x node -e 0 p50 + SDK round trip p50',
        met: wallMs.p50 <= boundMs,
      },
    };
  } finally {
    rmSync(project, { recursive: true, force: true });
  }
}
