import { derivedMessageId, newMessageId } from './index.js';

describe('message ids', () => {
  it('derives the same id from the same input, so a redelivery publishes a duplicate JetStream drops', () => {
    expect(derivedMessageId('review.verdict', 'toolu_1')).toBe(derivedMessageId('review.verdict', 'toolu_1'));
  });

  it('derives different ids for different types and keys', () => {
    const ids = new Set([
      derivedMessageId('review.verdict', 'toolu_1'),
      derivedMessageId('decision.made', 'toolu_1'),
      derivedMessageId('review.verdict', 'toolu_2'),
    ]);
    expect(ids.size).toBe(3);
  });

  it('shapes ids as UUIDs', () => {
    const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
    expect(derivedMessageId('decision.made', 'a')).toMatch(uuid);
    expect(newMessageId()).toMatch(uuid);
  });
});
