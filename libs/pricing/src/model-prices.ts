/**
 * USD per 1,000 tokens of one model. `cache_read` and `cache_write` are the prices of prompt tokens read
 * from and written to the provider's prompt cache; when absent they are derived from `input` with the
 * providers' usual multipliers (reads 0.1×, writes 1.25×).
 */
export interface ModelPrice {
  input: number;
  output: number;
  cache_read?: number;
  cache_write?: number;
}

/**
 * The prices Warden knows, per 1,000 tokens, as the providers publish them (Anthropic's and OpenAI's
 * pricing pages, November 2026; 5-minute cache writes). Keys are model ids without a date suffix: a
 * dated id (`claude-opus-4-5-20251101`) is priced by its undated name.
 */
export const DEFAULT_MODEL_PRICES: Readonly<Record<string, ModelPrice>> = {
  'claude-fable-5-1': { input: 0.01, output: 0.05, cache_read: 0.00025, cache_write: 0.0125 },
  'claude-mythos-5-1': { input: 0.01, output: 0.05, cache_read: 0.00025, cache_write: 0.0125 },
  'claude-fable-5': { input: 0.01, output: 0.05, cache_read: 0.001, cache_write: 0.0125 },
  'claude-mythos-5': { input: 0.01, output: 0.05, cache_read: 0.001, cache_write: 0.0125 },
  'claude-opus-5-5': { input: 0.004, output: 0.02, cache_read: 0.0002, cache_write: 0.005 },
  'claude-opus-5': { input: 0.005, output: 0.025, cache_read: 0.0005, cache_write: 0.00625 },
  'claude-opus-4-8': { input: 0.005, output: 0.025, cache_read: 0.0005, cache_write: 0.00625 },
  'claude-opus-4-7': { input: 0.005, output: 0.025, cache_read: 0.0005, cache_write: 0.00625 },
  'claude-opus-4-6': { input: 0.005, output: 0.025, cache_read: 0.0005, cache_write: 0.00625 },
  'claude-opus-4-5': { input: 0.005, output: 0.025, cache_read: 0.0005, cache_write: 0.00625 },
  'claude-opus-4-1': { input: 0.015, output: 0.075, cache_read: 0.0015, cache_write: 0.01875 },
  'claude-opus-4': { input: 0.015, output: 0.075, cache_read: 0.0015, cache_write: 0.01875 },
  'claude-opus-4-0': { input: 0.015, output: 0.075, cache_read: 0.0015, cache_write: 0.01875 },
  'claude-sonnet-5-5': { input: 0.002, output: 0.01, cache_read: 0.0001, cache_write: 0.0025 },
  'claude-sonnet-5': { input: 0.002, output: 0.01, cache_read: 0.0002, cache_write: 0.0025 },
  'claude-sonnet-4-6': { input: 0.003, output: 0.015, cache_read: 0.0003, cache_write: 0.00375 },
  'claude-sonnet-4-5': { input: 0.003, output: 0.015, cache_read: 0.0003, cache_write: 0.00375 },
  'claude-sonnet-4': { input: 0.003, output: 0.015, cache_read: 0.0003, cache_write: 0.00375 },
  'claude-sonnet-4-0': { input: 0.003, output: 0.015, cache_read: 0.0003, cache_write: 0.00375 },
  'claude-3-7-sonnet': { input: 0.003, output: 0.015, cache_read: 0.0003, cache_write: 0.00375 },
  'claude-haiku-5-5': { input: 0.0001, output: 0.0005, cache_read: 0.00001, cache_write: 0.000125 },
  'claude-haiku-4-5': { input: 0.001, output: 0.005, cache_read: 0.0001, cache_write: 0.00125 },
  'claude-3-5-haiku': { input: 0.0008, output: 0.004, cache_read: 0.00008, cache_write: 0.001 },
  'claude-3-haiku': { input: 0.00025, output: 0.00125, cache_read: 0.00003, cache_write: 0.0003 },
  'gpt-5': { input: 0.00125, output: 0.01, cache_read: 0.000125 },
  'gpt-5-mini': { input: 0.00025, output: 0.002, cache_read: 0.000025 },
  'gpt-5-nano': { input: 0.00005, output: 0.0004, cache_read: 0.000005 },
  'gpt-4.1': { input: 0.002, output: 0.008, cache_read: 0.0005 },
  'gpt-4.1-mini': { input: 0.0004, output: 0.0016, cache_read: 0.0001 },
  'gpt-4o': { input: 0.0025, output: 0.01, cache_read: 0.00125 },
  'gpt-4o-mini': { input: 0.00015, output: 0.0006, cache_read: 0.000075 },
  'gpt-4-turbo': { input: 0.01, output: 0.03 },
  'gpt-4': { input: 0.03, output: 0.06 },
  o3: { input: 0.002, output: 0.008, cache_read: 0.0005 },
  'o4-mini': { input: 0.0011, output: 0.0044, cache_read: 0.000275 },
};

/**
 * Models not in the table are priced by their family's current price (an unknown Opus as Opus 4.7, an
 * unknown GPT-4o variant as GPT-4o), and anything else as a Sonnet-class model, never as free; the
 * breaker reports every guessed price.
 */
export const FAMILY_FALLBACKS: readonly (readonly [pattern: RegExp, model: string])[] = [
  [/fable|mythos/, 'claude-fable-5'],
  [/opus/, 'claude-opus-4-7'],
  [/sonnet/, 'claude-sonnet-4-6'],
  [/haiku/, 'claude-haiku-4-5'],
  [/gpt-4o-mini/, 'gpt-4o-mini'],
  [/gpt-4o/, 'gpt-4o'],
  [/gpt-4\.1/, 'gpt-4.1'],
  [/gpt-5/, 'gpt-5'],
  [/gpt-4/, 'gpt-4-turbo'],
  [/^o\d/, 'o3'],
];

/** The model every unrecognised id is priced as. */
export const FALLBACK_MODEL = 'claude-sonnet-4-6';
