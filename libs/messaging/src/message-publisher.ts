import type { PubAck } from '@nats-io/jetstream';
import {
  CHANNELS,
  createMessage,
  definitionOf,
  derivedMessageId,
  publishSubject,
  validateMessage,
  type AnyMessage,
  type MessageInit,
  type MessageOf,
  type MessageType,
  type SessionChannelId,
} from '@warden/contracts';
import { redactForStorage } from '@warden/observability';
import { NOOP_MESSAGE_TRACER, type MessageTracer } from '@warden/tracing';
import type { BusConnection } from './connection/bus-connection.js';
import type { DeadLetter } from './consumer/dead-letter.js';
import { onTheBus } from './state/bus-failures.js';
import { ContractViolationError } from './errors.js';
import type { MessagingMetrics } from './messaging-metrics.js';

const encoder = new TextEncoder();

/**
 * Publishes suite messages to JetStream. Every message is checked against its contract first, goes to
 * its channel's subject for the session, and carries its id as `Nats-Msg-Id`, so publishing the same
 * message twice stores it once. Resolves when JetStream has stored it.
 */
export class MessagePublisher {
  constructor(
    private readonly bus: BusConnection,
    private readonly metrics: MessagingMetrics,
    /** The span of each publication, when tracing is on. */
    private readonly tracer: MessageTracer = NOOP_MESSAGE_TRACER,
  ) {}

  /** Builds a message of `type` (envelope filled in) and publishes it. */
  async publish<T extends MessageType>(type: T, init: MessageInit<T>): Promise<MessageOf<T>> {
    const message = createMessage(type, init);
    await this.publishMessage(message as AnyMessage);
    return message;
  }

  /**
   * Publishes a message caused by another: same session, agent and trace, `causation_id` set, and an id
   * derived from `key` (default: the cause's id), so that handling the cause again publishes a duplicate
   * JetStream drops. A key allows one such message per key, e.g. one decision per action.
   * `carryControl` passes the cause's routing flags on to whoever handles them next (the gate).
   */
  async publishCausedBy<T extends MessageType>(
    cause: AnyMessage,
    type: T,
    payload: MessageInit<T>['payload'],
    options: { key?: string; carryControl?: boolean } = {},
  ): Promise<MessageOf<T>> {
    return this.publish(type, {
      id: derivedMessageId(type, options.key ?? cause.id),
      session_id: cause.session_id,
      agent_id: cause.agent_id,
      trace_id: cause.trace_id,
      causation_id: cause.id,
      ...(options.carryControl && cause.control ? { control: cause.control } : {}),
      payload,
    });
  }

  async publishMessage(original: AnyMessage): Promise<PubAck> {
    const message = storedForm(original);
    const validation = validateMessage(message);
    if (!validation.ok) throw new ContractViolationError(message.type, validation.detail);
    const channelId = definitionOf(message.type)!.channel;
    if (CHANNELS[channelId].kind !== 'session') {
      throw new ContractViolationError(message.type, `${channelId} is not a session channel`);
    }
    const subject = publishSubject(channelId as SessionChannelId, message.agent_id, message.session_id);
    // The bus away or electing a leader: the message is fine and goes out later (the same id, stored once).
    const ack = await onTheBus(`publishing ${message.type}`, () =>
      this.tracer.publish(message, { channel: channelId, subject }, () => this.bus.js.publish(subject, encoder.encode(JSON.stringify(message)), { msgID: message.id })),
    );
    this.metrics.published.inc({ channel: channelId, type: message.type, duplicate: String(ack.duplicate) });
    return ack;
  }

  async publishDeadLetter(deadLetter: DeadLetter): Promise<PubAck> {
    const ack = await this.bus.js.publish(deadLetter.subject, encoder.encode(JSON.stringify(deadLetter.message)), {
      msgID: deadLetter.message.id,
    });
    this.metrics.published.inc({ channel: 'deadletter', type: 'deadletter.recorded', duplicate: String(ack.duplicate) });
    return ack;
  }
}

/**
 * The message as it is stored. What an agent sends (its actions, outcomes, sessions) is stored as its
 * client made it (the SDK redacts it, and seals an action's secrets for the reviewer). Everything the
 * suite derives from it afterwards (verdicts, decisions, patterns, interventions, controls, gate events)
 * is stored with its secrets redacted (`redactForStorage`).
 */
export function storedForm(message: AnyMessage): AnyMessage {
  const definition = definitionOf(message.type);
  if (!definition) return message;
  const channel = CHANNELS[definition.channel];
  if ((channel.senders as readonly string[]).includes('agent')) return message;
  const payload = redactForStorage(message.payload);
  return payload === message.payload ? message : ({ ...message, payload } as AnyMessage);
}
