import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Parser } from '@asyncapi/parser';
import { Compile } from 'typebox/compile';
import { parse } from 'yaml';
import {
  buildAsyncApiDocument,
  CHANNEL_IDS,
  CHANNELS,
  MESSAGE_DEFINITIONS,
  messageTypesOn,
  type MessageDefinition,
  exampleMessage,
} from '../src/index.js';

const documentPath = join(dirname(fileURLToPath(import.meta.url)), '..', 'asyncapi.yaml');
const committedText = readFileSync(documentPath, 'utf8');
const committed = parse(committedText) as {
  channels: Record<string, { address: string; messages: Record<string, { $ref: string }> }>;
  operations: Record<string, { action: string; channel: { $ref: string }; tags: { name: string }[] }>;
  components: { messages: Record<string, { payload: object; examples: { payload: unknown }[] }> };
};

describe('the AsyncAPI document', () => {
  it('is exactly what the contracts produce (regenerate with `nx run contracts:asyncapi`)', () => {
    expect(committed).toEqual(buildAsyncApiDocument());
  });

  it('is a valid AsyncAPI 3 document', async () => {
    const { diagnostics, document } = await new Parser().parse(committedText);
    const errors = diagnostics.filter((d) => d.severity === 0).map((d) => `${d.path.join('.')}: ${d.message}`);
    expect(errors).toEqual([]);
    expect(document?.version()).toBe('3.0.0');
  });

  it('describes every message type with the payload schema the services validate against', () => {
    for (const definition of MESSAGE_DEFINITIONS) {
      const component = committed.components.messages[definition.type];
      expect(component).toBeDefined();
      const fromDocument = Compile(component!.payload as never);
      expect(fromDocument.Check(exampleMessage(definition as MessageDefinition))).toBe(true);
      expect(fromDocument.Check({ ...exampleMessage(definition as MessageDefinition), payload: 'not an object' })).toBe(false);
    }
  });

  it('lists each channel with its messages, senders and receivers', () => {
    for (const id of CHANNEL_IDS) {
      const channel = CHANNELS[id];
      expect(Object.keys(committed.channels[id]!.messages).sort()).toEqual(messageTypesOn(id).sort());
      const participants = (action: string) =>
        Object.values(committed.operations)
          .filter((op) => op.action === action && op.channel.$ref === `#/channels/${id}`)
          .map((op) => op.tags[0]!.name)
          .sort();
      expect(participants('send')).toEqual([...channel.senders].sort());
      expect(participants('receive')).toEqual([...channel.receivers].sort());
    }
  });

  it('puts every message type on a channel that somebody sends and somebody receives', () => {
    for (const definition of MESSAGE_DEFINITIONS) {
      const channel = CHANNELS[definition.channel];
      expect(channel.senders.length).toBeGreaterThan(0);
      expect(channel.receivers.length).toBeGreaterThan(0);
    }
  });
});
