import type { PayloadOf, UsageSource } from '@warden/contracts';
import { priceModelCall, type ModelPrice, type PriceMatch } from '@warden/pricing';

export type UsageEntryReading = PayloadOf<'usage.reported'>['entries'][number];

/** The part of a usage report (`usage.reported`) the breakers read. */
export interface UsageReading {
  source: UsageSource;
  entries: readonly UsageEntryReading[];
}

/**
 * How precise each source is. A session's spend is counted from one source at a time: the agent's
 * telemetry events (one per model request, with the agent's own cost) over its metrics (sums per export
 * interval) over its transcript. A more precise source that starts reporting takes over; a less precise
 * one is then ignored, so that an agent that reports the same calls twice (events and metrics, or
 * telemetry and the transcript) is counted once.
 */
export const USAGE_SOURCE_RANK: Readonly<Record<UsageSource, number>> = { transcript: 1, telemetry_metric: 2, telemetry_event: 3 };

/** What the ledger keeps of the usage reports: the source counted, and the keys of the last entries counted. */
export interface SpendRecord {
  source: UsageSource;
  keys: string[];
}

/** Entry keys remembered per session: an exporter's retry of an export sends the same entries again. */
const KEPT_KEYS = 512;

/** One usage entry the session is charged for. */
export interface UsageCharge {
  entry: UsageEntryReading;
  usd: number;
  /** agent: the cost the agent reported; pricing_table: Warden's price of the tokens. */
  pricedBy: 'agent' | 'pricing_table';
  /** How the model found its price, when Warden priced it. */
  match?: PriceMatch;
  pricedAs?: string;
}

/**
 * The entries of a report the session is charged for: none when the session's spend is counted from a
 * more precise source; otherwise those not counted before, each at the cost the agent reported, or
 * priced from the table when it reported none.
 */
export function usageCharges(spend: SpendRecord | undefined, usage: UsageReading, pricing: Readonly<Record<string, ModelPrice>>): UsageCharge[] {
  if (spend && USAGE_SOURCE_RANK[usage.source] < USAGE_SOURCE_RANK[spend.source]) return [];
  const counted = new Set(spend?.keys ?? []);
  const charges: UsageCharge[] = [];
  for (const entry of usage.entries) {
    const key = `${usage.source}:${entry.key}`;
    if (counted.has(key)) continue;
    counted.add(key);
    if (entry.cost_usd !== undefined) {
      charges.push({ entry, usd: entry.cost_usd, pricedBy: 'agent' });
      continue;
    }
    const call = priceModelCall(entry.model, entry.tokens, pricing);
    charges.push({ entry, usd: call.usd, pricedBy: 'pricing_table', match: call.match, pricedAs: call.priced_as });
  }
  return charges;
}

/** The spend record after a report: its source (a more precise one takes over) and the keys now counted. */
export function recordUsage(spend: SpendRecord | undefined, usage: UsageReading, charges: readonly UsageCharge[]): SpendRecord {
  const switched = !spend || USAGE_SOURCE_RANK[usage.source] > USAGE_SOURCE_RANK[spend.source];
  const keys = [...(switched ? [] : spend.keys), ...charges.map((c) => `${usage.source}:${c.entry.key}`)];
  return { source: switched ? usage.source : spend.source, keys: keys.slice(-KEPT_KEYS) };
}
