import {
  derivedMessageId,
  newMessageId,
  type ActionKind,
  type MessageOf,
  type PayloadOf,
  type Phase,
  type PhaseProgress,
} from '@warden/contracts';
import type { ActionDecision } from './decision.js';
import type { WardenClient } from './warden-client.js';

export type SessionContext = NonNullable<PayloadOf<'session.started'>['context']>;
export type ControlMessage = MessageOf<'control.issued'>;

export interface ProposedAction {
  /** Tool name as the agent knows it: Bash, Read, Edit, mcp__github__create_issue, ... */
  tool: string;
  input: Record<string, unknown>;
  /** Default tool_use. */
  kind?: ActionKind | (string & {});
  /** Correlates the action with its decision and outcome; default a new UUID (use the tool-use id when there is one). */
  actionId?: string;
  description?: string;
  phase?: Phase;
  context?: SessionContext;
}

export interface ProposeOptions {
  timeoutMs?: number;
  /** Pause the session at the gate for a human before anything of it is forwarded. */
  hitlRequired?: boolean;
}

export interface ActionOutcome {
  actionId: string;
  status: 'success' | 'error';
  tool?: string;
  error?: { message: string; class?: string };
  durationMs?: number;
  model?: string;
  tokens?: { prompt: number; completion: number };
  filesTouched?: string[];
  outputExcerpt?: string;
  phase?: Phase;
  /** Progress made in this iteration, per the phase's definition (tasks, files, tests, findings, stage). */
  progress?: PhaseProgress;
}

/** One session of an agent: what it declares, proposes, reports and is told. */
export class AgentSession {
  private readonly listeners = new Set<(control: ControlMessage) => void>();
  private readonly backlog: ControlMessage[] = [];

  constructor(
    private readonly client: WardenClient,
    readonly sessionId: string,
  ) {}

  get agentId(): string {
    return this.client.agentId;
  }

  /** Declares the session: the goal, expected paths and constraints the reviewer checks actions against. */
  async start(details: PayloadOf<'session.started'>): Promise<void> {
    await this.client.publish(this.client.message('session.started', this.sessionId, { payload: details }));
  }

  async changePhase(phase: Phase, previous?: Phase): Promise<void> {
    await this.client.publish(
      this.client.message('session.phase_changed', this.sessionId, { payload: { phase, ...(previous ? { previous_phase: previous } : {}) } }),
    );
  }

  async end(result: PayloadOf<'session.ended'>): Promise<void> {
    await this.client.publish(this.client.message('session.ended', this.sessionId, { payload: result }));
  }

  /**
   * Proposes an action and resolves with the final decision: once JetStream stored the action, Warden
   * reviews it and the gate answers. Without an answer in time the client's timeout policy decides
   * (deny by default). Rejects only when the action does not match its contract.
   */
  propose(action: ProposedAction, options: ProposeOptions = {}): Promise<ActionDecision> {
    const actionId = action.actionId ?? newMessageId();
    const message = this.client.message('action.proposed', this.sessionId, {
      id: this.client.actionMessageId(this.sessionId, actionId),
      payload: {
        action_id: actionId,
        kind: action.kind ?? 'tool_use',
        tool: action.tool,
        input: action.input,
        ...(action.description ? { description: action.description } : {}),
        ...(action.phase ? { phase: action.phase } : {}),
        ...(action.context ? { context: action.context } : {}),
      },
      ...(options.hitlRequired ? { control: { hitl_required: true } } : {}),
    });
    return this.client.propose(message, options.timeoutMs ?? this.client.decisionTimeoutMs);
  }

  /** Reports what happened when the action ran, so breakers and detectors see results. */
  async report(outcome: ActionOutcome): Promise<void> {
    const payload: PayloadOf<'action.outcome'> = {
      action_id: outcome.actionId,
      status: outcome.status,
      ...(outcome.tool ? { tool: outcome.tool } : {}),
      ...(outcome.error ? { error: outcome.error } : {}),
      ...(outcome.durationMs !== undefined ? { duration_ms: outcome.durationMs } : {}),
      ...(outcome.model ? { model: outcome.model } : {}),
      ...(outcome.tokens ? { tokens: outcome.tokens } : {}),
      ...(outcome.filesTouched ? { files_touched: outcome.filesTouched } : {}),
      ...(outcome.outputExcerpt ? { output_excerpt: outcome.outputExcerpt } : {}),
      ...(outcome.phase ? { phase: outcome.phase } : {}),
      ...(outcome.progress ? { progress: outcome.progress } : {}),
    };
    await this.client.publish(
      this.client.message('action.outcome', this.sessionId, {
        id: derivedMessageId('action.outcome', `${this.agentId}:${this.sessionId}:${outcome.actionId}`),
        trace_id: this.client.actionMessageId(this.sessionId, outcome.actionId),
        payload,
      }),
    );
  }

  /**
   * Calls `listener` with every control message for this session (corrections, throttling, rollback,
   * stop), including those that arrived before it was registered. Returns a function that unsubscribes.
   */
  onControl(listener: (control: ControlMessage) => void): () => void {
    this.listeners.add(listener);
    for (const control of this.backlog.splice(0)) listener(control);
    return () => this.listeners.delete(listener);
  }

  /** Confirms that a control message was applied (or could not be), e.g. that the agent stopped. */
  async acknowledge(control: ControlMessage, status: 'applied' | 'failed' | 'stopped', detail?: string): Promise<void> {
    await this.client.publish(
      this.client.message('control.acknowledged', this.sessionId, {
        trace_id: control.trace_id,
        causation_id: control.id,
        payload: { control_id: control.payload.control_id, status, ...(detail ? { detail } : {}) },
      }),
    );
  }

  /** @internal routed here by the client */
  deliverControl(control: ControlMessage): void {
    if (!this.listeners.size) this.backlog.push(control);
    for (const listener of this.listeners) listener(control);
  }
}
