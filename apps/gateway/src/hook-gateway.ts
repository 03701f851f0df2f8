import type { KV } from '@nats-io/kv';
import { answerEvent, EdgeInputError, fallbackRecord, recordUndecided, unhandledOutcome, type AgentAdapter, type EdgeEvent, type EdgeOutcome, type SessionSurroundings } from '@warden/agent-edge';
import type { FallbackRecord } from '@warden/sdk';
import type { Logger } from '@warden/observability';
import { AgentUnauthorized, type AgentConnections } from './agent-connections.js';
import type { GatewayConfig } from './config.js';
import type { GatewayMetrics } from './gateway-metrics.js';
import { credentialsOf, HookRequestError, policyOf, usageFromTranscriptOf } from './hook-request.js';
import { KvSessionStates, type CachedState } from './kv-session-states.js';
import type { SessionOwners } from './session-records.js';

/** Answers kept per agent while Warden cannot be reached. */
const UNRECORDED_KEPT = 1_000;

/** A hook call as HTTP delivered it, for the agent whose endpoint it reached. */
export interface HookCall {
  adapter: AgentAdapter;
  authorization: string | undefined;
  entrypoint: string | undefined;
  query: Record<string, unknown>;
  body: unknown;
}

/**
 * What to answer: 200 with the agent's answer (no body when there is nothing to say), or an error status
 * with the reason. `afterwards`: what follows the answer (a call's record, off the decision's path), to
 * start once the answer is sent.
 */
export type HookReply = { status: 200; output: Record<string, unknown> | null; afterwards?: () => void } | { status: HookRequestError['status']; error: string };

/**
 * Every agent's hooks over HTTP (`POST /hooks/<agent>`, straight from the agent or through its command
 * shim): authenticates the agent by its token, keeps a session to the agent it belongs to, reads the
 * payload with the agent's adapter and answers through the same edge as `warden hook`
 * (@warden/agent-edge), with the agent's own connection. Nothing is published for a request that is
 * refused.
 */
export class HookGateway {
  private readonly states = new Map<string, KvSessionStates>();
  /** Per agent, answers given while Warden could not be reached, not recorded yet. */
  private readonly unrecorded = new Map<string, FallbackRecord[]>();
  private readonly stateCache = new Map<string, CachedState>();
  /** What follows answers already sent, still running: a replica that stops finishes it first (drain). */
  private readonly settling = new Set<Promise<void>>();

  constructor(
    private readonly config: GatewayConfig,
    private readonly connections: AgentConnections,
    /** Which agent each session belongs to; the telemetry receiver asks the same. */
    readonly owners: SessionOwners,
    private readonly kv: KV,
    private readonly metrics: GatewayMetrics,
    private readonly log: Logger,
    /** Whether the gateway's own connection is up: while NATS is away, calls fail closed at once. */
    private readonly busUp: () => boolean = () => true,
  ) {}

  async handle(call: HookCall): Promise<HookReply> {
    const started = performance.now();
    let event = 'unknown';
    let outcome = 'answered';
    const { adapter } = call;
    try {
      const credentials = credentialsOf(call.authorization);
      const policy = policyOf(call.query);
      const usageFromTranscript = usageFromTranscriptOf(call.query);
      let input: EdgeEvent;
      try {
        const body = typeof call.body === 'string' ? parseJson(call.body) : call.body;
        input = adapter.read(body, typeof call.query.event === 'string' ? { event: call.query.event } : {});
      } catch (error) {
        if (error instanceof EdgeInputError) throw new HookRequestError(400, `not a ${adapter.title} hook payload: ${error.message}`);
        throw error;
      }
      event = input.type;
      if (!this.busUp()) {
        outcome = 'fail_closed';
        return this.unreached(credentials.agentId, adapter, input, unhandledOutcome(input, adapter, policy, 'cannot reach Warden: the gateway is not connected to NATS'));
      }
      let client;
      try {
        client = await this.connections.client(credentials);
      } catch (error) {
        if (error instanceof AgentUnauthorized) throw new HookRequestError(401, error.message);
        outcome = 'fail_closed';
        return this.unreached(credentials.agentId, adapter, input, unhandledOutcome(input, adapter, policy, `cannot reach Warden: ${(error as Error).message}`));
      }
      // Answers given while Warden could not be reached, recorded now that it can be.
      for (const record of this.unrecorded.get(credentials.agentId)?.splice(0) ?? []) void client.recordFallback(record);
      this.metrics.agents.set(this.connections.size);
      let owner: string;
      try {
        owner = await this.owners.claim(input.session.id, credentials.agentId);
      } catch (error) {
        outcome = 'fail_closed';
        const unowned = unhandledOutcome(input, adapter, policy, `the session's owner could not be read: ${(error as Error).message}`);
        if (unowned.kind === 'answer') recordUndecided(input, unowned.answer, client, 'gateway');
        return this.reply(adapter, input, unowned);
      }
      if (owner !== credentials.agentId) {
        throw new HookRequestError(403, `session ${input.session.id} belongs to another agent; agent ${credentials.agentId}'s token may not act in it`);
      }
      const states = this.statesOf(credentials.agentId);
      const surroundings: SessionSurroundings = this.config.trustEntrypointHeader && call.entrypoint ? { entrypoint: call.entrypoint } : {};
      const result: EdgeOutcome = await answerEvent(input, {
        adapter,
        client,
        states,
        policy,
        surroundings,
        declaration: {},
        // A replica that serves the session already holds its control messages as they arrive.
        readStoredControls: !states.known(input.session.id),
        controlReadMs: this.config.controlReadMs,
        deadline: Date.now() + this.config.deadlineMs,
        deadlineMs: this.config.deadlineMs,
        answeredBy: 'gateway',
        usageFromTranscript,
      });
      if (result.kind === 'not_recorded') {
        outcome = 'not_recorded';
        this.log.warn({ session_id: input.session.id, agent_id: credentials.agentId, agent: adapter.name, event }, result.why);
      }
      return this.reply(adapter, input, result);
    } catch (error) {
      if (!(error instanceof HookRequestError)) throw error;
      outcome = { 400: 'invalid', 401: 'unauthorized', 403: 'forbidden', 413: 'invalid', 503: 'fail_closed' }[error.status];
      return { status: error.status, error: error.message };
    } finally {
      this.metrics.calls.inc({ agent_kind: adapter.name, event, outcome });
      this.metrics.duration.observe({ agent_kind: adapter.name, event }, (performance.now() - started) / 1000);
    }
  }

  /**
   * The answer to a call Warden could not be reached for, recorded as soon as the agent's connection can
   * be opened again (its next call): what the agent was told stays on record.
   */
  private unreached(agentId: string, adapter: AgentAdapter, event: EdgeEvent, outcome: EdgeOutcome): HookReply {
    const record = outcome.kind === 'answer' ? fallbackRecord(event, outcome.answer, 'gateway') : undefined;
    // Bounded: an outage of hours keeps the latest answers, not all of them.
    if (record) this.unrecorded.set(agentId, [...(this.unrecorded.get(agentId) ?? []), record].slice(-UNRECORDED_KEPT));
    return this.reply(adapter, event, outcome);
  }

  /** The agent's answer to an outcome; what could not be recorded is told to the person at the agent. */
  private reply(adapter: AgentAdapter, event: EdgeEvent, outcome: EdgeOutcome): HookReply {
    const answer = outcome.kind === 'answer' ? outcome.answer : { context: [], notice: `Warden: ${outcome.why}` };
    const settle = outcome.kind === 'answer' ? outcome.settle : undefined;
    return { status: 200, output: adapter.write(event, answer), ...(settle ? { afterwards: () => this.follow(settle) } : {}) };
  }

  private follow(settle: () => Promise<void>): void {
    const running = settle().finally(() => this.settling.delete(running));
    this.settling.add(running);
  }

  /** Waits for what follows the answers already sent (the calls' records): before the replica closes its connections. */
  async drain(): Promise<void> {
    while (this.settling.size) await Promise.all([...this.settling]);
  }

  /** Whether a token is one the gateway takes (NATS accepts the agent's secret); nothing is published. */
  async whoami(authorization: string | undefined): Promise<{ status: 200; agentId: string } | { status: 401 | 503; error: string }> {
    try {
      const credentials = credentialsOf(authorization);
      await this.connections.client(credentials);
      return { status: 200, agentId: credentials.agentId };
    } catch (error) {
      if (error instanceof HookRequestError) return { status: 401, error: error.message };
      if (error instanceof AgentUnauthorized) return { status: 401, error: error.message };
      return { status: 503, error: `cannot reach Warden: ${(error as Error).message}` };
    }
  }

  private statesOf(agentId: string): KvSessionStates {
    let states = this.states.get(agentId);
    if (!states) {
      states = new KvSessionStates(this.kv, agentId, this.stateCache);
      this.states.set(agentId, states);
    }
    return states;
  }
}

/** A body that is not JSON is a payload no adapter reads. */
function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new EdgeInputError(`the payload is not JSON (${(error as Error).message})`);
  }
}
