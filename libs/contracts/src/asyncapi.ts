import { CHANNEL_IDS, CHANNELS, type Channel, type ChannelId } from './channels.js';
import { MESSAGE_DEFINITIONS, messageTypesOn } from './catalog.js';
import { envelopeSchema, type MessageDefinition } from './envelope.js';
import { EXAMPLE_PAYLOADS } from './examples.js';
import type { Participant } from './vocabulary.js';

export const CONTRACTS_VERSION = '1.0.0';

const ref = (path: string) => ({ $ref: path });

function address(channel: Channel): string {
  switch (channel.kind) {
    case 'session':
      return `warden.${channel.id}.{partition}.{agent_id}.{session_id}`;
    case 'deadletter':
      return 'warden.deadletter.{service}.{origin_channel}.{partition}.{agent_id}.{session_id}';
    case 'request':
      return channel.address;
  }
}

function parameters(channel: Channel): Record<string, { $ref: string }> | undefined {
  switch (channel.kind) {
    case 'session':
      return {
        partition: ref('#/components/parameters/partition'),
        agent_id: ref('#/components/parameters/agent_id'),
        session_id: ref('#/components/parameters/session_id'),
      };
    case 'deadletter':
      return {
        service: ref('#/components/parameters/service'),
        origin_channel: ref('#/components/parameters/origin_channel'),
        partition: ref('#/components/parameters/partition'),
        agent_id: ref('#/components/parameters/agent_id'),
        session_id: ref('#/components/parameters/session_id'),
      };
    case 'request':
      return undefined;
  }
}

function operationsOf(id: ChannelId, channel: Channel): Record<string, unknown> {
  const types = messageTypesOn(id);
  const operations: Record<string, unknown> = {};
  const messageRefs = (only?: string[]) =>
    types.filter((t) => !only || only.includes(t)).map((t) => ref(`#/channels/${id}/messages/${t}`));
  const requestTypes = channel.kind === 'request' ? [types[0]!] : undefined;
  const replyTypes = channel.kind === 'request' ? types.slice(1) : undefined;
  const reply = replyTypes ? { channel: ref(`#/channels/${id}`), messages: messageRefs(replyTypes) } : undefined;
  const add = (participant: Participant, action: 'send' | 'receive') => {
    operations[`${participant}.${action}.${id}`] = {
      action,
      channel: ref(`#/channels/${id}`),
      title: `${participant} ${action}s ${channel.title.toLowerCase()}`,
      messages: messageRefs(requestTypes),
      ...(reply ? { reply } : {}),
      tags: [{ name: participant }],
    };
  };
  channel.senders.forEach((p) => add(p, 'send'));
  channel.receivers.forEach((p) => add(p, 'receive'));
  return operations;
}

/** A complete example message (a fresh copy) with fixed envelope values, so that the rendered document is stable. */
export function exampleMessage(definition: MessageDefinition): Record<string, unknown> {
  const sessionScoped = definition.channel !== 'audit_query';
  return {
    id: '0b9f6c1e-2d3a-4b5c-8d7e-1f2a3b4c5d6e',
    type: definition.type,
    version: definition.version,
    session_id: sessionScoped ? 'sess-1' : '_',
    agent_id: sessionScoped ? 'claude-code' : '_',
    trace_id: '5d0c7f8e-4a3b-4f1e-9c2d-7b6a5e4d3c2b',
    timestamp: '2026-11-21T10:00:00.000Z',
    payload: structuredClone(EXAMPLE_PAYLOADS[definition.type as keyof typeof EXAMPLE_PAYLOADS]),
  };
}

/**
 * The AsyncAPI 3 description of every channel, who sends and who receives it, built from the channel
 * table and the message catalog. `asyncapi.yaml` in this library is its committed rendering; a test keeps
 * the two identical.
 */
export function buildAsyncApiDocument(): Record<string, unknown> {
  const channels: Record<string, unknown> = {};
  let operations: Record<string, unknown> = {};
  for (const id of CHANNEL_IDS) {
    const channel = CHANNELS[id];
    channels[id] = {
      address: address(channel),
      title: channel.title,
      description: channel.description,
      messages: Object.fromEntries(messageTypesOn(id).map((t) => [t, ref(`#/components/messages/${t}`)])),
      ...(parameters(channel) ? { parameters: parameters(channel) } : {}),
    };
    operations = { ...operations, ...operationsOf(id, channel) };
  }
  const messages = Object.fromEntries(
    MESSAGE_DEFINITIONS.map((definition) => [
      definition.type,
      {
        name: definition.type,
        title: definition.type,
        summary: definition.summary,
        contentType: 'application/json',
        headers: {
          type: 'object',
          properties: {
            'Nats-Msg-Id': { type: 'string', description: 'Equals the envelope id; JetStream de-duplicates on it.' },
          },
        },
        payload: JSON.parse(JSON.stringify(envelopeSchema(definition as MessageDefinition))) as unknown,
        examples: [{ name: 'example', payload: exampleMessage(definition as MessageDefinition) }],
        'x-warden-version': definition.version,
      },
    ]),
  );
  return {
    asyncapi: '3.0.0',
    info: {
      title: 'Warden',
      version: CONTRACTS_VERSION,
      description:
        'Warden supervises AI agents while they work. Agents publish each action they are about to take; ' +
        'the services review it, watch the session, enforce budgets, hold it for a human when needed, ' +
        'and answer with one decision per action.',
    },
    defaultContentType: 'application/json',
    servers: {
      local: {
        host: '127.0.0.1:4222',
        protocol: 'nats',
        description: 'nats-server with JetStream and the Warden subject mappings (deploy/nats).',
      },
    },
    channels,
    operations,
    components: {
      messages,
      parameters: {
        partition: { description: "Partition of the session, added by the server's subject mapping." },
        agent_id: { description: 'Agent id (one subject token).' },
        session_id: { description: 'Session id (one subject token).' },
        service: { description: 'The service that rejected the message.' },
        origin_channel: { description: 'Channel the rejected message came from.' },
      },
    },
  };
}
