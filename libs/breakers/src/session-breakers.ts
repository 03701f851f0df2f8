import { BREAKER_KINDS, type BreakerKind, type BreakerStateName, type BreakerStateRecord, type PayloadOf, type Phase } from '@warden/contracts';
import { actionSignature, actionTarget, failureSignature, isCheckCommand } from '@warden/signatures';
import type { BreakerSettings } from './breaker-settings.js';
import { Circuit, closedCircuit, type CircuitSnapshot, type CircuitTransition } from './circuit.js';
import { CostMeasure, priceCall } from './cost-measure.js';
import { ErrorRateMeasure } from './error-rate-measure.js';
import { IterationMeasure, type PhaseKey } from './iteration-measure.js';
import { mostSevere, type Measurement } from './measurement.js';
import { isFileOperation, readFileOperations, readTokens, tighter, type SessionUsage, type ThrottleLimits } from './throttle-limits.js';
import { TimeMeasure } from './time-measure.js';
import { recordUsage, usageCharges, type UsageCharge, type UsageReading } from './usage-accounting.js';
import { throttledSettings, type ActionReading, type BreakerCommandPayload, type BreakerEvent, type OutcomeReading, type SessionLedger, type ThrottleCaps } from './session-ledger.js';

export {
  throttledSettings,
  type ActionReading,
  type BreakerCommandPayload,
  type BreakerEvent,
  type BreakerEventType,
  type OutcomeReading,
  type SessionLedger,
  type ThrottleCaps,
} from './session-ledger.js';

/** Proposed actions remembered for their outcomes. */
const RECENT_ACTIONS = 32;

/** Whether an action is an iteration: every action, or one that runs a check (an action not described counts). */
function isIteration(counts: 'checks' | 'actions', action: ActionReading): boolean {
  if (counts === 'actions' || !action.input) return true;
  const command = action.input['command'] ?? action.input['cmd'];
  return typeof command === 'string' && isCheckCommand(command);
}


const REMEMBERED_MESSAGES = 64;

/**
 * The four breakers of one session (seed 002 §1-5): their measures, their state machines, and the
 * events they cause. Plain data in, events out; the service stores the ledger and publishes.
 */
export class SessionBreakers {
  private iteration: IterationMeasure;
  private cost: CostMeasure;
  private settings: BreakerSettings;
  private readonly time: TimeMeasure;
  private readonly errors: ErrorRateMeasure;
  private readonly circuits: Record<BreakerKind, Circuit>;
  private events: BreakerEvent[] = [];
  /** When the clocks were last read (a tick, or an action); a deadline after it is still to come, even if `now` passed it. */
  private clocksReadAt?: number;

  private constructor(
    private readonly configured: BreakerSettings,
    readonly ledger: SessionLedger,
  ) {
    this.settings = throttledSettings(configured, ledger.throttle);
    const settings = this.settings;
    this.iteration = new IterationMeasure(settings.iteration, ledger.iteration);
    this.cost = new CostMeasure(settings.cost, ledger.cost);
    this.time = new TimeMeasure(settings.time, ledger.time);
    this.errors = new ErrorRateMeasure(settings.error_rate, ledger.errors);
    this.circuits = Object.fromEntries(BREAKER_KINDS.map((kind) => [kind, new Circuit(kind, settings[kind], ledger.circuits[kind])])) as Record<
      BreakerKind,
      Circuit
    >;
  }

  /** A session seen for the first time, by whichever event came first. */
  static open(settings: BreakerSettings, agentId: string, sessionId: string, at: number): SessionBreakers {
    return new SessionBreakers(settings, {
      version: 1,
      agent_id: agentId,
      session_id: sessionId,
      time: { started_at: at },
      iteration: IterationMeasure.empty(),
      cost: CostMeasure.empty(),
      errors: ErrorRateMeasure.empty(),
      circuits: Object.fromEntries(BREAKER_KINDS.map((kind) => [kind, closedCircuit()])) as Record<BreakerKind, CircuitSnapshot>,
      warned: [],
      processed: [],
    });
  }

  static restore(settings: BreakerSettings, ledger: SessionLedger): SessionBreakers {
    return new SessionBreakers(settings, ledger);
  }

  get agentId(): string {
    return this.ledger.agent_id;
  }

  get sessionId(): string {
    return this.ledger.session_id;
  }

  get ended(): boolean {
    return Boolean(this.ledger.ended);
  }

  hasApplied(messageId: string): boolean {
    return this.ledger.processed.includes(messageId);
  }

  /** The session declared its start; the phase clock starts if it named a phase. */
  started(messageId: string, at: number, phase: Phase | undefined, now = at): BreakerEvent[] {
    return this.apply(messageId, () => {
      this.ledger.time.started_at = Math.min(this.ledger.time.started_at, at);
      if (phase) this.enterPhase(phase, at);
      this.lookAtClock(now);
    });
  }

  /** A new phase: its iteration count and clock start from zero (the seed's resetPhase). */
  phaseChanged(messageId: string, at: number, phase: Phase, now = at): BreakerEvent[] {
    return this.apply(messageId, () => {
      this.enterPhase(phase, at);
      this.lookAtClock(now);
    });
  }

  /**
   * The clocks as they stand when a start or a phase change is handled (`now`), which may be well after
   * it happened (`at`): a warning already due is given now, since the next wake-up only looks ahead.
   */
  private lookAtClock(now: number): void {
    if (now > this.ledger.time.started_at) this.feed(this.time.evaluate(this.ledger.phase, now), now, false);
  }

  /**
   * One proposed action: one iteration of its phase (and one file operation when it writes files),
   * and a look at the clocks.
   */
  actionProposed(messageId: string, at: number, phase: Phase | undefined, action: ActionReading = {}): BreakerEvent[] {
    return this.apply(messageId, () => {
      const current = phase ?? this.ledger.phase;
      if (action.action_id && action.tool && action.input) {
        const recent = (this.ledger.recent ??= []);
        recent.push({ id: action.action_id, sig: actionSignature(action.tool, action.input), tool: action.tool, target: actionTarget(action.input), at, ...(action.turn ? { turn: action.turn } : {}) });
        if (recent.length > RECENT_ACTIONS) recent.splice(0, recent.length - RECENT_ACTIONS);
      }
      // Actions refused while the iteration breaker is open are not iterations the agent got to run.
      if (!this.circuits.iteration.blocking) {
        const readings = isIteration(this.settings.iteration.counts, action) ? [this.iteration.countAction(current)] : [];
        if (isFileOperation(action)) {
          const usage = this.usage();
          usage.file_operations++;
          const limit = this.ledger.throttle?.max_file_operations;
          if (limit !== undefined) readings.push(readFileOperations(usage, limit, this.settings.iteration.warning, current));
        }
        if (readings.length) this.feed(mostSevere(readings), at, true);
      }
      this.time.touch(at);
      this.feed(this.time.evaluate(this.ledger.phase, at), at, true);
      this.clocksReadAt = at;
    });
  }

  /**
   * What an action did: an outcome for the error rate, its model call for the cost, and its progress
   * report for stagnation. `dayTotal` is the agent's rolling-day spending including this call.
   */
  outcomeReported(messageId: string, at: number, outcome: OutcomeReading, dayTotal: number): BreakerEvent[] {
    return this.apply(messageId, () => {
      const phase = outcome.phase ?? this.ledger.phase;
      this.time.touch(at);
      this.errors.record(at, outcome.status === 'error');
      const rate = this.errors.evaluate(at);
      // While probing, a failed action fails the probe even if the window is too thin for a rate.
      if (this.circuits.error_rate.state === 'half_open' && outcome.status === 'error' && rate.level !== 'trip') {
        this.feed(
          { ...rate, level: 'trip', reason: 'ERROR_DURING_RECOVERY', suggestion: 'An action failed while the breaker was testing recovery. Find out what fails before trying again.' },
          at,
          true,
        );
      } else this.feed(rate, at, true);
      const cost = this.chargeable(outcome);
      const readings: Measurement[] = [];
      if (cost !== undefined) {
        this.cost.record(phase, cost);
        readings.push(this.cost.evaluate(phase, dayTotal));
      }
      if (outcome.tokens) {
        const usage = this.usage();
        // Tokens the model newly read or wrote. Its cached context is no new work, whether it is read from the
        // cache or written to it again (a Claude Code session re-caches 100,000+ tokens after a pause or a
        // compaction): what that costs, the cost budget counts.
        usage.tokens += outcome.tokens.prompt + outcome.tokens.completion;
        const limit = this.ledger.throttle?.max_tokens;
        if (limit !== undefined) readings.push(readTokens(usage, limit, this.settings.cost.warning, phase));
      }
      if (readings.length) this.feed(mostSevere(readings), at, true);
      if (outcome.progress) this.feed(this.iteration.recordProgress(phase, outcome.progress), at, true);
      const action = this.ledger.recent?.find((a) => a.id === outcome.action_id);
      if (action) {
        const failed = outcome.status === 'error';
        const repeat = this.iteration.recordAttempt(phase, {
          signature: action.sig,
          tool: action.tool,
          target: action.target,
          failed,
          ...(failed ? { failure: failureSignature(outcome.error) } : {}),
          ...(action.at !== undefined ? { proposedAt: action.at } : {}),
          ...((outcome.turn ?? action.turn) ? { turn: outcome.turn ?? action.turn } : {}),
          reportedAt: at,
        });
        if (repeat) this.feed(repeat, at, true);
        if (!failed) this.transition(this.circuits.iteration.release(at, action.target, `${action.tool} ${action.target.slice(0, 120)} succeeded: the action held back is tried again with what it found`));
      }
    });
  }

  /**
   * What a usage report (the agent's telemetry or transcript) charges the session, in USD: nothing for
   * what was counted already or comes from a less precise source than the session's. For the agent's
   * rolling day, which is added to before the report is applied.
   */
  usageCost(usage: UsageReading): number {
    if (this.ledger.ended) return 0;
    return usageCharges(this.ledger.spend, usage, this.settings.cost.pricing).reduce((sum, c) => sum + c.usd, 0);
  }

  /**
   * Model usage the agent's telemetry or transcript reported: each entry not counted before is charged to
   * the phase and the run at the cost the agent reported (or Warden's price of its tokens), its tokens go
   * to the session's token count, and the cost breaker reads the new totals. `dayTotal` is the agent's
   * rolling-day spending including this report.
   */
  usageReported(messageId: string, at: number, usage: UsageReading, dayTotal: number): BreakerEvent[] {
    return this.apply(messageId, () => {
      const charges = usageCharges(this.ledger.spend, usage, this.settings.cost.pricing);
      this.ledger.spend = recordUsage(this.ledger.spend, usage, charges);
      if (!charges.length) return;
      const phase = this.ledger.phase;
      let tokens = 0;
      for (const charge of charges) {
        this.cost.record(phase, charge.usd);
        tokens += charge.entry.tokens.prompt + charge.entry.tokens.completion;
        if (charge.match && charge.match !== 'listed') this.noteUnpriced(charge.entry.model, charge.pricedAs!, charge.match);
      }
      for (const payload of costRecords(charges, usage.source, phase)) this.events.push({ type: 'breaker.cost_recorded', payload });
      const readings: Measurement[] = [this.cost.evaluate(phase, dayTotal)];
      const counters = this.usage();
      counters.tokens += tokens;
      const limit = this.ledger.throttle?.max_tokens;
      if (limit !== undefined) readings.push(readTokens(counters, limit, this.settings.cost.warning, phase));
      this.feed(mostSevere(readings), at, true);
    });
  }

  /** A model the price table does not list, reported once per session. */
  private noteUnpriced(model: string, pricedAs: string, match: 'family' | 'fallback', actionId?: string): void {
    const noted = `price:${model}`;
    if (this.ledger.warned.includes(noted)) return;
    this.ledger.warned.push(noted);
    this.events.push({
      type: 'breaker.error',
      payload: {
        code: 'unknown_model',
        message: `no price for model "${model}" in the pricing table; it is priced as ${pricedAs} (${match === 'family' ? 'its family' : 'the fallback'}). Add it to cost.pricing for exact figures.`,
        ...(actionId ? { action_id: actionId } : {}),
      },
    });
  }

  /**
   * The price of the outcome's model call (undefined when it reports no tokens). A model the price table
   * does not list is priced by its family or the fallback, and reported once per session.
   */
  chargeable(outcome: OutcomeReading): number | undefined {
    if (!outcome.tokens) return undefined;
    if (!outcome.model) {
      this.events.push({
        type: 'breaker.error',
        payload: { code: 'invalid_measurement', message: 'tokens were reported without the model that used them; the call is not priced', action_id: outcome.action_id },
      });
      return undefined;
    }
    const call = priceCall(this.settings.cost.pricing, outcome.model, outcome.tokens);
    if (call.match !== 'listed') this.noteUnpriced(outcome.model, call.priced_as, call.match, outcome.action_id);
    const phase = outcome.phase ?? this.ledger.phase;
    this.events.push({
      type: 'breaker.cost_recorded',
      payload: {
        action_id: outcome.action_id,
        ...(phase ? { phase } : {}),
        model: outcome.model,
        prompt_tokens: outcome.tokens.prompt + (outcome.tokens.cache_read ?? 0) + (outcome.tokens.cache_write ?? 0),
        completion_tokens: outcome.tokens.completion,
        cost_usd: call.usd,
        operation: 'action.outcome',
        source: 'outcome',
        priced_by: 'pricing_table',
      },
    });
    return call.usd;
  }

  /** Time passes: OPEN breakers whose wait is over start probing, and the clocks are read. */
  tick(now: number): BreakerEvent[] {
    this.events = [];
    if (this.ledger.ended) return [];
    for (const kind of BREAKER_KINDS) this.transition(this.circuits[kind].tick(now));
    // A timer is not a probe: only the agent's own events test a HALF_OPEN breaker.
    this.feed(this.time.evaluate(this.ledger.phase, now), now, false);
    this.clocksReadAt = now;
    return this.flush();
  }

  /** An operator's command: force open, disable, enable or reset one breaker or all. */
  command(messageId: string, at: number, command: BreakerCommandPayload): BreakerEvent[] {
    return this.apply(messageId, () => {
      const kinds = command.breaker === 'all' ? [...BREAKER_KINDS] : [command.breaker];
      const changed: BreakerKind[] = [];
      const reason = `${command.command} by ${command.operator_id}${command.reason ? `: ${command.reason}` : ''}`;
      for (const kind of kinds) {
        const circuit = this.circuits[kind];
        let transition: CircuitTransition | null = null;
        let flagChanged = false;
        switch (command.command) {
          case 'force_open':
            transition = circuit.forceOpen(at, reason);
            break;
          case 'disable':
            flagChanged = circuit.setDisabled(true);
            break;
          case 'enable':
            flagChanged = circuit.setDisabled(false);
            break;
          case 'reset':
            transition = circuit.reset(at, reason);
            this.resetMeasure(kind, at);
            break;
        }
        this.transition(transition, command.operator_id);
        if (transition || flagChanged) changed.push(kind);
      }
      this.events.push({
        type: 'breaker.command_applied',
        payload: {
          command: command.command,
          breaker: command.breaker,
          operator_id: command.operator_id,
          ...(command.reason ? { reason: command.reason } : {}),
          command_message_id: messageId,
          changed,
        },
      });
    });
  }

  /**
   * The intervention controller throttled the session: what is left of its iteration limits and cost
   * budgets shrinks by the factors (compounding with earlier throttles) — counted from the moment it
   * is throttled, so that a session is slowed, not stopped for what it already spent — and its tokens and
   * file operations get the limits it set (the lowest so far), so that its next actions trip sooner.
   */
  throttled(messageId: string, factors: { iterations?: number; cost?: number }, limits: ThrottleLimits = {}): BreakerEvent[] {
    return this.apply(messageId, () => {
      const current = this.ledger.throttle ?? { iterations: 1, cost: 1 };
      const clamp = (f: number | undefined) => (f === undefined || !(f > 0) ? 1 : Math.min(1, f));
      const positive = (n: number | undefined) => (n !== undefined && n > 0 ? n : undefined);
      const maxTokens = tighter(current.max_tokens, positive(limits.max_tokens));
      const maxFileOperations = tighter(current.max_file_operations, positive(limits.max_file_operations));
      const costFactor = clamp(factors.cost);
      const iterationFactor = clamp(factors.iterations);
      const caps: ThrottleCaps = { ...current.caps };
      // What is left after what was used, scaled.
      const left = (used: number, limit: number, factor: number) => used + Math.max(0, limit - used) * factor;
      const { budgets } = this.settings.cost;
      if (costFactor < 1) {
        caps.per_run = left(this.ledger.cost.run, budgets.per_run, costFactor);
        caps.per_phase = Object.fromEntries(
          Object.entries(budgets.per_phase).map(([phase, budget]) => [phase, left(this.ledger.cost.phase[phase as PhaseKey] ?? 0, budget, costFactor)]),
        );
      }
      // The cost the controller set counts from the throttle on, as its token and file-operation limits do:
      // it scales its limits without knowing what the run spent, and a throttle slows a session, it does
      // not stop it for money spent before it (a stop is the emergency stop's to make). Read as a whole-run
      // budget, $42.50 set on a run at $41.80 stopped it within a few calls.
      const maxCost = positive(limits.max_cost_usd);
      if (maxCost !== undefined) caps.per_run = Math.min(caps.per_run ?? budgets.per_run, this.ledger.cost.run + maxCost);
      if (iterationFactor < 1) {
        caps.iterations = Object.fromEntries(
          Object.entries(this.settings.iteration.limits).map(([phase, limit]) => {
            const used = this.ledger.iteration.counts[phase as PhaseKey] ?? 0;
            return [phase, Math.max(used + 1, Math.round(left(used, limit, iterationFactor)))];
          }),
        );
      }
      this.ledger.throttle = {
        iterations: current.iterations * iterationFactor,
        cost: current.cost * costFactor,
        ...(Object.keys(caps).length ? { caps } : {}),
        ...(maxTokens !== undefined ? { max_tokens: maxTokens } : {}),
        ...(maxFileOperations !== undefined ? { max_file_operations: maxFileOperations } : {}),
      };
      this.settings = throttledSettings(this.configured, this.ledger.throttle);
      this.iteration = new IterationMeasure(this.settings.iteration, this.ledger.iteration);
      this.cost = new CostMeasure(this.settings.cost, this.ledger.cost);
      // A throttled limit counts from the moment it is set, not from the session's start.
      if (limits.max_tokens !== undefined || limits.max_file_operations !== undefined) this.ledger.usage = { tokens: 0, file_operations: 0 };
    });
  }

  /** The run is over: nothing more trips, and no timer is needed. */
  end(messageId: string): BreakerEvent[] {
    return this.apply(messageId, () => {
      this.ledger.ended = true;
    });
  }

  /** When the session next needs a tick: a breaker's reset time, or a clock reaching a warning or a timeout. */
  nextWakeAt(now: number): number | undefined {
    if (this.ledger.ended) return undefined;
    // A deadline the clock passed since the clocks were last read has not been acted on: it is due now (a
    // timer that fires a millisecond early reads the clock before the deadline, and the wake after it must
    // not be lost because the next reading of the clock is past it).
    const from = this.clocksReadAt !== undefined ? Math.min(now, this.clocksReadAt) : now;
    const moments = [this.time.nextDeadline(this.ledger.phase, from), ...BREAKER_KINDS.map((k) => this.circuits[k].nextWakeAt())].filter(
      (m): m is number => m !== undefined,
    );
    return moments.length ? Math.min(...moments) : undefined;
  }

  /**
   * Whether a tick at `now` has something to say: a deadline that passed while no replica held the session
   * (the service down, a takeover), which nextWakeAt does not name since it only looks ahead. Read on a
   * copy: nothing changes here.
   */
  isDue(now: number): boolean {
    return SessionBreakers.restore(this.settings, structuredClone(this.ledger)).tick(now).length > 0;
  }

  /** The materialised state the reviewer reads. */
  stateRecord(now: number): BreakerStateRecord {
    const breakers = BREAKER_KINDS.map((kind) => {
      const c = this.ledger.circuits[kind];
      return {
        breaker: kind,
        state: c.state,
        ...(c.reason ? { reason: c.reason } : {}),
        ...(c.suggestion ? { suggestion: c.suggestion } : {}),
        ...(c.opened_at !== undefined ? { opened_at: new Date(c.opened_at).toISOString() } : {}),
        ...(c.retry_at !== undefined ? { retry_at: new Date(c.retry_at).toISOString() } : {}),
        ...(c.disabled ? { disabled: true } : {}),
        ...(this.settings[kind].mode === 'metrics_only' ? { metrics_only: true } : {}),
        ...(c.repeated_action && c.state !== 'closed' ? { repeated_action: c.repeated_action } : {}),
      };
    });
    const enforced = BREAKER_KINDS.filter((k) => !this.ledger.circuits[k].disabled && this.settings[k].mode === 'enforce');
    let state: BreakerStateName = 'closed';
    if (enforced.some((k) => this.ledger.circuits[k].state === 'half_open')) state = 'half_open';
    if (enforced.some((k) => this.circuits[k].blocking)) state = 'open';
    // To the cent: the record is written again only when what it says changes, and a policy needs no finer figure.
    const spend = Math.round(this.cost.snapshot.run * 100) / 100;
    return { agent_id: this.agentId, session_id: this.sessionId, state, breakers, ...(spend > 0 ? { spend_usd: spend } : {}), updated_at: new Date(now).toISOString() };
  }

  /** The session's usage counters, created on first use (ledgers stored before they existed have none). */
  private usage(): SessionUsage {
    return (this.ledger.usage ??= { tokens: 0, file_operations: 0 });
  }

  private apply(messageId: string, change: () => void): BreakerEvent[] {
    this.events = [];
    if (this.hasApplied(messageId)) return [];
    change();
    this.ledger.processed.push(messageId);
    if (this.ledger.processed.length > REMEMBERED_MESSAGES) this.ledger.processed.splice(0, this.ledger.processed.length - REMEMBERED_MESSAGES);
    return this.flush();
  }

  private flush(): BreakerEvent[] {
    const events = this.events;
    this.events = [];
    return events;
  }

  private enterPhase(phase: Phase, at: number): void {
    this.ledger.phase = phase;
    this.iteration.resetPhase(phase);
    this.time.startPhase(at);
    this.ledger.warned = this.ledger.warned.filter((key) => !key.startsWith('iteration:') && !key.includes(':PHASE_'));
  }

  private resetMeasure(kind: BreakerKind, at: number): void {
    // A reset gives the session a fresh start against the throttled limits too.
    if (kind === 'iteration') {
      this.iteration.reset();
      if (this.ledger.usage) this.ledger.usage.file_operations = 0;
    }
    if (kind === 'cost') {
      this.cost.reset();
      if (this.ledger.usage) this.ledger.usage.tokens = 0;
    }
    if (kind === 'time') this.time.reset(at);
    if (kind === 'error_rate') this.errors.reset();
    this.ledger.warned = this.ledger.warned.filter((key) => !key.startsWith(`${kind}:`));
  }

  /** Hands a reading to its breaker: a warning is published once per crossing, a trip moves the state machine. */
  private feed(measurement: Measurement, at: number, probe: boolean): void {
    const circuit = this.circuits[measurement.breaker];
    if (!this.settings[measurement.breaker].enabled || circuit.snapshot.disabled) return;
    const mode = this.settings[measurement.breaker].mode;
    const prefix = `${measurement.breaker}:`;
    if (measurement.level === 'ok') this.ledger.warned = this.ledger.warned.filter((key) => !key.startsWith(prefix));
    if (measurement.level === 'warning' && measurement.reason) {
      const key = `${prefix}${measurement.reason}:${measurement.phase ?? ''}`;
      if (!this.ledger.warned.includes(key)) {
        this.ledger.warned.push(key);
        this.events.push({ type: 'breaker.warning', payload: { ...this.measurementPayload(measurement), mode } });
      }
    }
    if (!probe && circuit.state === 'half_open' && measurement.level !== 'trip') return;
    const transition = circuit.observe(measurement, at);
    if (transition?.to === 'open') this.events.push({ type: 'breaker.tripped', payload: { ...this.measurementPayload(measurement), mode } });
    this.transition(transition);
  }

  private transition(transition: CircuitTransition | null, operatorId?: string): void {
    if (!transition) return;
    const retryAt = this.ledger.circuits[transition.breaker].retry_at;
    this.events.push({
      type: 'breaker.state_changed',
      payload: {
        breaker: transition.breaker,
        from: transition.from,
        to: transition.to,
        reason: transition.reason,
        cause: transition.cause,
        ...(operatorId ? { operator_id: operatorId } : {}),
        ...(transition.to === 'open' && retryAt !== undefined ? { retry_at: new Date(retryAt).toISOString() } : {}),
        mode: this.settings[transition.breaker].mode,
      },
    });
  }

  private measurementPayload(m: Measurement) {
    return {
      breaker: m.breaker,
      reason: m.reason ?? 'threshold reached',
      current_value: m.current,
      threshold: m.threshold,
      ...(m.phase ? { phase: m.phase } : {}),
      ...(m.suggestion ? { suggestion: m.suggestion } : {}),
    };
  }
}

/**
 * One cost record per model and pricing of a usage report (an export can hold a hundred requests): the
 * tokens and costs of its entries added up.
 */
function costRecords(charges: readonly UsageCharge[], source: UsageReading['source'], phase: Phase | undefined): PayloadOf<'breaker.cost_recorded'>[] {
  const records = new Map<string, PayloadOf<'breaker.cost_recorded'>>();
  for (const { entry, usd, pricedBy } of charges) {
    const key = `${entry.model}\u0000${pricedBy}`;
    const record = records.get(key) ?? {
      ...(phase ? { phase } : {}),
      model: entry.model,
      prompt_tokens: 0,
      completion_tokens: 0,
      cost_usd: 0,
      operation: 'usage.reported',
      source,
      priced_by: pricedBy,
    };
    record.prompt_tokens += entry.tokens.prompt + (entry.tokens.cache_read ?? 0) + (entry.tokens.cache_write ?? 0);
    record.completion_tokens += entry.tokens.completion;
    record.cost_usd += usd;
    records.set(key, record);
  }
  return [...records.values()];
}
