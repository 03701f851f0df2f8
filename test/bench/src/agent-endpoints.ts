import { execFile, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { promisify } from 'node:util';
import { AGENT_ADAPTERS, type AgentName } from '@warden/agent-edge';
import { WORKSPACE_ROOT } from '@warden/local-runtime';
import { round, roundSummary, Samples, type LatencySummary } from './stats.js';

const WARDEN = join(WORKSPACE_ROOT, 'apps/cli/bin/warden.js');
const run = promisify(execFile);

/**
 * A shell call as each agent's hook sends it before the tool runs, and the event its installed hook names
 * (the gateway's `?event=`, the command shim's argument); then its outcome as the agent reports it once the
 * tool ran (`afterEvent`, `after`). The shapes are those the agent-hook tests drive through the installed
 * hooks (apps/cli/test/agent-cases/<agent>.ts and opencode-plugin.spec.ts, which cite each agent's document
 * or source).
 */
interface AgentCall {
  event: string;
  payload(sessionId: string, i: number, cwd: string, command: string): unknown;
  afterEvent: string;
  after(sessionId: string, i: number, cwd: string, command: string): unknown;
}

/** What Codex's events before and after a shell call have in common. */
const codexCall = (sessionId: string, i: number, cwd: string, command: string) => ({
  session_id: sessionId,
  turn_id: '1',
  transcript_path: null,
  cwd,
  model: 'gpt-5.5',
  permission_mode: 'default',
  tool_name: 'Bash',
  tool_input: { command },
  tool_use_id: `call_${sessionId}_${i}`,
});

/** Antigravity's trajectory step of a shell call, as its events before and after it carry it. */
const antigravityStep = (sessionId: string, i: number, cwd: string, command: string) => ({
  artifactDirectoryPath: join(cwd, '.brain', sessionId),
  conversationId: sessionId,
  transcriptPath: join(cwd, '.brain', sessionId, 'transcript.jsonl'),
  workspacePaths: [cwd],
  stepIdx: i,
  toolCall: { name: 'run_command', args: { CommandLine: command, Cwd: cwd, WaitMsBeforeAsync: 5000 } },
});

export const AGENT_CALLS: Readonly<Partial<Record<AgentName, AgentCall>>> = {
  'claude-code': {
    event: 'PreToolUse',
    payload: (sessionId, i, cwd, command) => ({ session_id: sessionId, transcript_path: join(cwd, 'none.jsonl'), cwd, hook_event_name: 'PreToolUse', permission_mode: 'default', tool_name: 'Bash', tool_input: { command }, tool_use_id: `toolu_${sessionId}_${i}` }),
    afterEvent: 'PostToolUse',
    after: (sessionId, i, cwd, command) => ({
      session_id: sessionId,
      transcript_path: join(cwd, 'none.jsonl'),
      cwd,
      hook_event_name: 'PostToolUse',
      permission_mode: 'default',
      tool_name: 'Bash',
      tool_input: { command },
      tool_response: { stdout: '', stderr: '', interrupted: false },
      tool_use_id: `toolu_${sessionId}_${i}`,
    }),
  },
  codex: {
    event: 'PreToolUse',
    payload: (sessionId, i, cwd, command) => ({ ...codexCall(sessionId, i, cwd, command), hook_event_name: 'PreToolUse' }),
    afterEvent: 'PostToolUse',
    after: (sessionId, i, cwd, command) => ({ ...codexCall(sessionId, i, cwd, command), hook_event_name: 'PostToolUse', tool_response: '' }),
  },
  cursor: {
    event: 'beforeShellExecution',
    payload: (sessionId, _i, cwd, command) => ({ conversation_id: sessionId, generation_id: 'a1b2c3d4-0000-4000-8000-000000000001', model: 'claude-sonnet-5', cursor_version: '3.10.17', workspace_roots: [cwd], hook_event_name: 'beforeShellExecution', command, cwd }),
    afterEvent: 'afterShellExecution',
    after: (sessionId, _i, cwd, command) => ({ conversation_id: sessionId, generation_id: 'a1b2c3d4-0000-4000-8000-000000000001', model: 'claude-sonnet-5', cursor_version: '3.10.17', workspace_roots: [cwd], hook_event_name: 'afterShellExecution', command, output: '', duration: 40 }),
  },
  copilot: {
    event: 'preToolUse',
    payload: (sessionId, _i, cwd, command) => ({ sessionId, timestamp: Date.now(), cwd, toolName: 'bash', toolArgs: JSON.stringify({ command }) }),
    afterEvent: 'postToolUse',
    after: (sessionId, _i, cwd, command) => ({ sessionId, timestamp: Date.now(), cwd, toolName: 'bash', toolArgs: JSON.stringify({ command }), toolResult: { resultType: 'success', textResultForLlm: '' } }),
  },
  gemini: {
    event: 'BeforeTool',
    payload: (sessionId, _i, cwd, command) => ({ session_id: sessionId, transcript_path: join(cwd, `session-${sessionId}.jsonl`), cwd, hook_event_name: 'BeforeTool', timestamp: new Date().toISOString(), tool_name: 'run_shell_command', tool_input: { command, is_background: false } }),
    afterEvent: 'AfterTool',
    after: (sessionId, _i, cwd, command) => ({
      session_id: sessionId,
      transcript_path: join(cwd, `session-${sessionId}.jsonl`),
      cwd,
      hook_event_name: 'AfterTool',
      timestamp: new Date().toISOString(),
      tool_name: 'run_shell_command',
      tool_input: { command, is_background: false },
      tool_response: { llmContent: '', returnDisplay: '' },
    }),
  },
  antigravity: {
    event: 'PreToolUse',
    payload: (sessionId, i, cwd, command) => antigravityStep(sessionId, i, cwd, command),
    afterEvent: 'PostToolUse',
    after: (sessionId, i, cwd, command) => ({ ...antigravityStep(sessionId, i, cwd, command), error: '' }),
  },
  factory: {
    event: 'PreToolUse',
    payload: (sessionId, _i, cwd, command) => ({ session_id: sessionId, transcript_path: join(cwd, `${sessionId}.jsonl`), cwd, permission_mode: 'auto-medium', hook_event_name: 'PreToolUse', tool_name: 'Execute', tool_input: { command } }),
    afterEvent: 'PostToolUse',
    after: (sessionId, _i, cwd, command) => ({ session_id: sessionId, transcript_path: join(cwd, `${sessionId}.jsonl`), cwd, permission_mode: 'auto-medium', hook_event_name: 'PostToolUse', tool_name: 'Execute', tool_input: { command }, tool_response: '' }),
  },
  opencode: {
    event: 'tool.execute.before',
    payload: (sessionId, i, cwd, command) => ({ hook: 'tool.execute.before', directory: cwd, event: { tool: 'shell', sessionID: sessionId, agent: 'build', messageID: 'msg_1', id: `call_${i}`, input: { command } } }),
    afterEvent: 'tool.execute.after',
    after: (sessionId, i, cwd, command) => ({
      hook: 'tool.execute.after',
      directory: cwd,
      event: { tool: 'shell', sessionID: sessionId, agent: 'build', messageID: 'msg_1', id: `call_${i}`, input: { command }, status: 'completed', result: { output: '' } },
    }),
  },
};

/** A harmless command: the reviewer lets it run, whichever agent proposes it. */
const command = (i: number) => `git status --short src/module-${i % 50}`;

/** Whether an answer lets the call run (an empty body, or the agent's allow: Cursor's `permission: "allow"`). */
const runs = (body: string) => !/"(?:deny|ask|force_ask)"/.test(body);

export interface AgentEndpointFigures {
  /** Sequential calls per agent, round-robin over the agents, so that every endpoint sees the same machine. */
  calls: number;
  /** Each agent's endpoint, POST /hooks/<agent>, a shell call answered. */
  latency: Record<string, LatencySummary>;
  /** Each endpoint's p50 against Claude Code's, the baseline of the same run. */
  ratioToClaudeCodeP50: Record<string, number>;
  target: string;
  /** The agents whose endpoint took longer than the target allows. */
  over: string[];
  /** Agents with an adapter but no call in AGENT_CALLS: not measured. */
  missing: string[];
  met: boolean;
}

function post(agent: Agent, url: URL, authorization: string, body: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(
      { agent, host: url.hostname, port: url.port, path: `${url.pathname}${url.search}`, method: 'POST', headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), authorization } },
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

/** Every agent Warden has an adapter for, Claude Code first. */
const agents = (): AgentName[] => [...AGENT_ADAPTERS.keys()].sort((a, b) => (a === 'claude-code' ? -1 : b === 'claude-code' ? 1 : 0));

/** An agent's call; an agent added without one here is named in the run's figures, not measured. */
const callOf = (name: AgentName): AgentCall => AGENT_CALLS[name]!;
const measurable = (): { measured: AgentName[]; missing: AgentName[] } => ({ measured: agents().filter((name) => AGENT_CALLS[name]), missing: agents().filter((name) => !AGENT_CALLS[name]) });

/** The endpoint may take this much of Claude Code's p50 (the machine's noise between interleaved loops). */
const ENDPOINT_RATIO = 1.05;

/**
 * The decision round trip through each agent's endpoint: the same harmless shell call in each agent's own
 * shape, posted to `/hooks/<agent>` (the installed hook's `?event=`), one call per agent in turn, each agent
 * on its own kept-alive connection, so that all see the same machine; each call's outcome follows it, as
 * the agent reports it, unmeasured (an agent that names no call tells a repeated command from the same
 * hook delivered again by the outcome between them). Target: no endpoint adds more than Claude Code's,
 * its p50 at most 1.05 x Claude Code's of the same run.
 */
export async function measureAgentEndpoints(options: { gatewayUrl: string; agentId: string; password: string; calls: number }, status: (text: string) => void): Promise<AgentEndpointFigures> {
  const id = Date.now().toString(36);
  const authorization = `Bearer ${options.agentId}.${options.password}`;
  const { measured: names, missing } = measurable();
  const cwd = '/work/app';
  const samples = new Map(names.map((name) => [name, new Samples()]));
  const connections = new Map(names.map((name) => [name, new Agent({ keepAlive: true, maxSockets: 1 })]));
  const url = (name: AgentName, event: string) => new URL(`${options.gatewayUrl}/hooks/${name}?event=${encodeURIComponent(event)}`);
  const urls = new Map(names.map((name) => [name, url(name, callOf(name).event)]));
  const afterUrls = new Map(names.map((name) => [name, url(name, callOf(name).afterEvent)]));
  const warmup = Math.max(20, Math.round(options.calls / 10));
  try {
    for (let i = 0; i < warmup + options.calls; i++) {
      for (const name of names) {
        const body = JSON.stringify(callOf(name).payload(`ep-${name}-${id}`, i, cwd, command(i)));
        const started = performance.now();
        const response = await post(connections.get(name)!, urls.get(name)!, authorization, body);
        const took = performance.now() - started;
        if (response.status !== 200 || !runs(response.body)) throw new Error(`/hooks/${name} answered ${response.status} ${response.body.slice(0, 300)} to a harmless shell call`);
        if (i >= warmup) samples.get(name)!.add(took);
        // The command ran: its outcome, as the agent reports it before its next call (not measured).
        const after = await post(connections.get(name)!, afterUrls.get(name)!, authorization, JSON.stringify(callOf(name).after(`ep-${name}-${id}`, i, cwd, command(i))));
        if (after.status !== 200) throw new Error(`/hooks/${name} answered ${after.status} ${after.body.slice(0, 300)} to the outcome of a harmless shell call`);
      }
      if (i % 100 === 0) status(`H: each agent's endpoint, ${i}/${warmup + options.calls}`);
    }
  } finally {
    for (const connection of connections.values()) connection.destroy();
  }
  const latency = Object.fromEntries(names.map((name) => [name, samples.get(name)!.summary()]));
  const baseline = latency['claude-code']!.p50;
  const ratio = Object.fromEntries(names.map((name) => [name, round(latency[name]!.p50 / baseline)]));
  const over = names.filter((name) => latency[name]!.p50 > baseline * ENDPOINT_RATIO);
  return {
    calls: options.calls,
    latency: Object.fromEntries(names.map((name) => [name, roundSummary(latency[name]!)])),
    ratioToClaudeCodeP50: ratio,
    target: `each endpoint's p50 <= ${ENDPOINT_RATIO} x Claude Code's p50`,
    over,
    missing,
    met: over.length === 0 && missing.length === 0,
  };
}

export interface ShimFigures {
  runs: number;
  /** Wall time of the command shim as `warden hook install` wrote it, per agent it serves: `sh <shim> <event>`, a shell call answered. */
  wallMs: Record<string, LatencySummary>;
  /** `node -e 0`, interleaved with the shims. */
  nodeMs: LatencySummary;
  ratioToNodeP50: Record<string, number>;
  target: string;
  met: boolean;
}

/** Runs a process to its end with `stdin`; its wall time, spawn to exit. */
function timed(file: string, args: string[], stdin: string, cwd: string): Promise<{ ms: number; code: number | null; stdout: string }> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(file, args, { cwd, stdio: ['pipe', 'pipe', 'ignore'] });
    let stdout = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.on('error', reject);
    child.on('exit', (code) => resolve({ ms: performance.now() - started, code, stdout }));
    child.stdin.end(stdin);
  });
}

/** The shim may take this much of `node -e 0`. */
const SHIM_RATIO = 1.2;

/**
 * The command shim's wall time per call, as the agent runs it: `warden hook install --agent <name>` into a
 * fresh project, then `sh .warden/hooks/<name>.sh <event>` with the agent's payload on stdin (a shell call
 * the gateway answers), for every agent served by the shim, interleaved with runs of a bare `node -e 0`.
 * Target: the shim's p50 at most 1.2 x node -e 0's p50 of the same run.
 */
export async function measureShims(options: { gatewayUrl: string; agentId: string; password: string; runs: number }, status: (text: string) => void): Promise<ShimFigures> {
  const project = mkdtempSync(join(tmpdir(), 'shim-bench-'));
  try {
    const credentials = join(project, 'credentials.json');
    writeFileSync(credentials, JSON.stringify({ agents: { [options.agentId]: options.password } }));
    // Agents served by the shim: those with neither HTTP hooks nor a plugin of their own.
    const names = measurable().measured.filter((name) => !AGENT_ADAPTERS.get(name)!.capabilities.http);
    for (const name of names) {
      await run(process.execPath, [WARDEN, 'hook', 'install', '--agent', name, '--project', project, '--credentials', credentials, '--agent-id', options.agentId, '--gateway-url', options.gatewayUrl]);
    }
    const id = Date.now().toString(36);
    const wall = new Map(names.map((name) => [name, new Samples()]));
    const node = new Samples();
    for (let i = -1; i < options.runs; i++) {
      for (const name of names) {
        const shim = join(project, '.warden', 'hooks', `${name}.sh`);
        const hook = await timed('sh', [shim, callOf(name).event], JSON.stringify(callOf(name).payload(`shim-${name}-${id}`, i + 1, project, command(i + 1))), project);
        if (hook.code !== 0 || !runs(hook.stdout)) throw new Error(`the ${name} shim exited ${hook.code} with ${hook.stdout.slice(0, 300)} for a harmless shell call`);
        // The first run declares each session: not measured.
        if (i >= 0) wall.get(name)!.add(hook.ms);
      }
      const bare = await timed(process.execPath, ['-e', '0'], '', project);
      if (i >= 0) node.add(bare.ms);
      status(`H: the command shim beside node -e 0, ${i + 1}/${options.runs}`);
    }
    const nodeMs = node.summary();
    const wallMs = Object.fromEntries(names.map((name) => [name, wall.get(name)!.summary()]));
    return {
      runs: options.runs,
      wallMs: Object.fromEntries(names.map((name) => [name, roundSummary(wallMs[name]!)])),
      nodeMs: roundSummary(nodeMs),
      ratioToNodeP50: Object.fromEntries(names.map((name) => [name, round(wallMs[name]!.p50 / nodeMs.p50)])),
      target: `the shim's p50 <= ${SHIM_RATIO} x node -e 0 p50`,
      met: names.every((name) => wallMs[name]!.p50 <= SHIM_RATIO * nodeMs.p50),
    };
  } finally {
    rmSync(project, { recursive: true, force: true });
  }
}
