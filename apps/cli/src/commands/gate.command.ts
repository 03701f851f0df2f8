import { createInterface } from 'node:readline/promises';
import { OPERATOR_ID_HEADER } from '@warden/contracts';
import { UsageError, type Command } from '../command.js';
import { operatorToken, TOKEN_HELP } from '../operator-token.js';
import { out, style } from '../output.js';

const DEFAULT_URL = 'http://127.0.0.1:3105';

interface Api {
  url: string;
  token: string;
  /** Sent as X-Observatory-Operator-Id when given; the gate checks it names the token's operator. */
  operator?: string;
  json: boolean;
}

/** What the CLI reads of the gate's answers (see GET /gateway/openapi.json). */
interface Body {
  status?: string;
  note?: string;
  reason?: string;
  agent_id?: string;
  messages?: MessageRow[];
  sessions?: SessionRow[];
  requests?: RequestRow[];
  [key: string]: unknown;
}

interface RequestRow {
  request_id: string;
  gate_id: string;
  session_id: string;
  agent_id: string;
  prompt: string;
  summary: string;
  details: unknown;
  expires_at: string;
  status: string;
  digest?: string;
}

interface SessionRow {
  session_id: string;
  agent_id: string;
  status: string;
  buffered: number;
  paused_by: string;
  reason: string;
}

interface MessageRow {
  seq: number;
  kind: 'decision' | 'inject';
  trace_id: string;
  verdict?: string;
  needs_approval?: boolean;
  rewritten: boolean;
  content: { tool?: string; input?: unknown; prompt?: string };
}

interface Answer {
  status: number;
  body: Body;
}

class ApiError extends Error {}

async function call(api: Api, method: string, path: string, body?: unknown): Promise<Answer> {
  let response: Response;
  try {
    response = await fetch(`${api.url}${path}`, {
      method,
      headers: { 'content-type': 'application/json', authorization: `Bearer ${api.token}`, ...(api.operator ? { [OPERATOR_ID_HEADER]: api.operator } : {}) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
  } catch (error) {
    throw new ApiError(`cannot reach the gate at ${api.url} (${(error as Error).cause ?? (error as Error).message}); set --url or WARDEN_GATE_URL`);
  }
  const text = await response.text();
  let parsed: Body = {};
  try {
    parsed = text ? (JSON.parse(text) as Body) : {};
  } catch {
    parsed = { status: 'error', reason: text.slice(0, 200) };
  }
  return { status: response.status, body: parsed };
}

/** Fails with the API's reason unless the call succeeded. */
function expectOk(answer: Answer): Body {
  if (answer.status >= 400) throw new ApiError(`${answer.status}: ${answer.body.reason ?? JSON.stringify(answer.body)}`);
  return answer.body;
}

/** The agent of a session: given, or the only agent the session is paused for. */
async function agentOf(api: Api, session: string, given: string | undefined): Promise<string> {
  if (given) return given;
  const view = await call(api, 'GET', `/gateway/sessions/${encodeURIComponent(session)}`);
  const body = expectOk(view);
  if (!body.agent_id) throw new UsageError(`session ${session} is not paused: name its agent with --agent`);
  return body.agent_id;
}

async function sessionCommand(api: Api, session: string, agent: string, action: string, fields: Record<string, unknown> = {}): Promise<Body> {
  const body = { agent_id: agent, timestamp: new Date().toISOString(), ...fields };
  return expectOk(await call(api, 'POST', `/gateway/sessions/${encodeURIComponent(session)}/${action}`, body));
}

async function respond(api: Api, requestId: string, answer: { approved: boolean; reason?: string; conditions?: string[]; digest?: string }): Promise<Body> {
  return expectOk(await call(api, 'POST', `/gateway/requests/${encodeURIComponent(requestId)}/respond`, answer));
}

function done(api: Api, result: Body, what: string): void {
  if (api.json) return out.line(JSON.stringify(result));
  if (result.status === 'accepted') out.line(`${style.yellow('queued')} ${what}: ${result.note}`);
  else out.step(`${what}${result.note ? ` (${String(result.note).replace(/_/g, ' ')})` : ''}`);
}

function short(value: unknown, max = 100): string {
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

async function printOverview(api: Api): Promise<{ sessions: SessionRow[]; requests: RequestRow[] }> {
  const sessions = expectOk(await call(api, 'GET', '/gateway/sessions')).sessions ?? [];
  const requests = expectOk(await call(api, 'GET', '/gateway/requests')).requests ?? [];
  if (api.json) {
    out.line(JSON.stringify({ sessions, requests }));
    return { sessions, requests };
  }
  out.line(style.bold(`Pending gate requests (${requests.length})`));
  for (const r of requests) {
    out.line(`  ${style.cyan(r.request_id)}  ${r.gate_id}  session ${r.session_id} (${r.agent_id})  until ${r.expires_at}`);
    out.line(`    ${r.summary}`);
  }
  out.line(style.bold(`Paused sessions (${sessions.length})`));
  for (const s of sessions) {
    out.line(`  ${style.cyan(s.session_id)} (${s.agent_id})  ${s.status}, ${s.buffered} buffered, paused by ${s.paused_by}: ${s.reason}`);
    const view = expectOk(await call(api, 'GET', `/gateway/sessions/${encodeURIComponent(s.session_id)}?agent_id=${encodeURIComponent(s.agent_id)}`));
    printMessages(view.messages ?? []);
  }
  return { sessions, requests };
}

function printMessages(messages: MessageRow[]): void {
  for (const m of messages) {
    const what = m.kind === 'decision' ? `${m.content.tool} ${short(m.content.input)} → ${m.verdict}${m.needs_approval ? ' (needs approval)' : ''}` : `inject "${short(m.content.prompt)}"`;
    out.line(`    ${style.dim(`#${m.seq}`)} trace ${m.trace_id}${m.rewritten ? style.yellow(' [rewritten]') : ''}: ${what}`);
  }
}

/** Walks through pending requests and paused sessions and asks what to do with each. */
async function interactive(api: Api): Promise<number> {
  const rl = createInterface({ input: process.stdin, output: process.stdout, terminal: process.stdin.isTTY ?? false });
  const lines = rl[Symbol.asyncIterator]();
  const ask = async (question: string): Promise<string> => {
    process.stdout.write(question);
    const next = await lines.next();
    if (next.done) throw new UsageError('no more input');
    return next.value.trim();
  };
  try {
    const { sessions, requests } = await printOverview({ ...api, json: false });
    const answeredSessions = new Set<string>();
    for (const r of requests) {
      out.line(`\n${style.bold(`GATE ${r.gate_id}`)}  ${r.prompt}\n  ${r.summary}\n  ${short(r.details, 400)}`);
      const choice = await ask('[a]pprove, approve with [c]onditions, [r]eject, [s]kip? ');
      if (choice === 'a' || choice === 'c') {
        const conditions = choice === 'c' ? (await ask('Conditions (comma-separated): ')).split(',').map((c) => c.trim()).filter(Boolean) : [];
        done(api, await respond(api, r.request_id, { approved: true, ...(r.digest ? { digest: r.digest } : {}), ...(conditions.length ? { conditions } : {}) }), `approved ${r.request_id}`);
        answeredSessions.add(`${r.agent_id}.${r.session_id}`);
      } else if (choice === 'r') {
        const reason = await ask('Reason for rejection: ');
        done(api, await respond(api, r.request_id, { approved: false, ...(reason ? { reason } : {}) }), `rejected ${r.request_id}`);
        answeredSessions.add(`${r.agent_id}.${r.session_id}`);
      }
    }
    for (const s of sessions) {
      if (answeredSessions.has(`${s.agent_id}.${s.session_id}`)) continue;
      out.line(`\n${style.bold(`SESSION ${s.session_id}`)} (${s.agent_id}), ${s.buffered} buffered: ${s.reason}`);
      const choice = await ask('[a]pprove, re[w]rite and approve, [r]eject, [i]nject, [s]kip? ');
      if (choice === 'a') done(api, await sessionCommand(api, s.session_id, s.agent_id, 'approve'), `approved ${s.session_id}`);
      else if (choice === 'r') {
        const reason = await ask('Reason for rejection: ');
        done(api, await sessionCommand(api, s.session_id, s.agent_id, 'reject', reason ? { reason } : {}), `rejected ${s.session_id}`);
      } else if (choice === 'w') {
        const trace = await ask('Trace id of the message: ');
        const content = await ask('New content (the tool input as JSON, or the new text): ');
        done(api, await sessionCommand(api, s.session_id, s.agent_id, 'rewrite-and-approve', { original_trace_id: trace, new_content: content }), `rewrote and approved ${s.session_id}`);
      } else if (choice === 'i') {
        const prompt = await ask('Message for the agent: ');
        done(api, await sessionCommand(api, s.session_id, s.agent_id, 'inject', { prompt }), `injected into ${s.session_id}`);
      }
    }
    return 0;
  } finally {
    rl.close();
  }
}

export const gateCommand: Command = {
  name: 'gate',
  summary: 'Operate the gate: paused sessions, approval requests, approve, reject, rewrite, inject',
  help: `Usage: warden gate [subcommand] [arguments] [options]

Talks to the gate's operator API (FRD-011 and the human gates). Without a subcommand it lists what
waits for an operator, or, on a terminal, walks through it and asks (same as \`interactive\`).

Subcommands:
  list                                   pending gate requests and paused sessions with their buffered messages
  show SESSION                           one session's buffered messages (trace ids for rewrite)
  requests [--status S]                  gate requests: pending (default), approved, rejected, timed_out, all
  interactive                            ask about each pending request and paused session in turn
  approve SESSION                        unpause and flush, approving what waits for approval
  approve --request ID [--condition C]   approve a gate request (repeat --condition for conditional approval);
          [--digest D]                   prints what it approves; --digest approves only if that is still it
  reject SESSION [--reason R]            tell the agent "action rejected by operator, do not retry" first,
                                         deny what waits for approval, flush the rest
  reject --request ID [--reason R]       reject a gate request
  rewrite SESSION --trace T --content C  replace a buffered message (a held action's tool input as JSON);
                                         add --approve to unpause in the same call
  inject SESSION --prompt P              send the agent a message (held in order while paused)
  pause SESSION --reason R               pause a session
  stop SESSION [--reason R]              emergency stop: pause the session and tell its agent to stop
                                         (approve resumes it)
  unpause SESSION                        unpause a session

Options:
  --url URL          the gate's HTTP address [$WARDEN_GATE_URL or ${DEFAULT_URL}]
  --token-file PATH  file holding your API token [$WARDEN_OPERATOR_TOKEN]
  --operator ID      also send X-Observatory-Operator-Id (must be the token's operator) [$WARDEN_OPERATOR_ID]
  --agent ID         the session's agent [$WARDEN_AGENT_ID, else the one agent the session is paused for]
  --json             print the API's JSON answers

${TOKEN_HELP} The audit trail records the token's operator. A viewer's token may list and show;
changes need an approver.

Examples:
  warden gate
  warden gate approve --request 3f1c… --condition "Take a backup first"
  warden gate reject sess-42 --reason "Not during the freeze"
  warden gate rewrite sess-42 --trace 5d0c… --content '{"command":"npm test"}' --approve`,
  options: {
    url: { type: 'string' },
    'token-file': { type: 'string' },
    operator: { type: 'string' },
    agent: { type: 'string' },
    request: { type: 'string' },
    condition: { type: 'string', multiple: true },
    digest: { type: 'string' },
    reason: { type: 'string' },
    prompt: { type: 'string' },
    trace: { type: 'string' },
    content: { type: 'string' },
    approve: { type: 'boolean' },
    status: { type: 'string' },
    json: { type: 'boolean' },
  },
  async run(values, positionals) {
    const operator = ((values.operator as string | undefined) ?? process.env.WARDEN_OPERATOR_ID)?.trim();
    const api: Api = {
      url: ((values.url as string | undefined) ?? process.env.WARDEN_GATE_URL ?? DEFAULT_URL).replace(/\/+$/, ''),
      token: operatorToken(values),
      ...(operator ? { operator } : {}),
      json: !!values.json,
    };
    const [sub = process.stdin.isTTY && !api.json ? 'interactive' : 'list', session, ...extra] = positionals;
    if (extra.length) throw new UsageError(`unexpected arguments: ${extra.join(' ')}`);
    const agentGiven = (values.agent as string | undefined) ?? process.env.WARDEN_AGENT_ID;
    const need = (name: string) => {
      const value = values[name] as string | undefined;
      if (value === undefined || value === '') throw new UsageError(`warden gate ${sub} needs --${name}`);
      return value;
    };
    const needSession = () => {
      if (!session) throw new UsageError(`warden gate ${sub} needs a session id`);
      return session;
    };
    try {
      switch (sub) {
        case 'list':
          await printOverview(api);
          return 0;
        case 'interactive':
          return await interactive(api);
        case 'requests': {
          const status = (values.status as string | undefined) ?? 'pending';
          const body = expectOk(await call(api, 'GET', `/gateway/requests?status=${encodeURIComponent(status)}`));
          if (api.json) out.line(JSON.stringify(body));
          else for (const r of body.requests ?? []) out.line(`${r.request_id}  ${r.gate_id}  ${r.status}  session ${r.session_id} (${r.agent_id}): ${r.summary}`);
          return 0;
        }
        case 'show': {
          const id = needSession();
          const query = agentGiven ? `?agent_id=${encodeURIComponent(agentGiven)}` : '';
          const view = expectOk(await call(api, 'GET', `/gateway/sessions/${encodeURIComponent(id)}${query}`));
          if (api.json) out.line(JSON.stringify(view));
          else {
            out.line(`${style.bold(id)} (${view.agent_id || 'no agent paused'}): ${view.status}${view.reason ? `, ${view.reason}` : ''}`);
            printMessages(view.messages ?? []);
          }
          return 0;
        }
        case 'approve':
        case 'reject': {
          const requestId = values.request as string | undefined;
          const reason = values.reason as string | undefined;
          const conditions = (values.condition as string[] | undefined) ?? [];
          if (sub === 'reject' && conditions.length) throw new UsageError('--condition goes with approve');
          if (requestId) {
            if (session) throw new UsageError('give either a session or --request');
            let digest = values.digest as string | undefined;
            if (sub === 'approve' && !digest) {
              // An approval approves what it was shown: the request as read now, printed.
              const shown = expectOk(await call(api, 'GET', `/gateway/requests/${encodeURIComponent(requestId)}`)) as unknown as RequestRow;
              if (!api.json) out.line(`approving ${shown.gate_id}: ${shown.summary}\n  ${short((shown.details as { action?: unknown })?.action ?? shown.details, 400)}`);
              digest = shown.digest;
            }
            const result = await respond(api, requestId, { approved: sub === 'approve', ...(digest ? { digest } : {}), ...(reason ? { reason } : {}), ...(conditions.length ? { conditions } : {}) });
            done(api, result, `${sub === 'approve' ? 'approved' : 'rejected'} request ${requestId}${conditions.length ? ` with ${conditions.length} condition(s)` : ''}`);
            return 0;
          }
          const id = needSession();
          const agent = await agentOf(api, id, agentGiven);
          const fields = { ...(reason ? { reason } : {}), ...(conditions.length ? { conditions } : {}), ...(values.prompt ? { prompt: values.prompt } : {}) };
          done(api, await sessionCommand(api, id, agent, sub, fields), `${sub === 'approve' ? 'approved' : 'rejected'} ${id}`);
          return 0;
        }
        case 'rewrite': {
          const id = needSession();
          const fields = { original_trace_id: need('trace'), new_content: need('content') };
          const agent = await agentOf(api, id, agentGiven);
          const action = values.approve ? 'rewrite-and-approve' : 'rewrite';
          done(api, await sessionCommand(api, id, agent, action, fields), `rewrote ${fields.original_trace_id}${values.approve ? ' and approved' : ''}`);
          return 0;
        }
        case 'inject': {
          const id = needSession();
          const prompt = need('prompt');
          done(api, await sessionCommand(api, id, await agentOf(api, id, agentGiven), 'inject', { prompt }), `injected into ${id}`);
          return 0;
        }
        case 'pause': {
          const id = needSession();
          const reason = need('reason');
          if (!agentGiven) throw new UsageError('warden gate pause needs --agent (or WARDEN_AGENT_ID)');
          done(api, await sessionCommand(api, id, agentGiven, 'pause', { reason }), `paused ${id}`);
          return 0;
        }
        case 'stop': {
          const id = needSession();
          if (!agentGiven) throw new UsageError('warden gate stop needs --agent (or WARDEN_AGENT_ID)');
          const reason = values.reason as string | undefined;
          done(api, await sessionCommand(api, id, agentGiven, 'stop', reason ? { reason } : {}), `stopped ${id}`);
          return 0;
        }
        case 'unpause': {
          const id = needSession();
          done(api, await sessionCommand(api, id, await agentOf(api, id, agentGiven), 'unpause'), `unpaused ${id}`);
          return 0;
        }
        default:
          throw new UsageError(`unknown subcommand "${sub}" (see warden gate --help)`);
      }
    } catch (error) {
      if (error instanceof ApiError) {
        out.error(error.message);
        return 1;
      }
      throw error;
    }
  },
};
