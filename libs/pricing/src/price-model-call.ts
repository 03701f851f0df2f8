import { DEFAULT_MODEL_PRICES, FALLBACK_MODEL, FAMILY_FALLBACKS, type ModelPrice } from './model-prices.js';

/** Tokens of one model call. `prompt` counts only the input tokens neither read from nor written to the cache. */
export interface TokenUsage {
  prompt: number;
  completion: number;
  cache_read?: number;
  cache_write?: number;
}

/** How a model id found its price: listed (as is or without its date), by its family, or the fallback. */
export type PriceMatch = 'listed' | 'family' | 'fallback';

export interface PricedCall {
  usd: number;
  /** The table entry that priced it. */
  priced_as: string;
  match: PriceMatch;
}

/**
 * `claude-opus-4-5-20251101` → `claude-opus-4-5`; provider prefixes and suffixes (`anthropic/`,
 * `us.anthropic.`, `-v1:0`, `@20250514`, `[1m]`, a proxy's `-thinking`) go too, so the same model has
 * one name everywhere.
 */
export function canonicalModel(model: string): string {
  return model
    .trim()
    .toLowerCase()
    .replace(/^(?:[a-z0-9-]+\/)+/, '')
    .replace(/^(?:[a-z]{2,4}\.)?anthropic\./, '')
    .replace(/\[[^\]]*\]$/, '')
    .replace(/-thinking$/, '')
    .replace(/-v\d+(?::\d+)?$/, '')
    .replace(/[@-]\d{8}$/, '')
    .replace(/-\d{4}-\d{2}-\d{2}$/, '')
    .replace(/-latest$/, '');
}

/** The price of a model in a table (the defaults merged with any configured prices), and how it was found. */
export function priceOfModel(table: Readonly<Record<string, ModelPrice>>, model: string): { price: ModelPrice; priced_as: string; match: PriceMatch } {
  if (Object.hasOwn(table, model)) return { price: table[model]!, priced_as: model, match: 'listed' };
  const name = canonicalModel(model);
  if (Object.hasOwn(table, name)) return { price: table[name]!, priced_as: name, match: 'listed' };
  for (const [pattern, family] of FAMILY_FALLBACKS) {
    if (pattern.test(name) && Object.hasOwn(table, family)) return { price: table[family]!, priced_as: family, match: 'family' };
  }
  const fallback = Object.hasOwn(table, FALLBACK_MODEL) ? FALLBACK_MODEL : Object.keys(table)[0];
  const price = fallback ? table[fallback]! : DEFAULT_MODEL_PRICES[FALLBACK_MODEL]!;
  return { price, priced_as: fallback ?? FALLBACK_MODEL, match: 'fallback' };
}

/** USD of one call at a price: prompt, completion, cache reads and cache writes each at their own rate. */
export function costAt(price: ModelPrice, tokens: TokenUsage): number {
  const cacheRead = price.cache_read ?? price.input * 0.1;
  const cacheWrite = price.cache_write ?? price.input * 1.25;
  return (tokens.prompt * price.input + tokens.completion * price.output + (tokens.cache_read ?? 0) * cacheRead + (tokens.cache_write ?? 0) * cacheWrite) / 1000;
}

/** Prices one model call against a table; `configured` prices are laid over the defaults. */
export function priceModelCall(model: string, tokens: TokenUsage, configured: Readonly<Record<string, ModelPrice>> = {}): PricedCall {
  const table = { ...DEFAULT_MODEL_PRICES, ...configured };
  const { price, priced_as, match } = priceOfModel(table, model);
  return { usd: costAt(price, tokens), priced_as, match };
}

/** Every token of a call, cached or not: what token limits count. */
export const totalTokens = (tokens: TokenUsage) => tokens.prompt + tokens.completion + (tokens.cache_read ?? 0) + (tokens.cache_write ?? 0);
