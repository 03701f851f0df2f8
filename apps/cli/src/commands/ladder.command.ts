import { Kvm } from '@nats-io/kv';
import {
  AUTOMATION_LEVEL_DEFINITIONS,
  createMessage,
  deadLetterSubscription,
  isSubjectToken,
  LADDER_RECORD_BUCKET,
  NO_SCOPE,
  publishSubject,
  sessionSubscription,
  type AutomationLevel,
  type MessageOf,
  type PayloadOf,
} from '@warden/contracts';
import { integerOption, UsageError, type Command } from '../command.js';
import { withOperatorBus, type OperatorBus } from '../operator-bus.js';
import { out, style } from '../output.js';

const DEFAULT_WAIT_MS = 10_000;
const LEVELS = AUTOMATION_LEVEL_DEFINITIONS.map((d) => `${d.level} ${d.name}`).join(', ');

/** What `warden ladder …` was asked to do, checked before anything connects. */
export type LadderRequest =
  | { action: 'show'; agentId: string; json: boolean }
  | { action: 'command'; agentId: string; payload: PayloadOf<'ladder.command'>; waitMs: number };

const SUBCOMMANDS = { pin: 'pin', unpin: 'unpin', set: 'set_level' } as const;

export function parseLadderRequest(values: Record<string, unknown>, positionals: string[]): LadderRequest {
  const [subcommand, agentId, level, ...extra] = positionals;
  if (!subcommand) throw new UsageError('say what to do: pin, unpin, set or show. Run `warden ladder --help`.');
  if (subcommand !== 'show' && !(subcommand in SUBCOMMANDS)) throw new UsageError(`unknown ladder command "${subcommand}": use pin, unpin, set or show`);
  if (!agentId) throw new UsageError(`warden ladder ${subcommand} needs the agent id`);
  if (!isSubjectToken(agentId)) throw new UsageError(`agent id "${agentId}" must be 1-128 letters, digits, - or _`);
  const takesLevel = subcommand === 'pin' || subcommand === 'set';
  const unexpected = takesLevel ? extra : [level, ...extra].filter((p) => p !== undefined);
  if (unexpected.length) throw new UsageError(`unexpected argument(s) for warden ladder ${subcommand}: ${unexpected.join(' ')}`);
  if (subcommand === 'show') return { action: 'show', agentId, json: values.json === true };

  const operatorId = values.operator as string | undefined;
  if (!operatorId?.trim()) throw new UsageError(`warden ladder ${subcommand} needs --operator <id>: who gives the command`);
  if (operatorId.length > 256) throw new UsageError('--operator must be at most 256 characters');
  const reason = values.reason as string | undefined;
  if (reason !== undefined && reason.length > 2000) throw new UsageError('--reason must be at most 2000 characters');
  const payload: PayloadOf<'ladder.command'> = {
    command: SUBCOMMANDS[subcommand as keyof typeof SUBCOMMANDS],
    operator_id: operatorId.trim(),
    ...(reason?.trim() ? { reason: reason.trim() } : {}),
  };
  if (takesLevel) {
    if (level === undefined) throw new UsageError(`warden ladder ${subcommand} needs the level (${LEVELS})`);
    if (!/^[0-4]$/.test(level)) throw new UsageError(`level must be 0-4 (${LEVELS}); got "${level}"`);
    payload.level = Number(level) as AutomationLevel;
  }
  return { action: 'command', agentId, payload, waitMs: integerOption(values, 'wait', DEFAULT_WAIT_MS, 0) };
}

export const ladderCommand: Command = {
  name: 'ladder',
  summary: "Show, pin, unpin or set an agent's automation level",
  help: `Usage:
  warden ladder pin <agent> <level> --operator <id> [--reason TEXT]
  warden ladder unpin <agent> --operator <id> [--reason TEXT]
  warden ladder set <agent> <level> --operator <id> [--reason TEXT]
  warden ladder show <agent> [--json]

The automation ladder grants each agent a level of autonomy from its track record (runs, false
positives, missed critical bugs, human approval rate). Operators can step in:

  pin     hold the agent at <level>: no promotion and no demotion (not even by an emergency stop)
          until it is unpinned
  unpin   let the ladder manage the level again, from where it is
  set     put the agent at <level> and let the ladder manage it from there (refused while pinned)
  show    the agent's level, track record and pin, read from the KV bucket ${LADDER_RECORD_BUCKET}

Levels: ${LEVELS}.
Production deploys keep their human gate at every level.

pin, unpin and set publish a ladder.command and wait for the ladder to confirm the change (or say why
it refused). A command sent while no ladder runs waits in JetStream and applies when one starts.

Options:
  --operator ID   who gives the command; recorded as changed_by in the audit trail (pin, unpin, set)
  --reason TEXT   why; kept with the change in the audit trail
  --wait MS       how long to wait for the ladder's confirmation [${DEFAULT_WAIT_MS}]; 0 sends without waiting
  --json          show: print the stored record as JSON

Environment: NATS_URL [nats://127.0.0.1:4222], NATS_USER, NATS_PASSWORD. pin, unpin and set work with the
operator user; show reads JetStream KV and needs a user with JetStream access (the service user).

Examples:
  warden ladder pin claude-code 1 --operator alice --reason "New model version: keep it supervised"
  warden ladder show claude-code`,
  options: {
    operator: { type: 'string' },
    reason: { type: 'string' },
    wait: { type: 'string' },
    json: { type: 'boolean' },
  },
  async run(values, positionals) {
    const request = parseLadderRequest(values, positionals);
    return withOperatorBus('warden-ladder-cli', (bus) =>
      request.action === 'show' ? show(bus, request.agentId, request.json) : send(bus, request.agentId, request.payload, request.waitMs),
    );
  },
};

const label = (level: number) => `${AUTOMATION_LEVEL_DEFINITIONS[level]?.name ?? 'unknown'} (level ${level})`;

/** Publishes the command, then waits for the level change it caused or the dead letter that refused it. */
async function send(bus: OperatorBus, agentId: string, payload: PayloadOf<'ladder.command'>, waitMs: number): Promise<number> {
  const message = createMessage('ladder.command', { agent_id: agentId, session_id: NO_SCOPE, payload });
  // Subscribed before publishing, so that a fast answer is not missed.
  const changes = bus.nc.subscribe(sessionSubscription('ladder', agentId, NO_SCOPE));
  const refusals = bus.nc.subscribe(deadLetterSubscription(agentId, NO_SCOPE, { service: 'ladder', channel: 'ladder_command' }));
  try {
    const answer = waitMs > 0 ? firstAnswer(message.id, changes, refusals, waitMs) : Promise.resolve(undefined);
    await bus.nc.flush();
    await bus.js.publish(publishSubject('ladder_command', agentId, NO_SCOPE), new TextEncoder().encode(JSON.stringify(message)), { msgID: message.id });
    const result = await answer;
    if (!result) {
      out.line(`Sent ${payload.command} for ${agentId} (message ${message.id}).`);
      if (waitMs > 0) {
        out.line(
          `The ladder reported no change within ${waitMs / 1000} s: the agent was already in that state, or no ladder is running ` +
            '(the command waits in JetStream until one starts). `warden ladder show` tells the current state.',
        );
      }
      return 0;
    }
    if (result.kind === 'refused') {
      out.error(`the ladder refused ${payload.command} for ${agentId}: ${result.detail}`);
      return 1;
    }
    const { from, to, reason } = result.change.payload;
    out.step(`${agentId}: ${from === to ? label(to) : `${label(from)} → ${label(to)}`}`);
    out.line(`    ${reason}`);
    return 0;
  } finally {
    changes.unsubscribe();
    refusals.unsubscribe();
  }
}

type Answer = { kind: 'changed'; change: MessageOf<'ladder.level_changed'> } | { kind: 'refused'; detail: string };

function firstAnswer(
  messageId: string,
  changes: AsyncIterable<{ json<T>(): T }>,
  refusals: AsyncIterable<{ json<T>(): T }>,
  waitMs: number,
): Promise<Answer | undefined> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(undefined), waitMs);
    const settle = (answer: Answer) => {
      clearTimeout(timer);
      resolve(answer);
    };
    const follow = async (messages: AsyncIterable<{ json<T>(): T }>, read: (body: Record<string, unknown>) => Answer | undefined) => {
      for await (const msg of messages) {
        let body: Record<string, unknown>;
        try {
          body = msg.json<Record<string, unknown>>();
        } catch {
          continue;
        }
        const answer = read(body);
        if (answer) return settle(answer);
      }
    };
    void follow(changes, (body) =>
      body.type === 'ladder.level_changed' && body.causation_id === messageId ? { kind: 'changed', change: body as unknown as MessageOf<'ladder.level_changed'> } : undefined,
    );
    void follow(refusals, (body) => {
      const letter = body.payload as { original_message_id?: string; detail?: string } | undefined;
      return letter?.original_message_id === messageId ? { kind: 'refused', detail: letter.detail ?? 'no reason given' } : undefined;
    });
  });
}

/** The parts of a track record `show` prints. The ladder owns the format (apps/ladder/README.md); read defensively. */
interface ShownRecord {
  level: number;
  metrics: { totalRuns: number; successfulRuns: number; falsePositives: number; missedCriticalBugs: number; approvalRate: number; lastUpdated: string };
  pin: { by: string; reason?: string; at: string } | null;
  emergencyStops?: number;
  promotionBlockedUntilRun?: number;
  levelChangedAt?: string;
  recentChanges?: { from: number; to: number; reason: string; changedBy: string; at: string }[];
}

function looksLikeRecord(value: unknown): value is ShownRecord {
  const record = value as Partial<ShownRecord> | null;
  return (
    typeof record === 'object' &&
    record !== null &&
    typeof record.level === 'number' &&
    typeof record.metrics === 'object' &&
    record.metrics !== null &&
    typeof record.metrics.totalRuns === 'number' &&
    typeof record.metrics.approvalRate === 'number' &&
    (record.pin === null || typeof record.pin?.by === 'string')
  );
}

async function show(bus: OperatorBus, agentId: string, json: boolean): Promise<number> {
  let text: string | undefined;
  try {
    const kv = await new Kvm(bus.nc).open(LADDER_RECORD_BUCKET);
    const entry = await kv.get(agentId);
    text = entry?.operation === 'PUT' ? entry.string() : undefined;
  } catch (error) {
    out.error(`cannot read the KV bucket ${LADDER_RECORD_BUCKET}: ${(error as Error).message}. show needs a user with JetStream access (the service user).`);
    return 1;
  }
  if (text === undefined) {
    out.error(`${agentId} has no track record yet: the ladder has seen no run, emergency stop or command of it.`);
    return 1;
  }
  let record: unknown;
  try {
    record = JSON.parse(text);
  } catch {
    record = undefined;
  }
  if (!looksLikeRecord(record)) {
    out.error(`the value of ${LADDER_RECORD_BUCKET}.${agentId} is not a track record`);
    return 1;
  }
  if (json) {
    out.line(JSON.stringify(record, null, 2));
    return 0;
  }
  const m = record.metrics;
  const rate = (value: number) => String(Number(value.toFixed(3)));
  out.line(`${style.bold(agentId)}: ${label(record.level)}${record.pin ? style.yellow(`, pinned by ${record.pin.by} since ${record.pin.at}`) : ''}`);
  if (record.pin?.reason) out.line(`  pin reason        ${record.pin.reason}`);
  out.line(`  runs              ${m.totalRuns} (${m.successfulRuns} successful)`);
  out.line(`  false positives   ${m.falsePositives} (rate ${rate(m.totalRuns ? m.falsePositives / m.totalRuns : 0)})`);
  out.line(`  missed critical   ${m.missedCriticalBugs}`);
  out.line(`  approval rate     ${rate(m.approvalRate)}`);
  if (record.emergencyStops !== undefined) out.line(`  emergency stops   ${record.emergencyStops}`);
  if (record.promotionBlockedUntilRun !== undefined && record.promotionBlockedUntilRun > m.totalRuns) {
    out.line(`  probation         no promotion before run ${record.promotionBlockedUntilRun}`);
  }
  if (record.levelChangedAt) out.line(`  level since       ${record.levelChangedAt}`);
  out.line(`  last run          ${m.totalRuns ? m.lastUpdated : 'none yet'}`);
  const next = AUTOMATION_LEVEL_DEFINITIONS[record.level + 1];
  if (next && !record.pin) {
    const r = next.requirements;
    const needs = [`${r.minRuns} runs`, `false-positive rate <= ${r.maxFalsePositiveRate}`, `missed critical bugs <= ${r.maxMissedCriticalBugs}`];
    if (r.minApprovalRate !== undefined) needs.push(`approval rate >= ${r.minApprovalRate}`);
    out.line(`  next level        ${label(next.level)} needs ${needs.join(', ')}`);
  }
  const changes = record.recentChanges ?? [];
  if (changes.length) {
    out.line('  recent changes');
    for (const change of changes.slice(-5)) out.line(`    ${change.at}  ${change.from} → ${change.to}  ${change.changedBy}: ${change.reason}`);
  }
  return 0;
}
