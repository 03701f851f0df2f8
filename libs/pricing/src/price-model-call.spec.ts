import { canonicalModel, costAt, priceModelCall } from './price-model-call.js';

describe('what a model call costs', () => {
  it('prices an Opus 4.5 turn of a real Claude Code session with cache reads and writes at their own prices', () => {
    // One turn: 6 uncached input tokens, 95,000 read from the cache, 1,200 written to it, 350 output.
    const call = priceModelCall('claude-opus-4-5-20251101', { prompt: 6, completion: 350, cache_read: 95_000, cache_write: 1_200 });
    expect(call).toMatchObject({ priced_as: 'claude-opus-4-5', match: 'listed' });
    // 6×$5 + 350×$25 + 95,000×$0.50 + 1,200×$6.25 per million tokens.
    expect(call.usd).toBeCloseTo((6 * 5 + 350 * 25 + 95_000 * 0.5 + 1_200 * 6.25) / 1e6, 9);
    // Summing every prompt token at the full input price, as before, made the same turn cost more than seven times as much.
    expect((95_206 * 5 + 350 * 25) / 1e6 / call.usd).toBeGreaterThan(7);
  });

  it('names a model one way whatever the provider calls it', () => {
    expect(canonicalModel('claude-sonnet-4-5-20250929')).toBe('claude-sonnet-4-5');
    expect(canonicalModel('us.anthropic.claude-sonnet-4-5-20250929-v1:0')).toBe('claude-sonnet-4-5');
    expect(canonicalModel('anthropic/claude-opus-4-6')).toBe('claude-opus-4-6');
    expect(canonicalModel('claude-sonnet-4-6[1m]')).toBe('claude-sonnet-4-6');
    expect(canonicalModel('claude-opus-4-6-thinking')).toBe('claude-opus-4-6');
    expect(canonicalModel('gpt-4o-2024-08-06')).toBe('gpt-4o');
  });

  it('prices a model it does not list by its family, and anything else as the documented fallback', () => {
    expect(priceModelCall('claude-opus-9-1', { prompt: 1000, completion: 0 })).toMatchObject({ priced_as: 'claude-opus-4-7', match: 'family' });
    expect(priceModelCall('gpt-4o-mini-search-preview', { prompt: 1000, completion: 0 })).toMatchObject({ priced_as: 'gpt-4o-mini', match: 'family' });
    expect(priceModelCall('llama-3-70b', { prompt: 1000, completion: 0 })).toMatchObject({ priced_as: 'claude-sonnet-4-6', match: 'fallback', usd: 0.003 });
  });

  it('lets a configured price win over the defaults, and derives missing cache prices from the input price', () => {
    const call = priceModelCall('in-house-model', { prompt: 1000, completion: 1000, cache_read: 1000, cache_write: 1000 }, { 'in-house-model': { input: 0.001, output: 0.002 } });
    expect(call).toMatchObject({ priced_as: 'in-house-model', match: 'listed' });
    expect(call.usd).toBeCloseTo(0.001 + 0.002 + 0.0001 + 0.00125, 9);
    expect(costAt({ input: 0.003, output: 0.015 }, { prompt: 0, completion: 0 })).toBe(0);
  });
});
