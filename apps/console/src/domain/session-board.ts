import { sessionKey, summarizeInput, type ConsoleEvent } from './console-event.js';

export type SessionStatus = 'running' | 'paused' | 'stopped' | 'ended';

/** One proposed action as the console follows it: proposal, verdict, decision. */
export interface Step {
  action_id: string;
  at: string;
  tool: string;
  summary: string;
  input?: Record<string, unknown>;
  trace_id?: string;
  verdict?: string;
  reasons?: string[];
  risk?: string;
  decision?: 'allow' | 'deny';
  decided_by?: string;
  /** What ran instead, when the reviewer (modify) or an operator (rewrite) changed the input. */
  ran?: string;
  hitl_required?: boolean;
}

export interface PauseWindow {
  id: string;
  since: string;
  by: string;
  reason: string;
  trigger: string;
  request_id?: string;
}

export interface GateRequest {
  request_id: string;
  gate_id: string;
  prompt: string;
  summary: string;
  escalation?: string;
  expires_at?: string;
  at: string;
}

/** What a session spent on model calls, as the breaker recorded it (breaker.cost_recorded). */
export interface Spend {
  usd: number;
  /** Cost records counted: model calls, or an export's calls of one model. */
  records: number;
  prompt_tokens: number;
  completion_tokens: number;
  /** Where the usage came from: outcome (the SDK), telemetry_event, telemetry_metric, transcript. */
  sources: string[];
  models: string[];
  last_at: string;
}

/** An action that ran against Warden's decision (action.ran_against_decision). */
/** A human gate's request answered (gate.responded): who, through which channel, with which digest, how fast. */
export interface GateAnswer {
  request_id: string;
  gate_id: string;
  outcome: string;
  approver: string;
  channel?: string;
  digest?: string;
  /** Timed out: the approval channels that were asked, none of which answered. */
  asked?: string[];
  response_ms: number;
  at: string;
}

export interface Incident {
  action_id: string;
  at: string;
  tool: string;
  summary: string;
  warden_decision: string;
  reason?: string;
  subagent?: string;
  status: string;
}

export interface SessionSummary {
  key: string;
  agent_id: string;
  session_id: string;
  status: SessionStatus;
  started_at: string;
  last_at: string;
  goal?: string;
  last_action?: Step;
  breakers: string[];
  patterns: string[];
  level?: number;
  paused?: PauseWindow;
  actions: number;
  denied: number;
  /** Undefined while no cost was recorded for the session: it has no spend data at all. */
  spend?: Spend;
  incidents: Incident[];
  /** The session's answered gate requests, newest last (at most ANSWER_LIMIT). */
  answers: GateAnswer[];
}

export interface Approval {
  key: string;
  agent_id: string;
  session_id: string;
  window: PauseWindow;
  stopped: boolean;
  /** Verdicts the gate holds: no decision yet. */
  held: Step[];
  requests: GateRequest[];
  /** The session's last steps before the pause, newest last. */
  recent: Step[];
}

export interface TrackRecord {
  level: number;
  pin: { by: string; reason?: string; at: string } | null;
  metrics: { totalRuns: number; successfulRuns: number; falsePositives: number; missedCriticalBugs: number; approvalRate: number };
  emergencyStops?: number;
}

export interface AgentSummary {
  agent_id: string;
  level?: number;
  record?: TrackRecord;
  sessions: number;
  active: number;
  /** USD spent by the agent's sessions the console knows, and how many of them have spend data. */
  spend_usd: number;
  sessions_with_spend: number;
}

export interface BoardLimits {
  /** Sessions kept; the least recently active ended ones go first. */
  maxSessions: number;
  /** Events kept per session for its drill-down. */
  maxEventsPerSession: number;
}

interface SessionState {
  summary: SessionSummary;
  events: ConsoleEvent[];
  seen: Set<string>;
  steps: Map<string, Step>;
  decided: Set<string>;
  requests: Map<string, GateRequest>;
  window?: PauseWindow;
  stoppedAt?: string;
  resumedAt?: string;
  ended: boolean;
}

export type BoardChange = { kind: 'session'; key: string } | { kind: 'agent'; agentId: string };

const STEP_LIMIT = 200;
const ANSWER_LIMIT = 20;

/**
 * The console's picture of what runs, built from the events of the bus in whatever order the streams
 * deliver them (a decision may come before its verdict): sessions and their status, the approvals
 * queue, per-session events for the drill-down, and agents with their level and track record.
 */
export class SessionBoard {
  private readonly sessions = new Map<string, SessionState>();
  private readonly breakers = new Map<string, string[]>();
  private readonly levels = new Map<string, number>();
  private readonly records = new Map<string, TrackRecord>();
  private readonly ladderEvents = new Map<string, ConsoleEvent[]>();
  private readonly listeners = new Set<(change: BoardChange) => void>();
  private changes = 0;

  constructor(private readonly limits: BoardLimits = { maxSessions: 20_000, maxEventsPerSession: 5_000 }) {}

  /** How many changes the board has seen: a page rendered at one version learns from its stream what came after. */
  get version(): number {
    return this.changes;
  }

  onChange(listener: (change: BoardChange) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  apply(event: ConsoleEvent): void {
    if (event.type.startsWith('ladder.')) return this.applyLadder(event);
    if (event.session_id === '_' || event.type === 'deadletter.recorded') return;
    const state = this.state(event.agent_id, event.session_id, event.at);
    if (state.seen.has(event.id)) return;
    state.seen.add(event.id);
    this.record(state, event);
    this.follow(state, event);
    const s = state.summary;
    if (event.at > s.last_at) s.last_at = event.at;
    if (event.at < s.started_at) s.started_at = event.at;
    this.refresh(state);
    this.emit({ kind: 'session', key: s.key });
  }

  /** Open breakers of a session from the breaker's KV record (null: none). */
  setBreakers(agentId: string, sessionId: string, open: string[]): void {
    const key = sessionKey(agentId, sessionId);
    if (!open.length) this.breakers.delete(key);
    else this.breakers.set(key, open);
    const state = this.sessions.get(key);
    if (!state) return;
    state.summary.breakers = open;
    this.emit({ kind: 'session', key });
  }

  setLevel(agentId: string, level: number | null): void {
    if (level === null) this.levels.delete(agentId);
    else this.levels.set(agentId, level);
    for (const state of this.sessions.values()) {
      if (state.summary.agent_id !== agentId) continue;
      state.summary.level = level ?? undefined;
      this.emit({ kind: 'session', key: state.summary.key });
    }
    this.emit({ kind: 'agent', agentId });
  }

  setTrackRecord(agentId: string, record: TrackRecord | null): void {
    if (record) this.records.set(agentId, record);
    else this.records.delete(agentId);
    this.emit({ kind: 'agent', agentId });
  }

  list(): SessionSummary[] {
    return [...this.sessions.values()].map((s) => s.summary).sort((a, b) => (a.last_at < b.last_at ? 1 : a.last_at > b.last_at ? -1 : 0));
  }

  summary(key: string): SessionSummary | undefined {
    return this.sessions.get(key)?.summary;
  }

  /** A session's events in time order, with the ladder changes of its agent while it ran. */
  events(key: string): ConsoleEvent[] {
    const state = this.sessions.get(key);
    if (!state) return [];
    const { started_at, last_at, agent_id } = state.summary;
    const ladder = (this.ladderEvents.get(agent_id) ?? []).filter((e) => e.at >= started_at && (!state.ended || e.at <= last_at));
    return [...state.events, ...ladder].sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : 0));
  }

  /** Keys of the sessions of an agent id (any session), or of a session id (any agent). */
  keysOf(sessionId: string): string[] {
    return [...this.sessions.values()].filter((s) => s.summary.session_id === sessionId).map((s) => s.summary.key);
  }

  approvals(): Approval[] {
    const queue: Approval[] = [];
    for (const state of this.sessions.values()) {
      const approval = this.approvalOf(state);
      if (approval) queue.push(approval);
    }
    return queue.sort((a, b) => (a.window.since < b.window.since ? -1 : a.window.since > b.window.since ? 1 : 0));
  }

  approval(key: string): Approval | undefined {
    const state = this.sessions.get(key);
    return state ? this.approvalOf(state) : undefined;
  }

  agents(): AgentSummary[] {
    const ids = new Set([...this.levels.keys(), ...this.records.keys()]);
    const counts = new Map<string, { sessions: number; active: number; spend_usd: number; sessions_with_spend: number }>();
    for (const { summary } of this.sessions.values()) {
      ids.add(summary.agent_id);
      const count = counts.get(summary.agent_id) ?? { sessions: 0, active: 0, spend_usd: 0, sessions_with_spend: 0 };
      count.sessions++;
      if (summary.status !== 'ended') count.active++;
      if (summary.spend) {
        count.spend_usd += summary.spend.usd;
        count.sessions_with_spend++;
      }
      counts.set(summary.agent_id, count);
    }
    return [...ids].sort().map((agentId) => {
      const record = this.records.get(agentId);
      const level = this.levels.get(agentId) ?? record?.level;
      return { agent_id: agentId, ...(level !== undefined ? { level } : {}), ...(record ? { record } : {}), ...(counts.get(agentId) ?? { sessions: 0, active: 0, spend_usd: 0, sessions_with_spend: 0 }) };
    });
  }

  get size(): number {
    return this.sessions.size;
  }

  private approvalOf(state: SessionState): Approval | undefined {
    if (!state.window) return undefined;
    const steps = [...state.steps.values()];
    const held = steps.filter((s) => s.verdict && !state.decided.has(s.action_id));
    const recent = steps.filter((s) => state.decided.has(s.action_id)).slice(-8);
    return {
      key: state.summary.key,
      agent_id: state.summary.agent_id,
      session_id: state.summary.session_id,
      window: state.window,
      stopped: state.summary.status === 'stopped',
      held,
      requests: [...state.requests.values()],
      recent,
    };
  }

  private state(agentId: string, sessionId: string, at: string): SessionState {
    const key = sessionKey(agentId, sessionId);
    let state = this.sessions.get(key);
    if (state) return state;
    state = {
      summary: {
        key,
        agent_id: agentId,
        session_id: sessionId,
        status: 'running',
        started_at: at,
        last_at: at,
        breakers: this.breakers.get(key) ?? [],
        patterns: [],
        ...(this.levels.has(agentId) ? { level: this.levels.get(agentId) } : {}),
        actions: 0,
        denied: 0,
        incidents: [],
        answers: [],
      },
      events: [],
      seen: new Set(),
      steps: new Map(),
      decided: new Set(),
      requests: new Map(),
      ended: false,
    };
    this.sessions.set(key, state);
    if (this.sessions.size > this.limits.maxSessions) this.evict();
    return state;
  }

  private record(state: SessionState, event: ConsoleEvent): void {
    const events = state.events;
    // Mostly in order already; insert in place otherwise.
    let i = events.length;
    while (i > 0 && events[i - 1]!.at > event.at) i--;
    events.splice(i, 0, event);
    if (events.length > this.limits.maxEventsPerSession) {
      const dropped = events.shift()!;
      state.seen.delete(dropped.id);
    }
  }

  private follow(state: SessionState, event: ConsoleEvent): void {
    const p = event.payload;
    const s = state.summary;
    switch (event.type) {
      case 'session.started':
        if (p.context?.goal) s.goal = String(p.context.goal);
        break;
      case 'session.goal_changed':
        s.goal = String(p.goal);
        break;
      case 'session.ended':
        state.ended = true;
        break;
      case 'action.proposed': {
        const step = this.step(state, p.action_id, event.at);
        step.tool = String(p.tool);
        step.input = p.input;
        step.summary = summarizeInput(step.tool, p.input);
        if (event.hitl_required) step.hitl_required = true;
        s.actions = state.steps.size;
        break;
      }
      case 'review.verdict': {
        const step = this.step(state, p.action_id, event.at);
        if (!step.input && p.action) {
          step.tool = String(p.action.tool);
          step.input = p.action.input;
          step.summary = summarizeInput(step.tool, p.action.input);
        }
        step.trace_id = event.trace_id;
        step.verdict = p.verdict;
        step.reasons = p.reasons;
        step.risk = p.risk?.severity;
        break;
      }
      case 'decision.made': {
        const step = this.step(state, p.action_id, event.at);
        step.decision = p.decision;
        step.decided_by = p.decided_by;
        if (p.updated_input && p.decision === 'allow') step.ran = summarizeInput(step.tool, p.updated_input);
        state.decided.add(String(p.action_id));
        s.denied = [...state.steps.values()].filter((x) => x.decision === 'deny').length;
        break;
      }
      case 'pattern.detected':
        if (!p.shadow) s.patterns = [String(p.pattern_type), ...s.patterns.filter((t) => t !== p.pattern_type)].slice(0, 8);
        break;
      case 'hitl.paused':
        state.window = { id: event.trace_id, since: event.at, by: p.operator_id, reason: p.reason, trigger: p.trigger ?? 'operator', ...(p.request_id ? { request_id: p.request_id } : {}) };
        break;
      case 'hitl.resumed':
        if (state.window?.id === event.trace_id) state.window = undefined;
        state.requests.clear();
        break;
      case 'gate.requested':
        state.requests.set(p.request_id, { request_id: p.request_id, gate_id: p.gate_id, prompt: p.prompt, summary: p.summary, escalation: p.escalation, expires_at: p.expires_at, at: event.at });
        break;
      case 'gate.responded':
        state.requests.delete(p.request_id);
        s.answers = [
          ...s.answers.filter((a) => a.request_id !== p.request_id),
          {
            request_id: String(p.request_id),
            gate_id: String(p.gate_id ?? ''),
            outcome: String(p.outcome ?? (p.approved ? 'approved' : 'rejected')),
            approver: String(p.approver ?? ''),
            ...(typeof p.channel === 'string' ? { channel: p.channel } : {}),
            ...(typeof p.digest === 'string' ? { digest: p.digest } : {}),
            ...(Array.isArray(p.asked_channels) ? { asked: p.asked_channels.map(String) } : {}),
            response_ms: Number(p.response_ms) || 0,
            at: event.at,
          },
        ].slice(-ANSWER_LIMIT);
        break;
      case 'breaker.cost_recorded': {
        const spend = (s.spend ??= { usd: 0, records: 0, prompt_tokens: 0, completion_tokens: 0, sources: [], models: [], last_at: event.at });
        spend.usd += Number(p.cost_usd) || 0;
        spend.records++;
        spend.prompt_tokens += Number(p.prompt_tokens) || 0;
        spend.completion_tokens += Number(p.completion_tokens) || 0;
        const source = String(p.source ?? 'outcome');
        if (!spend.sources.includes(source)) spend.sources.push(source);
        if (!spend.models.includes(String(p.model))) spend.models.push(String(p.model));
        if (event.at > spend.last_at) spend.last_at = event.at;
        // The agents page shows each agent's spend.
        this.emit({ kind: 'agent', agentId: s.agent_id });
        break;
      }
      case 'action.ran_against_decision': {
        const tool = String(p.tool);
        s.incidents = [
          ...s.incidents,
          {
            action_id: String(p.action_id),
            at: event.at,
            tool,
            summary: summarizeInput(tool, p.input),
            warden_decision: String(p.warden_decision),
            ...(p.reason ? { reason: String(p.reason) } : {}),
            ...(p.subagent ? { subagent: String(p.subagent.type ?? p.subagent.id ?? 'subagent') } : {}),
            status: String(p.status),
          },
        ]
          .sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : 0))
          .slice(-50);
        break;
      }
      case 'control.issued':
        if (p.kind === 'emergency_stop' && (!state.stoppedAt || event.at > state.stoppedAt)) state.stoppedAt = event.at;
        if (p.kind === 'resume' && (!state.resumedAt || event.at > state.resumedAt)) state.resumedAt = event.at;
        break;
    }
  }

  private step(state: SessionState, actionId: string, at: string): Step {
    let step = state.steps.get(actionId);
    if (!step) {
      step = { action_id: actionId, at, tool: '?', summary: actionId };
      state.steps.set(actionId, step);
      if (state.steps.size > STEP_LIMIT) state.steps.delete(state.steps.keys().next().value!);
    } else if (at < step.at) step.at = at;
    return step;
  }

  private refresh(state: SessionState): void {
    const s = state.summary;
    const stopped = !!state.stoppedAt && (!state.resumedAt || state.resumedAt < state.stoppedAt);
    s.status = stopped ? 'stopped' : state.window ? 'paused' : state.ended ? 'ended' : 'running';
    if (state.window) s.paused = state.window;
    else delete s.paused;
    let last: Step | undefined;
    for (const step of state.steps.values()) if (!last || step.at >= last.at) last = step;
    if (last) s.last_action = last;
  }

  private applyLadder(event: ConsoleEvent): void {
    const list = this.ladderEvents.get(event.agent_id) ?? [];
    if (list.some((e) => e.id === event.id)) return;
    list.push(event);
    if (list.length > 100) list.shift();
    this.ladderEvents.set(event.agent_id, list);
    this.emit({ kind: 'agent', agentId: event.agent_id });
  }

  private evict(): void {
    const ended = [...this.sessions.values()].filter((s) => s.summary.status === 'ended').sort((a, b) => (a.summary.last_at < b.summary.last_at ? -1 : 1));
    const victim = ended[0] ?? [...this.sessions.values()].sort((a, b) => (a.summary.last_at < b.summary.last_at ? -1 : 1))[0];
    if (victim) this.sessions.delete(victim.summary.key);
  }

  private emit(change: BoardChange): void {
    this.changes++;
    for (const listener of this.listeners) listener(change);
  }
}
