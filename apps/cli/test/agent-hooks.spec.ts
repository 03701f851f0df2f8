import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '@warden/local-runtime';
import { operatorHeaders, operatorToken } from '@warden/testing';
import { HookSuite, runWarden } from './hook-suite.fixture.js';
import { AGENT_CASES, DEADLINE_MS, TEXTS, type AgentCase, type Decided } from './agent-cases/index.js';

/** What an agent gets from one run of its installed hook command: exit status, stdout as JSON (null when empty), stderr. */
interface ShimRun {
  code: number;
  answer: Record<string, unknown> | null;
  stderr: string;
}

/** Runs the installed hook the way the agent does: `sh <shim> <Event>` with the payload on stdin, in the project. */
function runShim(command: string, payload: unknown, cwd: string): Promise<ShimRun> {
  return new Promise((resolve) => {
    const child = spawn('sh', ['-c', command], { cwd });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.stdin.end(JSON.stringify(payload));
    child.on('close', (code) => resolve({ code: code ?? -1, answer: stdout.trim() ? (JSON.parse(stdout) as Record<string, unknown>) : null, stderr }));
  });
}

/**
 * Each agent's own hook payloads (the shapes its documentation or source gives, cited in agent-cases)
 * through the hook `warden hook install --agent <name>` writes, as the agent runs it, to the gateway
 * against nats-server, the reviewer and the gate: the exact answer the agent gets for each kind of
 * decision, by the capability table (apps/gateway/README.md), and what happens when Warden cannot be
 * reached.
 */
describe.each(AGENT_CASES.map((c) => [c.agent, c] as const))('%s under Warden', (agent, agentCase: AgentCase) => {
  let suite: HookSuite;
  let project: string;
  let credentials: string;
  let command: (event: string) => string;
  let counter = 0;
  const session = (name: string) => `${agent}-${name}`;
  const callId = () => `call_${agent.replace(/-/g, '')}${String(++counter).padStart(4, '0')}`;

  beforeAll(async () => {
    suite = await HookSuite.start([agent], ['reviewer', 'gate', 'gateway'], [agent], { GATEWAY_DEADLINE_MS: String(DEADLINE_MS) });
    project = mkdtempSync(join(tmpdir(), `${agent}-project-`));
    credentials = join(project, 'credentials.json');
    writeFileSync(credentials, JSON.stringify({ agents: { [agent]: suite.nats.agent(agent).password } }));
    const installed = await runWarden(['hook', 'install', '--agent', agent, '--project', project, '--credentials', credentials, '--gateway-url', suite.service('gateway').url]);
    expect(installed).toMatchObject({ code: 0, stderr: '' });
    command = (event) => agentCase.installedCommand(project, event);
  }, 120_000);

  afterAll(async () => {
    await suite?.stop();
    rmSync(project, { recursive: true, force: true });
  }, 60_000);

  const call = async (payload: unknown, event = 'before') => {
    const run = await runShim(command(agentCase.events[event as keyof AgentCase['events']]), payload, project);
    expect({ code: run.code, stderr: run.stderr }).toEqual({ code: 0, stderr: '' });
    return run.answer;
  };
  const pre = (name: string, tool: 'shell', command: string, extra: Record<string, unknown> = {}) => agentCase.before(session(name), callId(), project, { tool, command }, extra);
  const expected = (decided: Decided) => agentCase.answer({ ...decided, cwd: project });

  it('says nothing when Warden has no objection, and proposes the call as the agent named it', async () => {
    const payload = pre('allow', 'shell', 'npm test');
    expect(await call(payload)).toEqual(expected({ kind: 'run' }));
    const proposed = await suite.recorder.waitFor((m) => m.body.type === 'action.proposed' && m.body.session_id === session('allow'));
    expect(proposed.body.payload).toMatchObject(agentCase.proposed('npm test'));
    const started = await suite.recorder.waitFor((m) => m.body.type === 'session.started' && m.body.session_id === session('allow'));
    expect(started.body.payload).toMatchObject({ agent_kind: agent, context: { cwd: project } });
  }, 30_000);

  it('tells a warning to the model and the person', async () => {
    expect(await call(pre('warn', 'shell', 'git branch -D old-work'))).toEqual(expected({ kind: 'warn' }));
  }, 30_000);

  it('answers a changed command as the agent can take it', async () => {
    expect(await call(pre('modify', 'shell', 'git push --force origin fix/date-parser'))).toEqual(expected({ kind: 'modify' }));
  }, 30_000);

  it('denies a blocked command with the reason for the model', async () => {
    expect(await call(pre('block', 'shell', 'rm -rf /'))).toEqual(expected({ kind: 'deny' }));
  }, 30_000);

  it('puts an approval to an operator where the agent cannot ask, and answers with the operator’s decision', async () => {
    const answered = call(pre('approval', 'shell', 'sudo apt-get install -y jq'));
    const paused = await suite.recorder.waitFor((m) => m.body.type === agentCase.approvalWaitsFor && m.body.session_id === session('approval'), DEADLINE_MS);
    if (agentCase.approvalWaitsFor === 'hitl.paused') {
      const response = await fetch(`${suite.service('gate').url}/gateway/sessions/${paused.body.session_id}/approve`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...operatorHeaders(await operatorToken(suite.bus.nc, 'alice', 'approver'), 'alice') },
        body: JSON.stringify({ agent_id: agent, timestamp: new Date().toISOString() }),
      });
      expect(response.status).toBe(200);
    }
    expect(await answered).toEqual(expected({ kind: 'approval' }));
  }, 60_000);

  it('denies, failing closed, when no decision comes within the deadline', async () => {
    // Nobody approves this one: the gate holds it past the hook's deadline.
    if (agentCase.headless) {
      expect(await call(pre('deadline', 'shell', 'sudo apt-get install -y jq', agentCase.headless))).toEqual(expected({ kind: 'fail_closed' }));
      return;
    }
    // The payload cannot say that nobody is at the agent: a headless install routes approvals to an operator.
    const headless = mkdtempSync(join(tmpdir(), `${agent}-headless-`));
    try {
      const installed = await runWarden(['hook', 'install', '--agent', agent, '--project', headless, '--credentials', join(project, 'credentials.json'), '--gateway-url', suite.service('gateway').url, '--approvals', 'operator']);
      expect(installed).toMatchObject({ code: 0, stderr: '' });
      const run = await runShim(agentCase.installedCommand(headless, agentCase.events.before), pre('deadline', 'shell', 'sudo apt-get install -y jq'), headless);
      expect({ code: run.code, stderr: run.stderr }).toEqual({ code: 0, stderr: '' });
      expect(run.answer).toEqual(expected({ kind: 'fail_closed' }));
    } finally {
      rmSync(headless, { recursive: true, force: true });
    }
  }, 30_000);

  it('records the deny it answered by its deadline, beside what Warden decides later', async () => {
    const record = await suite.recorder.waitFor((m) => m.body.type === 'action.fallback' && m.body.session_id === session('deadline'));
    expect(record.body.payload).toMatchObject({ tool: agentCase.proposed('x').tool, decision: 'deny', answered_by: 'gateway', reason: TEXTS.failClosed });
  }, 30_000);

  it('reports what ran, and declares the goal of the first prompt', async () => {
    const sessionId = session('outcome');
    const id = callId();
    expect(await call(agentCase.prompt(sessionId, project, 'Fix the failing date parser test'), 'prompt')).toBeNull();
    expect(await call(agentCase.before(sessionId, id, project, { tool: 'shell', command: 'npm test' }))).toEqual(expected({ kind: 'run' }));
    expect(await call(agentCase.after(sessionId, id, project, { tool: 'shell', command: 'npm test' }, 'Tests: 42 passed'), 'after')).toBeNull();
    const proposed = await suite.recorder.waitFor((m) => m.body.type === 'action.proposed' && m.body.session_id === sessionId);
    const actionId = (proposed.body.payload as { action_id: string }).action_id;
    // An agent that names no call gets the call's key and a tag of its own.
    expect(actionId).toEqual(agentCase.derivedCallIds ? expect.stringMatching(/^d[0-9a-f]{32}-[0-9a-f]{16}[0-9a-z]+$/) : (agentCase.actionIdOf?.(id) ?? id));
    const outcome = await suite.recorder.waitFor((m) => m.body.type === 'action.outcome' && m.body.session_id === sessionId);
    expect(outcome.body.payload).toMatchObject({ action_id: actionId, status: 'success', ...(agentCase.reportsNoOutput ? {} : { output_excerpt: 'Tests: 42 passed' }) });
    const started = suite.recorder.messages.find((m) => m.body.type === 'session.started' && m.body.session_id === sessionId)!;
    expect(started.body.payload).toMatchObject({ context: { goal: 'Fix the failing date parser test' } });
  }, 30_000);

  const { asked, corrected } = agentCase;
  if (asked) {
    it('has the agent ask its user for an approval when installed with --approvals terminal', async () => {
      const terminal = mkdtempSync(join(tmpdir(), `${agent}-terminal-`));
      try {
        const installed = await runWarden(['hook', 'install', '--agent', agent, '--project', terminal, '--credentials', credentials, '--gateway-url', suite.service('gateway').url, '--approvals', 'terminal']);
        expect(installed).toMatchObject({ code: 0, stderr: '' });
        const payload = agentCase.before(session('asked'), callId(), terminal, { tool: 'shell', command: 'sudo apt-get install -y jq' });
        expect(await runShim(agentCase.installedCommand(terminal, agentCase.events.before), payload, terminal)).toEqual({ code: 0, answer: asked(), stderr: '' });
      } finally {
        rmSync(terminal, { recursive: true, force: true });
      }
    }, 30_000);
  }

  if (corrected) {
    it('passes a correction on where the agent’s model reads it, and acknowledges it as not applied where it cannot', async () => {
      const sessionId = session('corrected');
      const npmTest = (command: string) => agentCase.before(sessionId, callId(), project, { tool: 'shell', command });
      expect(await call(npmTest('npm test'))).toEqual(expected({ kind: 'run' }));
      await suite.publish('control.issued', 'control', agent, sessionId, { control_id: `ctl-${agent}-1`, kind: 'soft_correction', message: 'Read the error before running the test again.', requires_ack: true });
      const { answer, ack } = corrected('Warden correction: Read the error before running the test again.');
      expect(await call(npmTest('npm test -- --runInBand'))).toEqual(answer);
      const acknowledged = await suite.recorder.waitFor((m) => m.body.type === 'control.acknowledged' && m.body.session_id === sessionId);
      expect(acknowledged.body.payload).toMatchObject({ control_id: `ctl-${agent}-1`, status: ack });
    }, 30_000);
  }

  it('says whether the installed hook reaches Warden (warden hook doctor)', async () => {
    const good = await runWarden(['hook', 'doctor', '--agent', agent, '--project', project]);
    expect(good.code).toBe(0);
    expect(good.stdout).toContain(`the gateway takes the token: agent ${agent}`);
    const tokenFile = join(project, '.warden', 'hooks', `${agent}.token`);
    const token = readFileSync(tokenFile, 'utf8');
    writeFileSync(tokenFile, `${agent}.not-the-secret\n`);
    try {
      const bad = await runWarden(['hook', 'doctor', '--agent', agent, '--project', project]);
      expect(bad.code).toBe(1);
      expect(bad.stdout).toMatch(/✘ the gateway refuses the token \(401: .*the token is not valid\)/);
    } finally {
      writeFileSync(tokenFile, token);
    }
  }, 30_000);

  it('blocks the call as the agent blocks it (exit 2, or its deny answer), the reason on stderr, when the gateway cannot be reached, and lets other events pass', async () => {
    const shim = readFileSync(join(project, '.warden', 'hooks', `${agent}.sh`), 'utf8');
    const down = join(project, 'down.sh');
    writeFileSync(down, shim.replace(/^url='[^']*'/m, `url='http://127.0.0.1:${await freePort()}/hooks/${agent}'`));
    const blocked = await runShim(`sh ${JSON.stringify(down)} ${agentCase.events.before}`, pre('down', 'shell', 'ls'), project);
    const reason = /^Warden could not decide on this call, so it is blocked \(fail closed\): Warden's gateway at http:\/\/127\.0\.0\.1:\d+\/hooks\/[a-z-]+ did not answer/;
    expect(blocked.code).toBe(agentCase.blocked ? 0 : 2);
    expect(blocked.stderr).toMatch(reason);
    expect(blocked.answer).toEqual(agentCase.blocked ? agentCase.blocked(expect.stringMatching(reason)) : null);
    const after = await runShim(`sh ${JSON.stringify(down)} ${agentCase.events.after}`, agentCase.after(session('down'), 'x', project, { tool: 'shell', command: 'ls' }, ''), project);
    expect(after.code).toBe(0);
  }, 30_000);
});
