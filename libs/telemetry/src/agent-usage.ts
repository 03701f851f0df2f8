import { createHash } from 'node:crypto';
import type { PayloadOf, UsageSource } from '@warden/contracts';
import type { AnyValue, KeyValue, LogRecord, LogsRequest, MetricsRequest, NumberDataPoint } from './otlp-request.js';

export type UsageEntry = PayloadOf<'usage.reported'>['entries'][number];

/** The model usage of one session in one export. */
export interface SessionUsage {
  sessionId: string;
  /** The agent product whose telemetry it is: claude-code, codex. */
  agentKind: string;
  source: UsageSource;
  entries: UsageEntry[];
}

/** What an export held for Warden: usage per session, and the usage points it could not take, with why. */
export interface UsageReading {
  sessions: SessionUsage[];
  /** Data points or log records in the export. */
  items: number;
  /** Those that were model usage Warden took. */
  used: number;
  rejected: { count: number; reasons: string[] };
}

type Attributes = Map<string, AnyValue>;

function attributesOf(list: KeyValue[] | undefined, base?: Attributes): Attributes {
  const map: Attributes = base ? new Map(base) : new Map();
  if (Array.isArray(list)) for (const kv of list) if (kv && typeof kv.key === 'string' && kv.value) map.set(kv.key, kv.value);
  return map;
}

function text(attrs: Attributes, key: string): string | undefined {
  const v = attrs.get(key);
  return v ? valueText(v) : undefined;
}

/** The value of an AnyValue as text; only the field that was set counts (a decoded message inherits the others' defaults). */
function valueText(v: AnyValue): string | undefined {
  if (Object.hasOwn(v, 'stringValue') && typeof v.stringValue === 'string') return v.stringValue;
  if (Object.hasOwn(v, 'intValue') && v.intValue !== undefined && v.intValue !== null) return String(v.intValue);
  if (Object.hasOwn(v, 'doubleValue') && typeof v.doubleValue === 'number') return String(v.doubleValue);
  if (Object.hasOwn(v, 'boolValue') && typeof v.boolValue === 'boolean') return String(v.boolValue);
  return undefined;
}

/** A number attribute, whichever way the agent typed it (Codex sends its counts as strings). */
function number(attrs: Attributes, key: string): number | undefined {
  const v = attrs.get(key);
  if (!v) return undefined;
  const raw = valueText(v);
  if (raw === undefined || raw === '') return undefined;
  const n = Number(raw);
  return Number.isFinite(n) ? n : undefined;
}

const count = (n: number | undefined) => (n !== undefined && n > 0 ? Math.round(n) : 0);

/** Epoch milliseconds of an OTLP time (nanoseconds, as a number or a decimal string); undefined when absent or zero. */
function millisOf(nanos: string | number | undefined): number | undefined {
  if (nanos === undefined || nanos === '' || nanos === 0 || nanos === '0') return undefined;
  const text = String(nanos);
  if (!/^\d{1,20}$/.test(text)) return undefined;
  return text.length > 6 ? Number(text.slice(0, -6)) : 0;
}

function isoOf(ms: number | undefined, fallback: number): string {
  const at = ms !== undefined && ms > 0 && ms < 8.64e15 ? ms : fallback;
  return new Date(at).toISOString();
}

const digest = (parts: readonly unknown[]) => createHash('sha256').update(JSON.stringify(parts)).digest('base64url').slice(0, 32);

/** A session id Warden can use as a subject token; undefined otherwise (the usage is then rejected with why). */
function sessionToken(id: string | undefined): string | undefined {
  return id && /^[A-Za-z0-9_-]{1,128}$/.test(id) ? id : undefined;
}

class Collector {
  private readonly bySession = new Map<string, SessionUsage>();
  readonly rejected = { count: 0, reasons: new Set<string>() };
  items = 0;
  used = 0;

  add(sessionId: string | undefined, agentKind: string, source: UsageSource, entry: UsageEntry, idAttribute: string): void {
    const session = sessionToken(sessionId);
    if (!session) {
      this.reject(sessionId ? `${idAttribute} "${sessionId.slice(0, 64)}" is not a session id Warden can use (letters, digits, _ and -, at most 128)` : `model usage without ${idAttribute}: it cannot be charged to a session`);
      return;
    }
    const key = `${agentKind}\u0000${session}\u0000${source}`;
    let usage = this.bySession.get(key);
    if (!usage) {
      usage = { sessionId: session, agentKind, source, entries: [] };
      this.bySession.set(key, usage);
    }
    usage.entries.push(entry);
    this.used++;
  }

  reject(reason: string): void {
    this.rejected.count++;
    this.rejected.reasons.add(reason);
  }

  reading(): UsageReading {
    return { sessions: [...this.bySession.values()], items: this.items, used: this.used, rejected: { count: this.rejected.count, reasons: [...this.rejected.reasons] } };
  }
}

/** Claude Code's token types (`claude_code.token.usage` attribute `type`) as Warden's token fields. */
const CLAUDE_TOKEN_TYPES: Record<string, keyof UsageEntry['tokens']> = { input: 'prompt', output: 'completion', cacheRead: 'cache_read', cacheCreation: 'cache_write' };
/** Attributes that only describe a point (the session, the token type, the agent's own ids): what remains tells series apart. */
const NOT_SERIES = new Set(['session.id', 'type', 'user.id', 'user.email', 'user.account_uuid', 'user.account_id', 'organization.id', 'terminal.type', 'app.version', 'app.entrypoint']);

/**
 * Model usage in a metrics export, per session. Claude Code
 * (https://code.claude.com/docs/en/monitoring-usage): `claude_code.cost.usage` (USD) and
 * `claude_code.token.usage` (tokens, by `type`: input, output, cacheRead, cacheCreation), sums with the
 * session in `session.id` and the model in `model`, by default with delta temporality. The points of one
 * session, model, attribution and collection make one entry: its tokens and the cost Claude Code reported.
 * A cumulative point is not read (each would count the session's whole usage again): Warden's install
 * asks for delta. Other metrics are not usage and are left alone.
 */
export function usageFromMetrics(request: MetricsRequest, now = Date.now()): UsageReading {
  const collector = new Collector();
  interface Group { sessionId?: string; model: string; querySource?: string; at: number; entry: UsageEntry }
  const groups = new Map<string, Group>();
  for (const rm of request.resourceMetrics ?? []) {
    const resource = attributesOf(rm?.resource?.attributes);
    for (const sm of rm?.scopeMetrics ?? []) {
      for (const metric of sm?.metrics ?? []) {
        const points = metric?.sum?.dataPoints ?? metric?.gauge?.dataPoints ?? [];
        collector.items += Array.isArray(points) ? points.length : 0;
        if (metric?.name !== 'claude_code.cost.usage' && metric?.name !== 'claude_code.token.usage') continue;
        if (!metric.sum || !Array.isArray(metric.sum.dataPoints)) {
          for (const _ of points) collector.reject(`${metric.name} must be a sum`);
          continue;
        }
        if (metric.sum.aggregationTemporality === 2) {
          for (const _ of metric.sum.dataPoints) collector.reject(`${metric.name} is cumulative: Warden reads delta temporality (OTEL_EXPORTER_OTLP_METRICS_TEMPORALITY_PREFERENCE=delta, Claude Code's default)`);
          continue;
        }
        for (const point of metric.sum.dataPoints as NumberDataPoint[]) {
          const attrs = attributesOf(point?.attributes, resource);
          const value = Number(Object.hasOwn(point ?? {}, 'asDouble') ? point.asDouble : Object.hasOwn(point ?? {}, 'asInt') ? point.asInt : 0);
          if (!Number.isFinite(value) || value < 0) {
            collector.reject(`${metric.name}: a point's value is not a non-negative number`);
            continue;
          }
          const model = text(attrs, 'model') ?? 'unknown';
          const series = [...attrs.entries()].filter(([k]) => !NOT_SERIES.has(k)).map(([k, v]) => `${k}=${valueText(v) ?? ''}`).sort();
          // One collection ends every instrument's interval at the same moment; their starts may differ (an
          // instrument's first interval starts when it was first used).
          const end = String(point.timeUnixNano || point.startTimeUnixNano || '');
          const sessionId = text(attrs, 'session.id');
          const groupKey = `${sessionId}\u0000${series.join('\u0001')}\u0000${end}`;
          let group = groups.get(groupKey);
          if (!group) {
            group = {
              ...(sessionId !== undefined ? { sessionId } : {}),
              model,
              at: millisOf(point.timeUnixNano) ?? now,
              entry: { key: `m:${digest([sessionId, series, end])}`, model, tokens: { prompt: 0, completion: 0 }, at: isoOf(millisOf(point.timeUnixNano), now) },
            };
            const querySource = text(attrs, 'query_source');
            if (querySource) group.entry.query_source = querySource.slice(0, 64);
            groups.set(groupKey, group);
          }
          if (metric.name === 'claude_code.cost.usage') group.entry.cost_usd = (group.entry.cost_usd ?? 0) + value;
          else {
            const field = CLAUDE_TOKEN_TYPES[text(attrs, 'type') ?? ''];
            if (!field) {
              collector.reject(`claude_code.token.usage: unknown token type "${(text(attrs, 'type') ?? '').slice(0, 32)}"`);
              continue;
            }
            group.entry.tokens[field] = (group.entry.tokens[field] ?? 0) + count(value);
          }
        }
      }
    }
  }
  for (const group of groups.values()) collector.add(group.sessionId, 'claude-code', 'telemetry_metric', group.entry, 'session.id');
  return collector.reading();
}

/** A log record's event name: `event.name` (Claude Code, Codex), the record's own event name, or its body. */
function eventNameOf(record: LogRecord): string | undefined {
  if (Array.isArray(record.attributes)) {
    for (const kv of record.attributes) if (kv && kv.key === 'event.name' && kv.value) return valueText(kv.value);
  }
  return (typeof record.eventName === 'string' && record.eventName ? record.eventName : undefined) ?? (record.body ? valueText(record.body) : undefined);
}

/** The events that carry model usage: Claude Code's api_request (named in full or not), Codex's sse_event. */
const USAGE_EVENTS = new Set(['claude_code.api_request', 'api_request', 'codex.sse_event']);

/**
 * Model usage in a logs export (the agents' events), per session:
 * - Claude Code (https://code.claude.com/docs/en/monitoring-usage): `claude_code.api_request`, one per
 *   model request, with `session.id`, `model`, `cost_usd`, `input_tokens`, `output_tokens`,
 *   `cache_read_tokens`, `cache_creation_tokens` and `request_id`. Its `event.name` attribute is
 *   `api_request` (the body names it in full).
 * - Codex (openai/codex docs/config.md, "Observability and telemetry"): `codex.sse_event` with
 *   `event.kind` `response.completed` carries a response's `input_token_count` (cached included),
 *   `cached_token_count`, `output_token_count` (reasoning included) and `reasoning_token_count`, with
 *   `conversation.id` (the session's id in its hooks) and `model`. Codex reports no cost: Warden prices
 *   the tokens.
 * Other events are not usage and are left alone.
 */
export function usageFromLogs(request: LogsRequest, now = Date.now()): UsageReading {
  const collector = new Collector();
  for (const rl of request.resourceLogs ?? []) {
    const resource = attributesOf(rl?.resource?.attributes);
    for (const sl of rl?.scopeLogs ?? []) {
      for (const record of sl?.logRecords ?? []) {
        collector.items++;
        if (!record || typeof record !== 'object') continue;
        // Most of an agent's events are not usage: their name is found without reading the rest.
        const name = eventNameOf(record);
        if (!USAGE_EVENTS.has(name ?? '')) continue;
        const attrs = attributesOf(record.attributes, resource);
        const stamped = Date.parse(text(attrs, 'event.timestamp') ?? '');
        const at = Number.isFinite(stamped) ? stamped : (millisOf(record.timeUnixNano) ?? millisOf(record.observedTimeUnixNano));
        if (name === 'claude_code.api_request' || (name === 'api_request' && ((record.body ? valueText(record.body) : undefined) === 'claude_code.api_request' || isClaudeCode(attrs)))) {
          claudeRequest(collector, attrs, at, now);
        } else if (name === 'codex.sse_event' && text(attrs, 'event.kind') === 'response.completed') {
          codexResponse(collector, attrs, record, at, now);
        }
      }
    }
  }
  return collector.reading();
}

const isClaudeCode = (attrs: Attributes) => /claude[-_]code/.test(text(attrs, 'service.name') ?? '');

function claudeRequest(collector: Collector, attrs: Attributes, at: number | undefined, now: number): void {
  const model = text(attrs, 'model');
  if (!model) {
    collector.reject('claude_code.api_request without model');
    return;
  }
  const micros = number(attrs, 'cost_usd_micros');
  const cost = number(attrs, 'cost_usd') ?? (micros !== undefined ? micros / 1e6 : undefined);
  const sessionId = text(attrs, 'session.id');
  const requestId = text(attrs, 'request_id') ?? text(attrs, 'client_request_id');
  const key = requestId ? `r:${requestId.slice(0, 200)}` : `e:${digest([sessionId, text(attrs, 'prompt.id'), text(attrs, 'event.sequence'), text(attrs, 'event.timestamp'), model])}`;
  const querySource = text(attrs, 'query_source');
  collector.add(
    sessionId,
    'claude-code',
    'telemetry_event',
    {
      key,
      model: model.slice(0, 128),
      tokens: {
        prompt: count(number(attrs, 'input_tokens')),
        completion: count(number(attrs, 'output_tokens')),
        cache_read: count(number(attrs, 'cache_read_tokens')),
        cache_write: count(number(attrs, 'cache_creation_tokens')),
      },
      ...(cost !== undefined && cost >= 0 ? { cost_usd: cost } : {}),
      at: isoOf(at, now),
      ...(querySource ? { query_source: querySource.slice(0, 64) } : {}),
    },
    'session.id',
  );
}

function codexResponse(collector: Collector, attrs: Attributes, record: LogRecord, at: number | undefined, now: number): void {
  const model = text(attrs, 'model') ?? text(attrs, 'slug');
  if (!model) {
    collector.reject('codex.sse_event without model');
    return;
  }
  const input = count(number(attrs, 'input_token_count'));
  const cached = Math.min(input, count(number(attrs, 'cached_token_count')));
  const sessionId = text(attrs, 'conversation.id');
  collector.add(
    sessionId,
    'codex',
    'telemetry_event',
    {
      // Codex names no response id in the event: the event's own coordinates identify it.
      key: `e:${digest([sessionId, text(attrs, 'event.timestamp'), String(record.timeUnixNano ?? ''), model, input, text(attrs, 'output_token_count')])}`,
      model: model.slice(0, 128),
      tokens: { prompt: input - cached, completion: count(number(attrs, 'output_token_count')), cache_read: cached },
      at: isoOf(at, now),
    },
    'conversation.id',
  );
}
