import type { KV } from '@nats-io/kv';
import { answerHook, couldNotDecide, HookInputError, hookInputOf, notRecordedWhy, parseHookInput, type AnyHookInput, type HookOutcome, type HookOutput, type SessionSurroundings } from '@warden/claude-code';
import type { Logger } from '@warden/observability';
import { AgentUnauthorized, type AgentConnections } from './agent-connections.js';
import type { GatewayConfig } from './config.js';
import type { GatewayMetrics } from './gateway-metrics.js';
import { credentialsOf, HookRequestError, policyOf } from './hook-request.js';
import { KvSessionStates, type CachedState, type SessionOwners } from './session-records.js';

/** A hook call as HTTP delivered it. */
export interface HookCall {
  authorization: string | undefined;
  entrypoint: string | undefined;
  query: Record<string, unknown>;
  body: unknown;
}

/** What to answer: 200 with the hook output (no body when there is nothing to say), or an error status with the reason. */
export type HookReply = { status: 200; output: HookOutput | null } | { status: HookRequestError['status']; error: string };

/**
 * Claude Code's HTTP hooks: authenticates the agent by its token, keeps a session to the agent it
 * belongs to, and answers through the same adapter as `warden hook` (@warden/claude-code), with the
 * agent's own connection. Nothing is published for a request that is refused.
 */
export class HookGateway {
  private readonly states = new Map<string, KvSessionStates>();
  private readonly stateCache = new Map<string, CachedState>();

  constructor(
    private readonly config: GatewayConfig,
    private readonly connections: AgentConnections,
    private readonly owners: SessionOwners,
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
    try {
      const credentials = credentialsOf(call.authorization);
      const policy = policyOf(call.query);
      let input: AnyHookInput;
      try {
        input = typeof call.body === 'string' ? parseHookInput(call.body) : hookInputOf(call.body);
      } catch (error) {
        if (error instanceof HookInputError) throw new HookRequestError(400, `not a Claude Code hook payload: ${error.message}`);
        throw error;
      }
      event = input.hook_event_name;
      if (!this.busUp()) {
        outcome = 'fail_closed';
        return this.unanswered(input, policy, 'cannot reach Warden: the gateway is not connected to NATS');
      }
      let client;
      try {
        client = await this.connections.client(credentials);
      } catch (error) {
        if (error instanceof AgentUnauthorized) throw new HookRequestError(401, `${error.message}: the token is not valid`);
        outcome = 'fail_closed';
        return this.unanswered(input, policy, `cannot reach Warden: ${(error as Error).message}`);
      }
      this.metrics.agents.set(this.connections.size);
      let owner: string;
      try {
        owner = await this.owners.claim(input.session_id, credentials.agentId);
      } catch (error) {
        outcome = 'fail_closed';
        return this.unanswered(input, policy, `the session's owner could not be read: ${(error as Error).message}`);
      }
      if (owner !== credentials.agentId) {
        throw new HookRequestError(403, `session ${input.session_id} belongs to another agent; agent ${credentials.agentId}'s token may not act in it`);
      }
      const states = this.statesOf(credentials.agentId);
      const surroundings: SessionSurroundings = this.config.trustEntrypointHeader && call.entrypoint ? { entrypoint: call.entrypoint } : {};
      const result: HookOutcome = await answerHook(input, {
        client,
        states,
        policy,
        surroundings,
        declaration: {},
        // A replica that serves the session already holds its control messages as they arrive.
        readStoredControls: !states.known(input.session_id),
        controlReadMs: this.config.controlReadMs,
        deadline: Date.now() + this.config.deadlineMs,
        deadlineMs: this.config.deadlineMs,
      });
      if (result.kind === 'not_recorded') {
        outcome = 'not_recorded';
        this.log.warn({ session_id: input.session_id, agent_id: credentials.agentId, event }, result.why);
        return { status: 200, output: { systemMessage: `Warden: ${result.why}` } };
      }
      return { status: 200, output: result.output };
    } catch (error) {
      if (!(error instanceof HookRequestError)) throw error;
      outcome = { 400: 'invalid', 401: 'unauthorized', 403: 'forbidden', 413: 'invalid', 503: 'fail_closed' }[error.status];
      return { status: error.status, error: error.message };
    } finally {
      this.metrics.calls.inc({ event, outcome });
      this.metrics.duration.observe({ event }, (performance.now() - started) / 1000);
    }
  }

  private unanswered(input: AnyHookInput, policy: ReturnType<typeof policyOf>, why: string): HookReply {
    if (input.hook_event_name === 'PreToolUse') return { status: 200, output: couldNotDecide(input, policy, why) };
    return { status: 200, output: { systemMessage: `Warden: ${notRecordedWhy(input, why)}` } };
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
