import { Inject, Injectable } from '@nestjs/common';
import { createInbox, headers } from '@nats-io/transport-node';
import { createMessage, derivedMessageId, newMessageId, publishSubject, validateMessage, type MessageOf } from '@warden/contracts';
import { BusConnection } from '@warden/messaging';
import type { CommandOutcome, HitlCommand } from '@warden/gate';
import type { GateOptions } from '../config.js';
import { GATE_OPTIONS } from './gate-options.js';

/** Header of a gate.command that asks the owner of the session to answer on this subject. */
export const REPLY_HEADER = 'Warden-Reply-To';

/** What an issuer learns: the owner's answer, or that the command is stored and applied when the owner is back. */
export type DispatchOutcome = CommandOutcome | { status: 'accepted'; note: string; command_id: string };

const encoder = new TextEncoder();

/**
 * Sends a validated HITL command to whichever gate replica owns its session: the command is stored on
 * the gate_command channel (so it is applied once, in order with the session's verdicts, even if that
 * replica restarts) and the owner answers on a private reply subject. Any replica can take a command.
 */
@Injectable()
export class CommandDispatcher {
  constructor(
    private readonly bus: BusConnection,
    @Inject(GATE_OPTIONS) private readonly options: GateOptions,
  ) {}

  /** `key` makes the command id deterministic (an inbox file), so sending it twice stores it once. */
  async dispatch(command: HitlCommand, key?: string): Promise<DispatchOutcome> {
    const message = toMessage(command, key ? derivedMessageId('gate.command', key) : newMessageId());
    const checked = validateMessage(message);
    if (!checked.ok) return { status: 'error', code: 422, reason: `invalid_command: ${checked.detail}` };
    const inbox = createInbox();
    const reply = this.bus.nc.subscribe(inbox, { max: 1, timeout: this.options.commandReplyTimeoutMs });
    const answered = (async (): Promise<CommandOutcome | null> => {
      try {
        for await (const msg of reply) return msg.json<CommandOutcome>();
      } catch {
        // timed out: the owner is busy or away
      }
      return null;
    })();
    try {
      const h = headers();
      h.set(REPLY_HEADER, inbox);
      await this.bus.js.publish(publishSubject('gate_command', command.agent_id, command.session_id), encoder.encode(JSON.stringify(message)), {
        msgID: message.id,
        headers: h,
      });
    } catch (error) {
      reply.unsubscribe();
      throw error;
    }
    const outcome = await answered;
    return outcome ?? { status: 'accepted', note: 'stored; the replica that owns the session applies it when it is back', command_id: message.id };
  }
}

export function toMessage(command: HitlCommand, id: string): MessageOf<'gate.command'> {
  return createMessage('gate.command', {
    id,
    session_id: command.session_id,
    agent_id: command.agent_id,
    timestamp: new Date(command.timestamp).toISOString(),
    payload: {
      command_type: command.type,
      operator_id: command.operator_id,
      ...(command.reason !== undefined ? { reason: command.reason } : {}),
      ...(command.original_trace_id !== undefined ? { original_trace_id: command.original_trace_id } : {}),
      ...(command.new_content !== undefined ? { new_content: command.new_content } : {}),
      ...(command.prompt !== undefined ? { prompt: command.prompt } : {}),
      ...(command.resolution !== undefined ? { resolution: command.resolution } : {}),
      ...(command.request_id !== undefined ? { request_id: command.request_id } : {}),
      ...(command.conditions !== undefined ? { conditions: command.conditions } : {}),
      ...(command.digest !== undefined ? { digest: command.digest } : {}),
      ...(command.channel !== undefined ? { channel: command.channel } : {}),
      ...(command.stop_agent ? { stop_agent: true } : {}),
    },
  });
}
