import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AckPolicy, DeliverPolicy, type ConsumerMessages } from '@nats-io/jetstream';
import { createMessage, EXAMPLE_PAYLOADS, publishSubject, type AnyMessage, type MessageType, type PayloadOf, type SessionChannelId } from '@warden/contracts';
import { type BusConnection, streamName } from '@warden/messaging';
import { eventually } from '@warden/testing';

export const AGENT = 'agent-1';
/** The services whose state the fault scenarios check: the decision path and the three stateful supervisors. */
export const SUPERVISION = ['reviewer', 'gate', 'breaker', 'pattern-detector', 'intervention-controller'] as const;

const encoder = new TextEncoder();
const decoder = new TextDecoder();
const GOAL = 'Fix the failing date parser test';

/**
 * Settings that make a session's results depend only on its own messages, not on how long the run
 * took (a 30 s outage stretches a session): windows and cooldowns longer than any run, no day budget
 * shared by the sessions of the agent, and one kind of issue per session script, so that which issue
 * reaches the intervention controller first is never a race between streams.
 */
export function settingsFiles(): { env: Record<string, string>; cleanup: () => void } {
  const dir = mkdtempSync(join(tmpdir(), 'warden-fault-settings-'));
  const breakers = join(dir, 'breakers.yaml');
  const patterns = join(dir, 'patterns.yaml');
  const interventions = join(dir, 'interventions.yaml');
  writeFileSync(breakers, ['breakers:', '  iteration: { repeated_failures: 1000 }', '  cost: { budgets: { per_day: 1000000 } }', '  error_rate: { window_ms: 3600000, min_events: 1000 }'].join('\n'));
  writeFileSync(patterns, ['patterns:', '  resource_spiral: { enabled: false }'].join('\n'));
  writeFileSync(interventions, ['interventions:', '  intervention_cooldown_seconds: 3600', '  history_window_seconds: 3600'].join('\n'));
  return {
    env: { BREAKER_CONFIG: breakers, PATTERN_DETECTOR_CONFIG: patterns, INTERVENTIONS_CONFIG: interventions },
    cleanup: () => rmSync(dir, { recursive: true, force: true }),
  };
}

interface Step {
  tool: string;
  input: Record<string, unknown>;
  status: 'success' | 'error';
  tokens?: number;
}

/**
 * What session `index` does, by its kind: the same failing test run again and again (a pattern); a
 * destructive command among reads (a block); expensive model calls (the cost breaker); ordinary work.
 */
export function script(index: number): Step[] {
  const read = (n: number): Step => ({ tool: 'Read', input: { file_path: `/work/app/src/file-${n}.ts` }, status: 'success', tokens: 2_000 });
  switch (index % 4) {
    case 0:
      return Array.from({ length: 6 }, () => ({ tool: 'Bash', input: { command: 'npm test -- --grep parser' }, status: 'error', tokens: 2_000 }));
    case 1:
      return [read(1), read(2), { tool: 'Bash', input: { command: 'rm -rf /' }, status: 'error' }, read(3), read(4)];
    case 2:
      return Array.from({ length: 5 }, (_, n) => ({ ...read(n), tokens: 150_000 }));
    default:
      return [read(1), { tool: 'Edit', input: { file_path: '/work/app/src/parser.ts', old_string: 'a', new_string: 'b' }, status: 'success', tokens: 3_000 }, read(2)];
  }
}

/**
 * Plays sessions as agents do, over the service user's connection: declare, then each action waits for
 * its decision before its outcome is reported. Every publication is retried with the same message id
 * until JetStream stores it (a leader election, a server down); decisions are read from the decision
 * stream by a durable consumer, so none is missed while the connection is away.
 */
export class AgentLoad {
  private readonly waiting = new Map<string, (decision: string) => void>();
  private readonly decided = new Map<string, string>();
  /** Decisions in the order the decision stream holds them, per session. */
  readonly decisions = new Map<string, string[]>();
  private messages?: ConsumerMessages;
  decidedCount = 0;

  private constructor(private readonly bus: BusConnection) {}

  static async start(bus: BusConnection, name: string): Promise<AgentLoad> {
    const load = new AgentLoad(bus);
    const stream = streamName('decision');
    await bus.jsm.consumers.add(stream, { durable_name: name, ack_policy: AckPolicy.Explicit, deliver_policy: DeliverPolicy.New, filter_subject: `warden.decision.*.${AGENT}.*` });
    const consumer = await bus.js.consumers.get(stream, name);
    load.messages = await consumer.consume();
    void (async () => {
      for await (const m of load.messages!) {
        const body = JSON.parse(decoder.decode(m.data)) as { session_id: string; payload: { action_id: string; decision: string } };
        const key = `${body.session_id}/${body.payload.action_id}`;
        if (!load.decided.has(key)) {
          load.decided.set(key, body.payload.decision);
          load.decisions.set(body.session_id, [...(load.decisions.get(body.session_id) ?? []), `${body.payload.action_id}:${body.payload.decision}`]);
          load.decidedCount++;
          load.waiting.get(key)?.(body.payload.decision);
        }
        m.ack();
      }
    })();
    return load;
  }

  stop(): void {
    void this.messages?.close();
  }

  /** Runs `count` sessions named `<prefix>-<index>` at once; resolves when each has had every decision. */
  async run(prefix: string, count: number): Promise<void> {
    await Promise.all(Array.from({ length: count }, (_, index) => this.session(`${prefix}-${index}`, index)));
  }

  /**
   * Starts `count` sessions and resolves once `share` of their decisions have come (the run goes on):
   * the moment to inject a fault, while every service is busy. `finished` resolves with the run.
   */
  async runUntil(prefix: string, count: number, share: number): Promise<{ finished: Promise<void> }> {
    const before = this.decidedCount;
    const expected = Array.from({ length: count }, (_, index) => script(index).length).reduce((a, b) => a + b, 0);
    const finished = this.run(prefix, count);
    finished.catch(() => undefined);
    await eventually(`${Math.round(share * 100)}% of the decisions of ${prefix}`, () => this.decidedCount - before >= expected * share, { timeoutMs: 120_000, intervalMs: 20 });
    if (this.decidedCount - before >= expected) throw new Error(`every session of ${prefix} ended before the fault`);
    return { finished };
  }

  private async session(sessionId: string, index: number): Promise<void> {
    await this.publish('session', sessionId, 'session.started', { ...EXAMPLE_PAYLOADS['session.started'], context: { goal: GOAL, expected_paths: ['/work/app/**'], cwd: '/work/app' }, phase: 'implementation' });
    for (const [n, step] of script(index).entries()) {
      const actionId = `a${n}`;
      const decided = this.decision(sessionId, actionId);
      await this.publish('action', sessionId, 'action.proposed', { action_id: actionId, kind: 'tool_use', tool: step.tool, input: step.input, phase: 'implementation', context: { goal: GOAL, expected_paths: ['/work/app/**'], cwd: '/work/app' } });
      await decided;
      await this.publish('outcome', sessionId, 'action.outcome', {
        action_id: actionId,
        tool: step.tool,
        status: step.status,
        ...(step.status === 'error' ? { error: { message: 'AssertionError: expected 2026-11-24 to equal 2026-11-25', class: 'AssertionError' } } : {}),
        ...(step.tokens ? { model: 'claude-opus-4-6', tokens: { prompt: step.tokens, completion: step.tokens } } : {}),
      });
    }
  }

  private decision(sessionId: string, actionId: string): Promise<string> {
    const key = `${sessionId}/${actionId}`;
    const known = this.decided.get(key);
    if (known) return Promise.resolve(known);
    return new Promise((resolve) => this.waiting.set(key, resolve));
  }

  private async publish<T extends MessageType>(channel: SessionChannelId, sessionId: string, type: T, payload: PayloadOf<T>): Promise<void> {
    const message = createMessage(type, { agent_id: AGENT, session_id: sessionId, payload } as never) as AnyMessage;
    const data = encoder.encode(JSON.stringify(message));
    const deadline = Date.now() + 180_000;
    for (;;) {
      try {
        await this.bus.js.publish(publishSubject(channel, AGENT, sessionId), data, { msgID: message.id, timeout: 5_000 });
        return;
      } catch (error) {
        if (Date.now() > deadline) throw error;
        // The bus is away or electing a leader: the same message again, which JetStream stores once.
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
    }
  }
}

/** What the suite made of a session: what a fault must not change. */
export interface SessionResult {
  decisions: string[];
  patterns: string[];
  breakers: string[];
  interventions: string[];
}

/** Reads every message of `prefix`'s sessions from the pattern, breaker and intervention streams, and the dead letters. */
export async function results(bus: BusConnection, load: AgentLoad, prefix: string, count: number): Promise<{ sessions: SessionResult[]; deadLetters: number }> {
  const sessions = Array.from({ length: count }, (_, index): SessionResult => ({ decisions: load.decisions.get(`${prefix}-${index}`) ?? [], patterns: [], breakers: [], interventions: [] }));
  const indexOf = (sessionId: string) => (sessionId.startsWith(`${prefix}-`) ? Number(sessionId.slice(prefix.length + 1)) : -1);
  for (const channel of ['pattern', 'breaker', 'intervention'] as const) {
    for (const body of await retried(`the ${channel} stream`, () => stored(bus, streamName(channel), `warden.${channel}.*.${AGENT}.*`))) {
      const session = sessions[indexOf(body.session_id)];
      if (!session) continue;
      const p = body.payload as Record<string, unknown>;
      if (body.type === 'pattern.detected') session.patterns.push(`${p['pattern_type']}#${p['episode']}`);
      else if (body.type === 'intervention.issued') session.interventions.push(`${p['intervention_type']}<-${(p['trigger'] as { issue_type: string }).issue_type}`);
      else if (body.type.startsWith('breaker.')) session.breakers.push([body.type, p['breaker'], p['reason'], p['action_id']].filter((x) => x !== undefined).join(':'));
    }
  }
  for (const s of sessions) for (const list of [s.patterns, s.breakers, s.interventions]) list.sort();
  const deadLetters = (await retried('the dead letters', () => stored(bus, streamName('deadletter'), 'warden.deadletter.>'))).length;
  return { sessions, deadLetters };
}

/** A read while the bus may still be electing leaders or reconnecting: tried again until it succeeds. */
async function retried<T>(what: string, read: () => Promise<T>): Promise<T> {
  const box = await eventually(`reading ${what}`, () => read().then((value) => ({ value }), () => undefined), { timeoutMs: 60_000, intervalMs: 500 });
  return box.value;
}

async function stored(bus: BusConnection, stream: string, subject: string): Promise<AnyMessage[]> {
  const info = await bus.jsm.streams.info(stream, { subjects_filter: subject });
  const total = Object.values(info.state.subjects ?? {}).reduce((a, b) => a + b, 0);
  if (!total) return [];
  const consumer = await bus.js.consumers.get(stream, { filter_subjects: subject });
  const messages: AnyMessage[] = [];
  for await (const m of await consumer.consume()) {
    messages.push(JSON.parse(decoder.decode(m.data)) as AnyMessage);
    if (m.info.pending === 0) break;
  }
  await consumer.delete().catch(() => undefined);
  return messages;
}
