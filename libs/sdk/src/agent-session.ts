import {
  checkpointBucket,
  checkpointObjectName,
  derivedMessageId,
  GOAL_MAX_LENGTH,
  TURN_END_MAX_LENGTH,
  newMessageId,
  type ActionKind,
  type MessageOf,
  type PayloadOf,
  type Phase,
  type PhaseProgress,
} from '@warden/contracts';
import type { ActionDecision } from './decision.js';
import type { WardenClient } from './warden-client.js';

/** A message's timestamp for an event that happened at `at`; none (now) without it. */
const timestampOf = (at: Date | undefined) => (at ? { timestamp: at.toISOString() } : {});

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
  /** The subagent that proposes it (e.g. Claude Code's agent_id and agent_type), so its work stays apart from its parent's. */
  subagent?: { id?: string; type?: string };
  /** Where it runs, when the agent's shell has moved (cd) since the session was declared. */
  cwd?: string;
  /** The model response it came in (e.g. Claude Code's message id): calls of one turn were made before any of their results came back. */
  turn?: string;
  /**
   * When the agent proposed it, for a recording replayed later (default: now). Warden reads its windows
   * and rates on the agent's clock, never ahead of when the message was stored.
   */
  at?: Date;
}

export interface ProposeOptions {
  timeoutMs?: number;
  /** Pause the session at the gate for a human before anything of it is forwarded. */
  hitlRequired?: boolean;
  /**
   * Who answers a require_approval: an operator at the gate (default), or the agent's own user, whom
   * the agent asks when the decision says `askUser`.
   */
  approver?: 'operator' | 'agent_user';
}

export interface ActionOutcome {
  actionId: string;
  status: 'success' | 'error';
  tool?: string;
  error?: { message: string; class?: string };
  durationMs?: number;
  model?: string;
  /** `prompt` counts the input tokens neither read from nor written to the prompt cache; those go in `cache_read` and `cache_write`. */
  tokens?: { prompt: number; completion: number; cache_read?: number; cache_write?: number };
  filesTouched?: string[];
  outputExcerpt?: string;
  phase?: Phase;
  /** Progress made in this iteration, per the phase's definition (tasks, files, tests, findings, stage). */
  progress?: PhaseProgress;
  /** The model response it came in, when that could be told only once it ran; see ProposedAction.turn. */
  turn?: string;
  /** When it finished, for a recording replayed later (default: now); see ProposedAction.at. */
  at?: Date;
}

export interface CheckpointOptions {
  /** Default a new id. */
  id?: string;
  label?: string;
  /** Where the agent's conversation stood (e.g. the number of messages), to return to on rollback. */
  conversationPosition?: number;
  lastActionId?: string;
}

export interface SavedCheckpoint {
  checkpointId: string;
  bucket: string;
  key: string;
  files: { path: string; sha256?: string; deleted?: boolean }[];
}

/** Called when Warden stops the session; the stop is confirmed to Warden once every hook has resolved. */
export type StopHook = (control: ControlMessage) => void | Promise<void>;

/**
 * One session of an agent: what it declares, proposes, reports and is told.
 *
 * Control messages are handled in arrival order. Two kinds the SDK applies itself (unless the client
 * was connected with `applyControl: false`) before passing them to `onControl` listeners:
 * - `checkpoint_rollback`: the checkpoint's files are restored from the object store (written, and
 *   deleted where the snapshot says they did not exist), then acknowledged with the restored paths.
 *   Returning the conversation to `conversation_position` is the agent's part.
 * - `emergency_stop`: `stopSignal` is aborted, every `onStop` hook is awaited, and the stop is
 *   acknowledged with status `stopped`. From then on `propose` denies every action without sending it,
 *   until a `resume` control message (an operator's) gives the session a fresh `stopSignal`.
 * The others (corrections, reinforcement, throttling) are for the agent to read and `acknowledge`.
 */
export class AgentSession {
  private readonly listeners = new Set<(control: ControlMessage) => void>();
  private readonly backlog: ControlMessage[] = [];
  private readonly stopHooks = new Set<StopHook>();
  private stopController = new AbortController();
  private controls: Promise<void> = Promise.resolve();

  constructor(
    private readonly client: WardenClient,
    readonly sessionId: string,
  ) {}

  get agentId(): string {
    return this.client.agentId;
  }

  /** Declares the session: the goal, expected paths and constraints the reviewer checks actions against. `at`: as for ProposedAction. */
  async start(details: PayloadOf<'session.started'>, at?: Date): Promise<void> {
    await this.client.publish(this.client.message('session.started', this.sessionId, { payload: details, ...timestampOf(at) }));
  }

  async changePhase(phase: Phase, previous?: Phase): Promise<void> {
    await this.client.publish(
      this.client.message('session.phase_changed', this.sessionId, { payload: { phase, ...(previous ? { previous_phase: previous } : {}) } }),
    );
  }

  /** The user asked for something new: later actions are reviewed against this goal. `at`: as for ProposedAction. */
  async changeGoal(goal: string, source: 'user_prompt' | 'agent' = 'user_prompt', at?: Date): Promise<void> {
    await this.client.publish(this.client.message('session.goal_changed', this.sessionId, { payload: { goal: goal.slice(0, GOAL_MAX_LENGTH), source }, ...timestampOf(at) }));
  }

  /**
   * The agent ended its turn with these words (its last message): what they claim is held against what
   * the session did. Their secrets are stored redacted, as every payload's. `at`: as for ProposedAction.
   */
  async turnEnded(text: string, at?: Date): Promise<void> {
    const words = text.trim();
    if (!words) return;
    await this.client.publish(this.client.message('session.turn_ended', this.sessionId, { payload: { text: words.slice(-TURN_END_MAX_LENGTH) }, ...timestampOf(at) }));
  }

  async end(result: PayloadOf<'session.ended'>): Promise<void> {
    await this.client.publish(this.client.message('session.ended', this.sessionId, { payload: result }));
  }

  /**
   * Proposes an action and resolves with the final decision: once JetStream stored the action, Warden
   * reviews it and the gate answers. Without an answer in time the client's timeout policy decides
   * (deny by default). Rejects only when the action does not match its contract.
   *
   * One decision per action id: proposing an action id that Warden already decided returns that
   * decision at once (from the decision Warden stored), and a different action under an id already
   * used is refused (`decidedBy: 'rejected'`) with the reason.
   */
  propose(action: ProposedAction, options: ProposeOptions = {}): Promise<ActionDecision> {
    const actionId = action.actionId ?? newMessageId();
    if (this.stopped) {
      const reason = `Warden stopped this session: ${String(this.stopSignal.reason)}`;
      return Promise.resolve({ actionId, allowed: false, verdict: null, reason, reasons: [reason], decidedBy: 'stopped', latencyMs: 0 });
    }
    const message = this.client.message('action.proposed', this.sessionId, {
      id: this.client.actionMessageId(this.sessionId, actionId),
      ...timestampOf(action.at),
      payload: {
        action_id: actionId,
        kind: action.kind ?? 'tool_use',
        tool: action.tool,
        input: action.input,
        ...(action.description ? { description: action.description } : {}),
        ...(action.phase ? { phase: action.phase } : {}),
        ...(action.context ? { context: action.context } : {}),
        ...(action.subagent && (action.subagent.id || action.subagent.type) ? { subagent: action.subagent } : {}),
        ...(action.cwd ? { cwd: action.cwd } : {}),
        ...(action.turn ? { turn: action.turn.slice(0, 128) } : {}),
      },
      ...(options.hitlRequired || options.approver === 'agent_user'
        ? { control: { ...(options.hitlRequired ? { hitl_required: true } : {}), ...(options.approver === 'agent_user' ? { approver: 'agent_user' as const } : {}) } }
        : {}),
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
      ...(outcome.turn ? { turn: outcome.turn.slice(0, 128) } : {}),
    };
    await this.client.publish(
      this.client.message('action.outcome', this.sessionId, {
        id: derivedMessageId('action.outcome', `${this.agentId}:${this.sessionId}:${outcome.actionId}`),
        trace_id: this.client.actionMessageId(this.sessionId, outcome.actionId),
        ...timestampOf(outcome.at),
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
  async acknowledge(control: ControlMessage, status: 'applied' | 'failed' | 'stopped', detail?: string, restoredFiles?: string[]): Promise<void> {
    await this.client.publish(
      this.client.message('control.acknowledged', this.sessionId, {
        // One acknowledgement per control message, however often it is sent.
        id: derivedMessageId('control.acknowledged', `${this.agentId}:${this.sessionId}:${control.payload.control_id}`),
        trace_id: control.trace_id,
        causation_id: control.id,
        payload: {
          control_id: control.payload.control_id,
          status,
          ...(detail ? { detail: detail.slice(0, 4000) } : {}),
          ...(restoredFiles ? { restored_files: restoredFiles } : {}),
        },
      }),
    );
  }

  /**
   * Saves a checkpoint Warden can roll the session back to: the files' contents (a path that does not
   * exist is recorded as deleted, and is deleted again on rollback) go to this agent's object store
   * bucket, then `checkpoint.saved` tells Warden. Relative paths are resolved against the client's
   * `checkpointRoot` (default: the working directory).
   */
  async checkpoint(files: string[], options: CheckpointOptions = {}): Promise<SavedCheckpoint> {
    const checkpointId = options.id ?? newMessageId();
    const key = checkpointObjectName(this.sessionId, checkpointId);
    const store = this.client.checkpoints(checkpointBucket(this.agentId));
    const snapshot = await store.save(key, checkpointId, files);
    const listed = snapshot.files.map((f) => ({ path: f.path, ...(f.deleted ? { deleted: true } : { sha256: f.sha256! }) }));
    await this.client.publish(
      this.client.message('checkpoint.saved', this.sessionId, {
        id: derivedMessageId('checkpoint.saved', `${this.agentId}:${this.sessionId}:${checkpointId}`),
        payload: {
          checkpoint_id: checkpointId,
          ...(options.label ? { label: options.label } : {}),
          object_store: { bucket: store.bucket, key },
          files: listed,
          ...(options.conversationPosition !== undefined ? { conversation_position: options.conversationPosition } : {}),
          ...(options.lastActionId ? { last_action_id: options.lastActionId } : {}),
        },
      }),
    );
    return { checkpointId, bucket: store.bucket, key, files: listed };
  }

  /**
   * Aborted when Warden orders an emergency stop; the agent's loop checks it or listens for its `abort`
   * event. After a `resume` this is a new, unaborted signal: read it again rather than keeping it.
   */
  get stopSignal(): AbortSignal {
    return this.stopController.signal;
  }

  get stopped(): boolean {
    return this.stopController.signal.aborted;
  }

  /**
   * Registers a hook run on an emergency stop, e.g. one that resolves once the agent's loop has wound
   * down; Warden is told the session stopped after every hook resolved. Returns a function that removes it.
   */
  onStop(hook: StopHook): () => void {
    this.stopHooks.add(hook);
    return () => this.stopHooks.delete(hook);
  }

  /** @internal routed here by the client */
  deliverControl(control: ControlMessage): void {
    this.controls = this.controls.then(() => this.handleControl(control)).catch(() => undefined);
  }

  /** @internal resolves when every control message received so far has been handled */
  settled(): Promise<void> {
    return this.controls;
  }

  private async handleControl(control: ControlMessage): Promise<void> {
    const { kind, checkpoint_id: checkpointId } = control.payload;
    if (this.client.applyControl && kind === 'checkpoint_rollback' && checkpointId) await this.rollBack(control, checkpointId);
    if (this.client.applyControl && kind === 'emergency_stop') await this.stop(control);
    // An operator resumed the session: a fresh signal for the agent's next run.
    if (this.client.applyControl && kind === 'resume' && this.stopped) this.stopController = new AbortController();
    if (!this.listeners.size) this.backlog.push(control);
    for (const listener of this.listeners) listener(control);
  }

  private async rollBack(control: ControlMessage, checkpointId: string): Promise<void> {
    const location = control.payload.object_store ?? { bucket: checkpointBucket(this.agentId), key: checkpointObjectName(this.sessionId, checkpointId) };
    let restored: string[];
    try {
      restored = await this.client.checkpoints(location.bucket).restore(location.key);
    } catch (error) {
      await this.acknowledge(control, 'failed', `rollback to ${checkpointId} failed: ${(error as Error).message}`);
      return;
    }
    await this.acknowledge(control, 'applied', `restored checkpoint ${checkpointId}`, restored);
  }

  private async stop(control: ControlMessage): Promise<void> {
    if (!this.stopped) this.stopController.abort(control.payload.message ?? 'emergency stop');
    const failures: string[] = [];
    for (const hook of this.stopHooks) {
      try {
        await hook(control);
      } catch (error) {
        failures.push((error as Error).message);
      }
    }
    await this.acknowledge(control, 'stopped', failures.length ? `stopped; stop hooks failed: ${failures.join('; ')}` : 'the agent stopped');
  }
}
