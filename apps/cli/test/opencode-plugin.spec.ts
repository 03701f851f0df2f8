import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '@warden/local-runtime';
import { operatorHeaders, operatorToken } from '@warden/testing';
import { DEADLINE_MS, TEXTS } from './agent-cases/agent-case.js';
import { HookSuite, runWarden } from './hook-suite.fixture.js';

type Hook = (event: Record<string, unknown>) => unknown;

/** A stream of OpenCode's events, as `ctx.event.subscribe()` yields them, fed by the test. */
class EventStream {
  private queued: Record<string, unknown>[] = [];
  private waiting?: () => void;
  private ended = false;

  push(event: Record<string, unknown>): void {
    this.queued.push(event);
    this.waiting?.();
  }

  async *subscribe(signal?: AbortSignal): AsyncGenerator<Record<string, unknown>> {
    signal?.addEventListener('abort', () => {
      this.ended = true;
      this.waiting?.();
    });
    while (!this.ended) {
      const next = this.queued.shift();
      if (next) yield next;
      else await new Promise<void>((resolve) => (this.waiting = resolve));
    }
  }
}

/**
 * OpenCode's side of a 2.x plugin: the context `setup(ctx)` receives, with the domains Warden's plugin
 * registers on (anomalyco/opencode packages/plugin/src/promise/plugin.ts `Context`: location, tool,
 * permission, session, event). Each `hook(name, callback)` resolves to a Registration {dispose}, as
 * promise/registration.ts types it. Only OpenCode is stubbed: the plugin posts to the real gateway.
 */
function openCodeContext(directory: string) {
  const hooks = new Map<string, Hook>();
  const events = new EventStream();
  const domain = (name: string) => ({
    hook: (hook: string, callback: Hook) => {
      hooks.set(`${name}.${hook}`, callback);
      return Promise.resolve({ dispose: () => Promise.resolve(void hooks.delete(`${name}.${hook}`)) });
    },
  });
  const ctx = {
    app: {},
    options: {},
    location: { directory, project: { id: 'prj_warden_test', directory } },
    tool: domain('tool'),
    permission: domain('permission'),
    session: domain('session'),
    event: { subscribe: (options?: { signal?: AbortSignal }) => events.subscribe(options?.signal) },
  };
  const hook = (name: string) => {
    const callback = hooks.get(name);
    if (!callback) throw new Error(`the plugin registered no ${name} hook`);
    return callback;
  };
  return { ctx, hooks, events, hook };
}

interface Plugin {
  id: string;
  setup(ctx: unknown): Promise<(() => Promise<void>) | void>;
}

/**
 * Warden's OpenCode plugin as OpenCode 2.x loads it: `warden hook install --agent opencode` writes it into
 * the project's .opencode/plugins/, the test imports that module and calls its default export's
 * `setup(ctx)`, then calls the hooks it registered with OpenCode's own arguments, against nats-server,
 * the reviewer, the gate and the gateway. The tool events have the shape of anomalyco/opencode
 * packages/plugin/src/promise/tool.ts `ToolHooks` (execute.before {tool, sessionID, agent, messageID, id,
 * input}; execute.after adds status and result or error), with the values OpenCode 2.0.24 passed in a
 * captured run ("CTX Spike — FINDINGS", §4); the shell's input {command} is UNCONFIRMED. The permission
 * evaluation is `PermissionEvaluation` {sessionID, agent, action, resources, source: {type: "tool",
 * messageID, id}, effect, message} (same run, §5); the prompt is promise/session.ts `SessionPrompt`.
 */
describe('OpenCode under Warden (its plugin)', () => {
  let suite: HookSuite;
  let credentials: string;
  const projects: string[] = [];
  let counter = 0;
  const callId = () => `call_opencode${String(++counter).padStart(4, '0')}`;

  /** A project with Warden's plugin installed (with `options`), loaded as OpenCode loads it. */
  async function loaded(name: string, options: string[] = [], gatewayUrl = suite.service('gateway').url) {
    const project = mkdtempSync(join(tmpdir(), `opencode-${name}-`));
    projects.push(project);
    // OpenCode's runtime reads a plugin's .js as an ES module; Node does so under a package of type module.
    writeFileSync(join(project, 'package.json'), JSON.stringify({ type: 'module' }));
    const installed = await runWarden(['hook', 'install', '--agent', 'opencode', '--project', project, '--credentials', credentials, '--gateway-url', gatewayUrl, ...options]);
    expect(installed).toMatchObject({ code: 0, stderr: '' });
    const file = join(project, '.opencode', 'plugins', 'warden.js');
    const plugin = ((await import(file)) as { default: Plugin }).default;
    const opencode = openCodeContext(project);
    const cleanup = await plugin.setup(opencode.ctx);
    return { project, plugin, cleanup, ...opencode };
  }

  let standard: Awaited<ReturnType<typeof loaded>>;
  let decide: Awaited<ReturnType<typeof loaded>>;
  let terminal: Awaited<ReturnType<typeof loaded>>;

  beforeAll(async () => {
    suite = await HookSuite.start(['opencode'], ['reviewer', 'gate', 'gateway'], ['opencode'], { GATEWAY_DEADLINE_MS: String(DEADLINE_MS) });
    const dir = mkdtempSync(join(tmpdir(), 'opencode-credentials-'));
    projects.push(dir);
    credentials = join(dir, 'credentials.json');
    writeFileSync(credentials, JSON.stringify({ agents: { opencode: suite.nats.agent('opencode').password } }));
    standard = await loaded('standard');
    decide = await loaded('decide', ['--decide']);
    terminal = await loaded('terminal', ['--approvals', 'terminal']);
  }, 180_000);

  afterAll(async () => {
    for (const cleanup of [standard?.cleanup, decide?.cleanup, terminal?.cleanup]) if (cleanup) await cleanup();
    await suite?.stop();
    for (const project of projects) rmSync(project, { recursive: true, force: true });
  }, 60_000);

  const shell = (sessionID: string, command: string, id = callId()) => ({ tool: 'shell', sessionID, agent: 'build', messageID: 'msg_1225058f6001GCMacSEBkYLmDh', id, input: { command } });
  const evaluation = (sessionID: string, id: string, effect: 'allow' | 'ask' | 'deny') => ({
    sessionID,
    agent: 'build',
    action: 'shell',
    resources: ['*'],
    effect,
    source: { type: 'tool', messageID: 'msg_1225058f6001GCMacSEBkYLmDh', id },
  });

  it('is the 2.x module OpenCode loads, and registers its hooks in setup', () => {
    expect(standard.plugin.id).toBe('warden');
    expect([...standard.hooks.keys()].sort()).toEqual(['permission.evaluate', 'session.context', 'session.prompt', 'tool.execute.after', 'tool.execute.before']);
    expect(typeof standard.cleanup).toBe('function');
  });

  it('lets a call Warden has no objection to run unchanged, proposing it as OpenCode named it', async () => {
    const call = shell('ses_allow', 'npm test');
    await expect(standard.hook('tool.execute.before')(call)).resolves.toBeUndefined();
    expect(call.input).toEqual({ command: 'npm test' });
    const proposed = await suite.recorder.waitFor((m) => m.body.type === 'action.proposed' && m.body.session_id === 'ses_allow');
    expect(proposed.body.payload).toMatchObject({ action_id: call.id, tool: 'shell', input: { command: 'npm test' } });
    const started = await suite.recorder.waitFor((m) => m.body.type === 'session.started' && m.body.session_id === 'ses_allow');
    expect(started.body.payload).toMatchObject({ agent_kind: 'opencode', context: { cwd: standard.project } });
  }, 30_000);

  it('tells the model a warning in its next request, once', async () => {
    await expect(standard.hook('tool.execute.before')(shell('ses_warn', 'git branch -D old-work'))).resolves.toBeUndefined();
    const request = { sessionID: 'ses_warn', agent: 'build', system: [{ type: 'text', text: 'You are OpenCode.' }], messages: [], tools: {} };
    await standard.hook('session.context')(request);
    expect(request.system).toEqual([{ type: 'text', text: 'You are OpenCode.' }, { type: 'text', text: TEXTS.warning }]);
    await standard.hook('session.context')(request);
    expect(request.system).toHaveLength(2);
  }, 30_000);

  it('rejects a denied call with Warden’s reason', async () => {
    await expect(standard.hook('tool.execute.before')(shell('ses_block', 'rm -rf /'))).rejects.toThrow(new Error(TEXTS.denied));
  }, 30_000);

  it('runs a changed command with --decide (the call’s input is changed), and refuses it with the one to run otherwise', async () => {
    const call = shell('ses_modify', 'git push --force origin fix/date-parser');
    const input = call.input;
    await expect(decide.hook('tool.execute.before')(call)).resolves.toBeUndefined();
    expect(call.input).toBe(input);
    expect(call.input).toEqual({ command: 'git push --force-with-lease origin fix/date-parser' });
    await expect(standard.hook('tool.execute.before')(shell('ses_modify_asked', 'git push --force origin fix/date-parser'))).rejects.toThrow(
      new Error(`${TEXTS.changed} Run this instead: ${JSON.stringify({ command: 'git push --force-with-lease origin fix/date-parser' })}`),
    );
  }, 30_000);

  it('grants a call with --decide through OpenCode’s permission evaluation, never over the user’s own deny', async () => {
    const call = shell('ses_grant', 'npm test');
    await decide.hook('tool.execute.before')(call);
    const asked = evaluation('ses_grant', call.id, 'ask');
    await decide.hook('permission.evaluate')(asked);
    expect(asked).toMatchObject({ effect: 'allow', message: 'Warden allowed this action: No concerns: command execution with medium risk.' });
    const denied = evaluation('ses_grant', call.id, 'deny');
    await decide.hook('permission.evaluate')(denied);
    expect(denied.effect).toBe('deny');
  }, 30_000);

  it('puts an approval to an operator (OpenCode does not say whether someone answers its prompts) and runs the call once approved', async () => {
    const answered = standard.hook('tool.execute.before')(shell('ses_approval', 'sudo apt-get install -y jq'));
    await suite.recorder.waitFor((m) => m.body.type === 'hitl.paused' && m.body.session_id === 'ses_approval', DEADLINE_MS);
    const response = await fetch(`${suite.service('gate').url}/gateway/sessions/ses_approval/approve`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...operatorHeaders(await operatorToken(suite.bus.nc, 'alice', 'approver'), 'alice') },
      body: JSON.stringify({ agent_id: 'opencode', timestamp: new Date().toISOString() }),
    });
    expect(response.status).toBe(200);
    await expect(answered).resolves.toBeUndefined();
  }, 60_000);

  it('has OpenCode ask its user, installed with --approvals terminal, in the permission evaluation that follows', async () => {
    const call = shell('ses_ask', 'sudo apt-get install -y jq');
    await expect(terminal.hook('tool.execute.before')(call)).resolves.toBeUndefined();
    const allowed = evaluation('ses_ask', call.id, 'allow');
    await terminal.hook('permission.evaluate')(allowed);
    expect(allowed).toMatchObject({ effect: 'ask', message: TEXTS.asked });
    // Evaluated before Warden answered: OpenCode can no longer be made to ask, so the call is refused.
    const early = shell('ses_ask', 'sudo apt-get install -y jq');
    await terminal.hook('permission.evaluate')(evaluation('ses_ask', early.id, 'allow'));
    await expect(terminal.hook('tool.execute.before')(early)).rejects.toThrow(`Warden needs a person to approve this action, and OpenCode could not be made to ask for it: ${TEXTS.asked}`);
  }, 30_000);

  it('rejects the call, failing closed, when no decision comes within the deadline', async () => {
    // Nobody approves this one: the gate holds it for an operator past the deadline.
    await expect(standard.hook('tool.execute.before')(shell('ses_deadline', 'sudo apt-get install -y jq'))).rejects.toThrow(new Error(TEXTS.failClosed));
  }, 30_000);

  it('declares the goal of the first prompt, reports what ran, and records the session’s end', async () => {
    const sessionID = 'ses_outcome';
    await standard.hook('session.prompt')({ sessionID, messageID: 'msg_1', prompt: { text: 'Fix the failing date parser test' }, delivery: 'steer' });
    const call = shell(sessionID, 'npm test');
    await standard.hook('tool.execute.before')(call);
    await standard.hook('tool.execute.after')({ ...call, status: 'completed', result: { content: [{ type: 'text', text: 'Tests: 42 passed' }], metadata: { truncated: false } } });
    const outcome = await suite.recorder.waitFor((m) => m.body.type === 'action.outcome' && m.body.session_id === sessionID);
    expect(outcome.body.payload).toMatchObject({ action_id: call.id, status: 'success', output_excerpt: 'Tests: 42 passed' });
    const started = suite.recorder.messages.find((m) => m.body.type === 'session.started' && m.body.session_id === sessionID)!;
    expect(started.body.payload).toMatchObject({ context: { goal: 'Fix the failing date parser test' } });
    standard.events.push({ id: 'evt_1', created: Date.now(), type: 'session.deleted', data: { sessionID } });
    const ended = await suite.recorder.waitFor((m) => m.body.type === 'session.ended' && m.body.session_id === sessionID);
    expect(ended.body.payload).toMatchObject({ status: 'success', summary: 'OpenCode session ended (deleted)' });
  }, 30_000);

  it('says whether the installed plugin reaches Warden (warden hook doctor)', async () => {
    const good = await runWarden(['hook', 'doctor', '--agent', 'opencode', '--project', standard.project]);
    expect(good.code).toBe(0);
    expect(good.stdout).toContain('the gateway takes the token: agent opencode');
    const tokenFile = join(standard.project, '.warden', 'hooks', 'opencode.token');
    const token = readFileSync(tokenFile, 'utf8');
    writeFileSync(tokenFile, 'opencode.not-the-secret\n');
    try {
      const bad = await runWarden(['hook', 'doctor', '--agent', 'opencode', '--project', standard.project]);
      expect(bad.code).toBe(1);
      expect(bad.stdout).toMatch(/✘ the gateway refuses the token \(401: .*the token is not valid\)/);
    } finally {
      writeFileSync(tokenFile, token);
    }
  }, 30_000);

  it('rejects a call (fail closed) when the gateway cannot be reached, and lets what already ran pass', async () => {
    const unreachable = await loaded('unreachable', [], `http://127.0.0.1:${await freePort()}`);
    const call = shell('ses_down', 'ls');
    await expect(unreachable.hook('tool.execute.before')(call)).rejects.toThrow(/^Warden could not decide on this tool call, so it is blocked \(fail closed\): /);
    await expect(unreachable.hook('tool.execute.after')({ ...call, status: 'completed', result: { content: [] } })).resolves.toBeUndefined();
    await unreachable.cleanup?.();
  }, 30_000);
});
