import { Kvm } from '@nats-io/kv';
import {
  BREAKER_KINDS,
  BREAKER_STATE_BUCKET,
  breakerStateKey,
  createMessage,
  isSubjectToken,
  parseBreakerState,
  publishSubject,
  sessionSubscription,
  type MessageOf,
  type PayloadOf,
} from '@warden/contracts';
import { integerOption, UsageError, type Command } from '../command.js';
import { withOperatorBus, type OperatorBus } from '../operator-bus.js';
import { out, style } from '../output.js';

const DEFAULT_WAIT_MS = 10_000;
const COMMANDS = { reset: 'reset', 'force-open': 'force_open', disable: 'disable', enable: 'enable' } as const;
type BreakerTarget = PayloadOf<'breaker.command'>['breaker'];

/** What `warden breaker …` was asked to do, checked before anything connects. */
export type BreakerRequest =
  | { action: 'show'; agentId: string; sessionId: string; json: boolean }
  | { action: 'command'; agentId: string; sessionId: string; payload: PayloadOf<'breaker.command'>; waitMs: number };

export function parseBreakerRequest(values: Record<string, unknown>, positionals: string[]): BreakerRequest {
  const [subcommand, agentId, sessionId, ...extra] = positionals;
  const names = [...Object.keys(COMMANDS), 'show'].join(', ');
  if (!subcommand) throw new UsageError(`say what to do: ${names}. Run \`warden breaker --help\`.`);
  if (subcommand !== 'show' && !(subcommand in COMMANDS)) throw new UsageError(`unknown breaker command "${subcommand}": use ${names}`);
  if (!agentId || !sessionId) throw new UsageError(`warden breaker ${subcommand} needs the agent id and the session id`);
  for (const id of [agentId, sessionId]) if (!isSubjectToken(id)) throw new UsageError(`"${id}" must be 1-128 letters, digits, - or _`);
  if (extra.length) throw new UsageError(`unexpected argument(s): ${extra.join(' ')}`);
  if (subcommand === 'show') return { action: 'show', agentId, sessionId, json: values.json === true };

  const breaker = (values.breaker as string | undefined) ?? 'all';
  if (breaker !== 'all' && !(BREAKER_KINDS as readonly string[]).includes(breaker)) {
    throw new UsageError(`--breaker must be one of ${BREAKER_KINDS.join(', ')} or all (got "${breaker}")`);
  }
  const operatorId = (values.operator as string | undefined)?.trim();
  if (!operatorId) throw new UsageError(`warden breaker ${subcommand} needs --operator <id>: who gives the command`);
  if (operatorId.length > 256) throw new UsageError('--operator must be at most 256 characters');
  const reason = (values.reason as string | undefined)?.trim();
  if (reason && reason.length > 2000) throw new UsageError('--reason must be at most 2000 characters');
  return {
    action: 'command',
    agentId,
    sessionId,
    payload: { command: COMMANDS[subcommand as keyof typeof COMMANDS], breaker: breaker as BreakerTarget, operator_id: operatorId, ...(reason ? { reason } : {}) },
    waitMs: integerOption(values, 'wait', DEFAULT_WAIT_MS, 0),
  };
}

export const breakerCommand: Command = {
  name: 'breaker',
  summary: "Show a session's breakers; reset, force open, disable or enable them",
  help: `Usage:
  warden breaker reset <agent> <session> --operator <id> [--breaker KIND] [--reason TEXT]
  warden breaker force-open <agent> <session> --operator <id> [--breaker KIND] [--reason TEXT]
  warden breaker disable <agent> <session> --operator <id> [--breaker KIND] [--reason TEXT]
  warden breaker enable <agent> <session> --operator <id> [--breaker KIND] [--reason TEXT]
  warden breaker show <agent> <session> [--json]

Each session has four breakers: iteration, cost, time and error_rate. While one is open the reviewer
blocks the session's actions with the breaker's reason and suggestion.

  reset       close the breaker and clear what it measured (iterations of the phase, the run's cost,
              the clocks, the error window); the agent's rolling day of spending stays
  force-open  open the breaker and hold it open, without probing, until it is reset
  disable     the breaker neither trips nor blocks until it is enabled again
  enable      undo disable
  show        the breakers' states as the reviewer reads them (KV bucket ${BREAKER_STATE_BUCKET})

The commands publish a breaker.command (recorded in the audit trail with the operator's id) and wait
for the breaker to confirm what it changed. A command sent while no breaker runs waits in JetStream.

Options:
  --breaker KIND  ${BREAKER_KINDS.join(', ')} or all [all]
  --operator ID   who gives the command (reset, force-open, disable, enable)
  --reason TEXT   why; kept with the command in the audit trail
  --wait MS       how long to wait for the confirmation [${DEFAULT_WAIT_MS}]; 0 sends without waiting
  --json          show: print the stored state as JSON

Environment: NATS_URL [nats://127.0.0.1:4222], NATS_USER, NATS_PASSWORD. The commands work with the
operator user; show reads JetStream KV and needs a user with JetStream access (the service user).

Examples:
  warden breaker show claude-code sess-42
  warden breaker reset claude-code sess-42 --breaker cost --operator alice --reason "budget raised for the migration"`,
  options: {
    breaker: { type: 'string' },
    operator: { type: 'string' },
    reason: { type: 'string' },
    wait: { type: 'string' },
    json: { type: 'boolean' },
  },
  async run(values, positionals) {
    const request = parseBreakerRequest(values, positionals);
    return withOperatorBus('warden-breaker-cli', (bus) =>
      request.action === 'show' ? show(bus, request.agentId, request.sessionId, request.json) : send(bus, request),
    );
  },
};

/** Publishes the command, then waits for the breaker's record of what it changed. */
async function send(bus: OperatorBus, request: Extract<BreakerRequest, { action: 'command' }>): Promise<number> {
  const { agentId, sessionId, payload, waitMs } = request;
  const message = createMessage('breaker.command', { agent_id: agentId, session_id: sessionId, payload });
  // Subscribed before publishing, so that a fast answer is not missed.
  const answers = bus.nc.subscribe(sessionSubscription('breaker', agentId, sessionId));
  try {
    const answer = waitMs > 0 ? applied(answers, message.id, waitMs) : Promise.resolve(undefined);
    await bus.nc.flush();
    await bus.js.publish(publishSubject('breaker_command', agentId, sessionId), new TextEncoder().encode(JSON.stringify(message)), { msgID: message.id });
    const result = await answer;
    if (!result) {
      out.line(`Sent ${payload.command} for ${agentId}/${sessionId} (message ${message.id}).`);
      if (waitMs > 0) out.line(`No breaker confirmed it within ${waitMs / 1000} s: is the breaker service running? The command waits in JetStream until one is.`);
      return 0;
    }
    const changed = result.payload.changed;
    out.step(`${payload.command} ${payload.breaker} for ${agentId}/${sessionId}: ${changed.length ? `changed ${changed.join(', ')}` : 'nothing to change'}`);
    return 0;
  } finally {
    answers.unsubscribe();
  }
}

function applied(answers: AsyncIterable<{ json<T>(): T }>, messageId: string, waitMs: number): Promise<MessageOf<'breaker.command_applied'> | undefined> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(undefined), waitMs);
    void (async () => {
      for await (const msg of answers) {
        let body: MessageOf<'breaker.command_applied'>;
        try {
          body = msg.json<MessageOf<'breaker.command_applied'>>();
        } catch {
          continue;
        }
        if (body.type === 'breaker.command_applied' && body.payload.command_message_id === messageId) {
          clearTimeout(timer);
          return resolve(body);
        }
      }
    })();
  });
}

async function show(bus: OperatorBus, agentId: string, sessionId: string, json: boolean): Promise<number> {
  let data: Uint8Array | undefined;
  try {
    const entry = await (await new Kvm(bus.nc).open(BREAKER_STATE_BUCKET)).get(breakerStateKey(agentId, sessionId));
    data = entry?.operation === 'PUT' ? entry.value : undefined;
  } catch (error) {
    out.error(`cannot read the KV bucket ${BREAKER_STATE_BUCKET}: ${(error as Error).message}. show needs a user with JetStream access (the service user).`);
    return 1;
  }
  if (!data) {
    out.error(`${agentId}/${sessionId} has no breaker state: the breaker has not seen the session, or it ended.`);
    return 1;
  }
  const record = parseBreakerState(data);
  if (!record) {
    out.error(`the value of ${BREAKER_STATE_BUCKET}.${breakerStateKey(agentId, sessionId)} is not a breaker state record`);
    return 1;
  }
  if (json) {
    out.line(JSON.stringify(record, null, 2));
    return 0;
  }
  const paint = (state: string) => (state === 'open' ? style.red(state) : state === 'half_open' ? style.yellow(state) : state);
  out.line(`${style.bold(`${agentId}/${sessionId}`)}: ${paint(record.state)} (updated ${record.updated_at})`);
  for (const b of record.breakers) {
    const flags = [b.disabled ? 'disabled' : '', b.metrics_only ? 'metrics only' : ''].filter(Boolean).join(', ');
    out.line(`  ${b.breaker.padEnd(11)} ${paint(b.state)}${flags ? ` [${flags}]` : ''}${b.reason ? `  ${b.reason}` : ''}${b.retry_at ? `  probing from ${b.retry_at}` : ''}`);
    if (b.suggestion && b.state !== 'closed') out.line(`  ${''.padEnd(11)} ${b.suggestion}`);
  }
  return 0;
}
