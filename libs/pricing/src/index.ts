export { DEFAULT_MODEL_PRICES, FALLBACK_MODEL, FAMILY_FALLBACKS, type ModelPrice } from './model-prices.js';
export { canonicalModel, costAt, priceModelCall, priceOfModel, totalTokens, type PriceMatch, type PricedCall, type TokenUsage } from './price-model-call.js';
