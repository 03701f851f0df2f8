import { hash } from 'node:crypto';
import type { PayloadOf, UsageSource } from '@warden/contracts';
import { textOf, type AttributeValue, type Attributes, type LogRecordRead, type LogsExport, type MetricsExport, type ReadScope } from './otlp-export.js';
import { decodeExportRequest, type Encoding, type Signal } from './otlp-request.js';
import { isoOf, millisOf, parseTime } from './usage-times.js';

export type UsageEntry = PayloadOf<'usage.reported'>['entries'][number];

/** The model usage of one session in one export. */
export interface SessionUsage {
  sessionId: string;
  /** The agent product whose telemetry it is: claude-code, codex. */
  agentKind: string;
  source: UsageSource;
  entries: UsageEntry[];
}

export type ToolRun = PayloadOf<'session.tools_observed'>['tool_runs'][number];

/** The tool runs of one session in one export, as the agent's telemetry reports them. */
export interface SessionToolRuns {
  sessionId: string;
  agentKind: string;
  runs: ToolRun[];
}

/** What an export held for Warden: usage and tool runs per session, and the usage points it could not take, with why. */
export interface UsageReading {
  sessions: SessionUsage[];
  toolRuns: SessionToolRuns[];
  /** Data points or log records in the export. */
  items: number;
  /** Those that were model usage Warden took. */
  used: number;
  rejected: { count: number; reasons: string[] };
}

/** A record's or point's attributes, then its resource's: the first that has the key answers. */
interface Lookup {
  attributes: Attributes;
  resource: Attributes;
}

function valueOf(attrs: Lookup, key: string): AttributeValue | undefined {
  const own = attrs.attributes.get(key);
  return own !== undefined ? own : attrs.resource.get(key);
}

const text = (attrs: Lookup, key: string): string | undefined => textOf(valueOf(attrs, key));

/** A number attribute, whichever way the agent typed it (Codex sends its counts as strings). */
function number(attrs: Lookup, key: string): number | undefined {
  const v = valueOf(attrs, key);
  if (typeof v === 'number') return Number.isFinite(v) ? v : undefined;
  if (typeof v !== 'string' || v === '') return undefined;
  const n = Number(v);
  return Number.isFinite(n) ? n : undefined;
}

const count = (n: number | undefined) => (n !== undefined && n > 0 ? Math.round(n) : 0);

const digest = (parts: readonly unknown[]) => hash('sha256', JSON.stringify(parts), 'base64url').slice(0, 32);

/** A session id Warden can use as a subject token; undefined otherwise (the usage is then rejected with why). */
function sessionToken(id: string | undefined): string | undefined {
  return id && /^[A-Za-z0-9_-]{1,128}$/.test(id) ? id : undefined;
}

class Collector {
  private readonly bySession = new Map<string, SessionUsage>();
  private readonly runsBySession = new Map<string, SessionToolRuns>();
  private last: SessionUsage | undefined;
  readonly rejected = { count: 0, reasons: new Set<string>() };
  items = 0;
  used = 0;

  add(sessionId: string | undefined, agentKind: string, source: UsageSource, entry: UsageEntry, idAttribute: string): void {
    if (sessionId === undefined) {
      this.reject(`model usage without ${idAttribute}: it cannot be charged to a session`);
      return;
    }
    // An agent's export is mostly one session's: the last one is found without making its key.
    const last = this.last;
    let usage = last && last.sessionId === sessionId && last.agentKind === agentKind && last.source === source ? last : undefined;
    const key = usage ? '' : `${agentKind}\u0000${sessionId}\u0000${source}`;
    usage ??= this.bySession.get(key);
    if (!usage) {
      const session = sessionToken(sessionId);
      if (!session) {
        this.reject(sessionId ? `${idAttribute} "${sessionId.slice(0, 64)}" is not a session id Warden can use (letters, digits, _ and -, at most 128)` : `model usage without ${idAttribute}: it cannot be charged to a session`);
        return;
      }
      usage = { sessionId: session, agentKind, source, entries: [] };
      this.bySession.set(key, usage);
    }
    usage.entries.push(entry);
    this.last = usage;
    this.used++;
  }

  /** A tool run; one without a usable session id says nothing about a session and is left out. */
  addRun(sessionId: string | undefined, agentKind: string, run: ToolRun): void {
    const session = sessionToken(sessionId);
    if (!session) return;
    const key = `${agentKind}\u0000${session}`;
    let runs = this.runsBySession.get(key);
    if (!runs) {
      runs = { sessionId: session, agentKind, runs: [] };
      this.runsBySession.set(key, runs);
    }
    runs.runs.push(run);
  }

  reject(reason: string): void {
    this.rejected.count++;
    this.rejected.reasons.add(reason);
  }

  reading(): UsageReading {
    return {
      sessions: [...this.bySession.values()],
      toolRuns: [...this.runsBySession.values()],
      items: this.items,
      used: this.used,
      rejected: { count: this.rejected.count, reasons: [...this.rejected.reasons] },
    };
  }
}

/** Claude Code's token types (`claude_code.token.usage` attribute `type`) as Warden's token fields. */
const CLAUDE_TOKEN_TYPES = new Map<string, keyof UsageEntry['tokens']>([
  ['input', 'prompt'],
  ['output', 'completion'],
  ['cacheRead', 'cache_read'],
  ['cacheCreation', 'cache_write'],
]);
/** Attributes that only describe a point (the session, the token type, the agent's own ids): what remains tells series apart. */
const NOT_SERIES = new Set(['session.id', 'type', 'user.id', 'user.email', 'user.account_uuid', 'user.account_id', 'organization.id', 'terminal.type', 'app.version', 'app.entrypoint']);

/** The metrics that are model usage. */
const USAGE_METRICS = new Set(['claude_code.cost.usage', 'claude_code.token.usage']);

/**
 * What this file reads of an export: of log records (and their resources) the attributes below, every
 * one that the functions here look up; of metrics, the points of the usage metrics. The rest of an
 * export is skipped unread (a test holds that reading all of it gives the same usage).
 */
export const USAGE_SCOPE: ReadScope = {
  logAttributes: new Set([
    'event.name',
    'event.timestamp',
    'event.sequence',
    'event.kind',
    'service.name',
    'session.id',
    'conversation.id',
    'prompt.id',
    'request_id',
    'client_request_id',
    'model',
    'slug',
    'query_source',
    'cost_usd',
    'cost_usd_micros',
    'input_tokens',
    'output_tokens',
    'cache_read_tokens',
    'cache_creation_tokens',
    'tool_name',
    'input_token_count',
    'cached_token_count',
    'output_token_count',
  ]),
  metrics: USAGE_METRICS,
};

/** The model usage in an export request body (decompressed); throws OtlpInputError when it is not one. */
export function readUsage(signal: Signal, encoding: Encoding, body: Uint8Array, now = Date.now()): UsageReading {
  return signal === 'metrics' ? usageFromMetrics(decodeExportRequest('metrics', encoding, body, USAGE_SCOPE), now) : usageFromLogs(decodeExportRequest('logs', encoding, body, USAGE_SCOPE), now);
}

/**
 * Model usage in a metrics export, per session. Claude Code
 * (https://code.claude.com/docs/en/monitoring-usage): `claude_code.cost.usage` (USD) and
 * `claude_code.token.usage` (tokens, by `type`: input, output, cacheRead, cacheCreation), sums with the
 * session in `session.id` and the model in `model`, by default with delta temporality. The points of one
 * session, model, attribution and collection make one entry: its tokens and the cost Claude Code reported.
 * A cumulative point is not read (each would count the session's whole usage again): Warden's install
 * asks for delta. Other metrics are not usage and are left alone.
 */
export function usageFromMetrics(request: MetricsExport, now = Date.now()): UsageReading {
  const collector = new Collector();
  interface Group { sessionId?: string; entry: UsageEntry }
  const groups = new Map<string, Group>();
  for (const metric of request.metrics) {
    collector.items += metric.kind === 'sum' || metric.kind === 'gauge' ? metric.pointCount : 0;
    if (!USAGE_METRICS.has(metric.name)) continue;
    if (metric.kind !== 'sum') {
      for (let i = 0; i < (metric.kind === 'gauge' ? metric.pointCount : 0); i++) collector.reject(`${metric.name} must be a sum`);
      continue;
    }
    if (metric.temporality === 2) {
      for (let i = 0; i < metric.pointCount; i++) collector.reject(`${metric.name} is cumulative: Warden reads delta temporality (OTEL_EXPORTER_OTLP_METRICS_TEMPORALITY_PREFERENCE=delta, Claude Code's default)`);
      continue;
    }
    for (const point of metric.points ?? []) {
      const value = point.value;
      if (!Number.isFinite(value) || value < 0) {
        collector.reject(`${metric.name}: a point's value is not a non-negative number`);
        continue;
      }
      // One collection ends every instrument's interval at the same moment; their starts may differ (an
      // instrument's first interval starts when it was first used).
      const end = point.timeUnixNano || point.startTimeUnixNano || '';
      const sessionId = text(point, 'session.id');
      const series = seriesOf(point);
      const groupKey = `${sessionId}\u0000${series.join('\u0001')}\u0000${end}`;
      let group = groups.get(groupKey);
      if (!group) {
        const model = text(point, 'model') ?? 'unknown';
        group = {
          ...(sessionId !== undefined ? { sessionId } : {}),
          entry: { key: `m:${digest([sessionId, series, end])}`, model, tokens: { prompt: 0, completion: 0 }, at: isoOf(millisOf(point.timeUnixNano), now) },
        };
        const querySource = text(point, 'query_source');
        if (querySource) group.entry.query_source = querySource.slice(0, 64);
        groups.set(groupKey, group);
      }
      if (metric.name === 'claude_code.cost.usage') group.entry.cost_usd = (group.entry.cost_usd ?? 0) + value;
      else {
        const type = text(point, 'type') ?? '';
        const field = CLAUDE_TOKEN_TYPES.get(type);
        if (!field) {
          collector.reject(`claude_code.token.usage: unknown token type "${type.slice(0, 32)}"`);
          continue;
        }
        group.entry.tokens[field] = (group.entry.tokens[field] ?? 0) + count(value);
      }
    }
  }
  for (const group of groups.values()) collector.add(group.sessionId, 'claude-code', 'telemetry_metric', group.entry, 'session.id');
  return collector.reading();
}

/** What tells a point's series apart: its attributes and its resource's but those that only describe it, as sorted `key=text`. */
function seriesOf(point: Lookup): string[] {
  const series: string[] = [];
  point.resource.texts(NOT_SERIES, point.attributes, series);
  point.attributes.texts(NOT_SERIES, undefined, series);
  // Sorted as Array.prototype.sort sorts strings (by UTF-16 code units); a handful, so by insertion.
  for (let i = 1; i < series.length; i++) {
    const item = series[i]!;
    let j = i - 1;
    for (; j >= 0 && series[j]! > item; j--) series[j + 1] = series[j]!;
    series[j + 1] = item;
  }
  return series;
}

/** A log record's event name: `event.name` (Claude Code, Codex), the record's own event name, or its body. */
function eventNameOf(record: LogRecordRead): string | undefined {
  const named = record.attributes.get('event.name');
  if (named !== undefined) return textOf(named);
  return record.eventName || textOf(record.body);
}

/**
 * The events read: those that carry model usage (Claude Code's api_request, named in full or not, Codex's
 * sse_event) and Claude Code's tool runs (tool_result).
 */
const USAGE_EVENTS = new Set(['claude_code.api_request', 'api_request', 'codex.sse_event', 'claude_code.tool_result', 'tool_result']);

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
 * And the tool runs of Claude Code: `claude_code.tool_result`, one per tool invocation that completed (its
 * `event.name` attribute is `tool_result`), with `tool_name` and the standard attributes: what the hooks
 * are held against (a tool that ran without a PreToolUse call). Codex's `codex.tool_result` is not read:
 * its hooks do not see every tool, so its runs say nothing of a hook gone silent.
 * Other events are left alone.
 */
export function usageFromLogs(request: LogsExport, now = Date.now()): UsageReading {
  const collector = new Collector();
  for (const record of request.records) {
    collector.items++;
    // Most of an agent's events are not usage: their name is found without reading the rest.
    const name = eventNameOf(record);
    if (name === undefined || !USAGE_EVENTS.has(name)) continue;
    const stamped = parseTime(text(record, 'event.timestamp'));
    const at = Number.isFinite(stamped) ? stamped : (millisOf(record.timeUnixNano) ?? millisOf(record.observedTimeUnixNano));
    if (name === 'claude_code.api_request' || (name === 'api_request' && (textOf(record.body) === 'claude_code.api_request' || isClaudeCode(record)))) {
      claudeRequest(collector, record, at, now);
    } else if (name === 'codex.sse_event' && text(record, 'event.kind') === 'response.completed') {
      codexResponse(collector, record, at, now);
    } else if (name === 'claude_code.tool_result' || (name === 'tool_result' && (textOf(record.body) === 'claude_code.tool_result' || isClaudeCode(record)))) {
      claudeToolRun(collector, record, at, now);
    }
  }
  return collector.reading();
}

const isClaudeCode = (attrs: Lookup) => /claude[-_]code/.test(text(attrs, 'service.name') ?? '');

function claudeRequest(collector: Collector, attrs: Lookup, at: number | undefined, now: number): void {
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
  const entry: UsageEntry = {
    key,
    model: model.slice(0, 128),
    tokens: {
      prompt: count(number(attrs, 'input_tokens')),
      completion: count(number(attrs, 'output_tokens')),
      cache_read: count(number(attrs, 'cache_read_tokens')),
      cache_write: count(number(attrs, 'cache_creation_tokens')),
    },
    at: isoOf(at, now),
  };
  if (cost !== undefined && cost >= 0) entry.cost_usd = cost;
  const querySource = text(attrs, 'query_source');
  if (querySource) entry.query_source = querySource.slice(0, 64);
  collector.add(sessionId, 'claude-code', 'telemetry_event', entry, 'session.id');
}

function claudeToolRun(collector: Collector, attrs: Lookup, at: number | undefined, now: number): void {
  const sessionId = text(attrs, 'session.id');
  const tool = (text(attrs, 'tool_name') ?? 'unknown').slice(0, 256) || 'unknown';
  collector.addRun(sessionId, 'claude-code', {
    // Claude Code names no tool call id in the event: its session, prompt, sequence and time identify it.
    key: `t:${digest([sessionId, text(attrs, 'prompt.id'), text(attrs, 'event.sequence'), text(attrs, 'event.timestamp'), tool])}`,
    tool,
    at: isoOf(at, now),
  });
}

function codexResponse(collector: Collector, record: LogRecordRead, at: number | undefined, now: number): void {
  const model = text(record, 'model') ?? text(record, 'slug');
  if (!model) {
    collector.reject('codex.sse_event without model');
    return;
  }
  const input = count(number(record, 'input_token_count'));
  const cached = Math.min(input, count(number(record, 'cached_token_count')));
  const sessionId = text(record, 'conversation.id');
  collector.add(
    sessionId,
    'codex',
    'telemetry_event',
    {
      // Codex names no response id in the event: the event's own coordinates identify it.
      key: `e:${digest([sessionId, text(record, 'event.timestamp'), record.timeUnixNano ?? '', model, input, text(record, 'output_token_count')])}`,
      model: model.slice(0, 128),
      tokens: { prompt: input - cached, completion: count(number(record, 'output_token_count')), cache_read: cached },
      at: isoOf(at, now),
    },
    'conversation.id',
  );
}
