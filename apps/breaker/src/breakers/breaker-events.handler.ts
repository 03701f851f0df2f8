import { Controller, Inject } from '@nestjs/common';
import { Ctx, Payload } from '@nestjs/microservices';
import type { AnyMessage, MessageOf } from '@warden/contracts';
import { deferral, JetStreamContext, OnMessage } from '@warden/messaging-nest';
import { priceCall, throttleOf } from '@warden/breakers';
import type { BreakerSettings } from '@warden/breakers';
import { BREAKER_SETTINGS, BreakerSupervisor, lifecycleChange } from './breaker-supervisor.js';

/**
 * Feeds the session's breakers: lifecycle events start and move the clocks, each proposed action is an
 * iteration, each outcome counts for the error rate, the cost and stagnation, operators' commands
 * force, disable, enable or reset, and the intervention controller's throttling tightens the limits. Times are the moments JetStream stored the messages, so a
 * redelivery or a replay computes the same thing.
 */
@Controller()
export class BreakerEventsHandler {
  constructor(
    private readonly supervisor: BreakerSupervisor,
    @Inject(BREAKER_SETTINGS) private readonly settings: BreakerSettings,
  ) {}

  @OnMessage('session.started')
  onStarted(@Payload() message: MessageOf<'session.started'>, @Ctx() context: JetStreamContext): Promise<void> {
    const at = storedAt(context);
    return this.supervisor.apply(address(message, at), { message }, 'session', lifecycleChange(message, at));
  }

  @OnMessage('session.phase_changed')
  onPhaseChanged(@Payload() message: MessageOf<'session.phase_changed'>, @Ctx() context: JetStreamContext): Promise<void> {
    const at = storedAt(context);
    return this.supervisor.apply(address(message, at), { message }, 'session', lifecycleChange(message, at));
  }

  @OnMessage('session.ended')
  onEnded(@Payload() message: MessageOf<'session.ended'>, @Ctx() context: JetStreamContext): Promise<void> {
    const at = storedAt(context);
    return this.supervisor.apply(address(message, at), { message }, 'session', lifecycleChange(message, at));
  }

  @OnMessage('action.proposed')
  onAction(@Payload() message: MessageOf<'action.proposed'>, @Ctx() context: JetStreamContext): Promise<void> {
    const at = storedAt(context);
    return this.supervisor.apply(address(message, at), { message }, 'action', (b) =>
      b.actionProposed(message.id, at, message.payload.phase, { action_id: message.payload.action_id, tool: message.payload.tool, kind: message.payload.kind, input: message.payload.input, ...(message.payload.turn ? { turn: message.payload.turn } : {}) }),
      undefined,
      deferral(context),
    );
  }

  @OnMessage('action.outcome')
  onOutcome(@Payload() message: MessageOf<'action.outcome'>, @Ctx() context: JetStreamContext): Promise<void> {
    const at = storedAt(context);
    const { model, tokens } = message.payload;
    const call = model && tokens ? priceCall(this.settings.cost.pricing, model, tokens) : undefined;
    return this.supervisor.apply(
      address(message, at),
      { message },
      'outcome',
      (b, dayTotal) => b.outcomeReported(message.id, at, message.payload, dayTotal),
      // Only a model call changes the day, and only then is the day's total read.
      async () => (call ? this.supervisor.addToDay(message.agent_id, message.id, at, call.usd) : 0),
      deferral(context),
    );
  }

  /**
   * Model usage the agent's own telemetry or transcript reported (the gateway's OTLP receiver, the hook):
   * charged like an outcome's model call, from the session's most precise source, each entry once.
   */
  @OnMessage('usage.reported')
  onUsage(@Payload() message: MessageOf<'usage.reported'>, @Ctx() context: JetStreamContext): Promise<void> {
    const at = storedAt(context);
    return this.supervisor.apply<number>(
      address(message, at),
      { message },
      'usage',
      (b, dayTotal) => b.usageReported(message.id, at, message.payload, dayTotal),
      async (b) => {
        const usd = b.usageCost(message.payload);
        return usd > 0 ? this.supervisor.addToDay(message.agent_id, message.id, at, usd) : 0;
      },
      deferral(context),
    );
  }

  /**
   * Resource throttling ordered by the intervention controller is enforced here: the session's
   * iteration limits and cost budgets shrink by the intervention's reduction factors.
   */
  @OnMessage('intervention.issued')
  onIntervention(@Payload() message: MessageOf<'intervention.issued'>, @Ctx() context: JetStreamContext): Promise<void> {
    if (message.payload.intervention_type !== 'resource_throttling') return Promise.resolve();
    const at = storedAt(context);
    const { factors, limits } = throttleOf(message.payload);
    return this.supervisor.apply(address(message, at), { message }, 'throttle', (b) => b.throttled(message.id, factors, limits));
  }

  @OnMessage('breaker.command')
  onCommand(@Payload() message: MessageOf<'breaker.command'>, @Ctx() context: JetStreamContext): Promise<void> {
    const at = storedAt(context);
    return this.supervisor.apply(address(message, at), { message }, 'command', (b) => b.command(message.id, at, message.payload));
  }
}

function address(message: AnyMessage, at: number) {
  return { agentId: message.agent_id, sessionId: message.session_id, at };
}

/** When JetStream stored the message, in epoch milliseconds. */
function storedAt(context: JetStreamContext): number {
  return Math.floor(context.getMessage().info.timestampNanos / 1e6);
}
