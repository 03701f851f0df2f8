import { summarizeInput, type ConsoleEvent } from './console-event.js';

/**
 * The causal graph of a session's drill-down (FR-11.11): the decisions forwarded to the agent as
 * rectangles, every pause window as one diamond grouping the HITL interventions recorded in it, and the
 * session's start and end as circles, in time order. A diamond's place comes from the timestamps of its
 * intervention records (`occurred_at`), never from the decisions the unpause released: those are
 * published after the interventions, and arrive at the console after them or before, in any order.
 * Verdicts, patterns, interventions, breaker trips and ladder changes are markers on the same timeline.
 */

export interface InterventionRecord {
  intervention_id: string;
  operator_id: string;
  command_type: string;
  occurred_at: string;
  reversed_at: string | null;
  target_trace_id?: string;
  command_id?: string;
}

export type GraphNode =
  | {
      shape: 'rect';
      id: string;
      at: string;
      action_id: string;
      trace_id: string;
      tool: string;
      summary: string;
      decision: 'allow' | 'deny';
      verdict: string;
      decided_by: string;
      operator_id?: string;
      rewritten: boolean;
      reason: string;
    }
  | {
      shape: 'diamond';
      id: string;
      at: string;
      /** Commands issued at this pause point (the unpause that closed it is its end, not counted). */
      count: number;
      interventions: InterventionRecord[];
      window?: { id: string; opened_at: string; closed_at?: string; trigger?: string; reason?: string; paused_by?: string; resolution?: string; closed_by?: string };
      open: boolean;
    }
  | { shape: 'circle'; id: string; at: string; terminal: 'start' | 'end'; label: string };

export interface TimelineMarker {
  id: string;
  at: string;
  kind: 'verdict' | 'pattern' | 'intervention' | 'breaker' | 'ladder' | 'control' | 'gate' | 'incident';
  text: string;
  severity?: string;
}

export interface CausalGraph {
  nodes: GraphNode[];
  /** Consecutive nodes are linked: each step follows from the one before. */
  edges: [from: string, to: string][];
  markers: TimelineMarker[];
}

interface Window {
  id: string;
  opened_at: string;
  opened_by_command?: string;
  closed_at?: string;
  closed_by_command?: string;
  trigger?: string;
  reason?: string;
  paused_by?: string;
  resolution?: string;
  closed_by?: string;
  records: InterventionRecord[];
}

const SHAPE_ORDER: Record<GraphNode['shape'], number> = { circle: 0, diamond: 1, rect: 2 };

export function buildCausalGraph(events: ConsoleEvent[]): CausalGraph {
  const byAction = new Map<string, ConsoleEvent>();
  const records = new Map<string, InterventionRecord>();
  const windows = new Map<string, Window>();
  const decisions: ConsoleEvent[] = [];
  const markers: TimelineMarker[] = [];
  let started: ConsoleEvent | undefined;
  let ended: ConsoleEvent | undefined;

  for (const event of events) {
    const p = event.payload;
    switch (event.type) {
      case 'action.proposed':
      case 'review.verdict':
        if (event.type === 'review.verdict' || !byAction.has(p.action_id)) byAction.set(String(p.action_id), event);
        if (event.type === 'review.verdict' && p.verdict !== 'allow') markers.push(marker(event, 'verdict', `${p.verdict}: ${(p.reasons ?? [])[0] ?? ''}`, p.risk?.severity));
        break;
      case 'decision.made':
        decisions.push(event);
        break;
      case 'hitl.intervention_recorded': {
        // A record is published again when superseded (reversed_at set): keep one per id, the latest.
        const previous = records.get(p.intervention_id);
        if (!previous || (p.reversed_at && !previous.reversed_at)) records.set(p.intervention_id, { ...(p as InterventionRecord) });
        break;
      }
      case 'hitl.paused':
        windows.set(event.trace_id, {
          ...windows.get(event.trace_id),
          id: event.trace_id,
          opened_at: event.at,
          ...(event.causation_id ? { opened_by_command: event.causation_id } : {}),
          trigger: p.trigger,
          reason: p.reason,
          paused_by: p.operator_id,
          records: [],
        });
        break;
      case 'hitl.resumed': {
        const window = windows.get(event.trace_id) ?? { id: event.trace_id, opened_at: event.at, records: [] };
        windows.set(event.trace_id, { ...window, closed_at: event.at, closed_by_command: event.causation_id, resolution: p.resolution, closed_by: p.operator_id });
        break;
      }
      case 'session.started':
        started ??= event;
        break;
      case 'session.ended':
        ended = event;
        break;
      case 'pattern.detected':
        markers.push(marker(event, 'pattern', `${p.pattern_type}: ${p.description}`, p.severity));
        break;
      case 'intervention.issued':
        markers.push(marker(event, 'intervention', `${p.intervention_type} (escalation ${p.escalation_level})`));
        break;
      case 'breaker.tripped':
        markers.push(marker(event, 'breaker', `${p.breaker} breaker tripped: ${p.reason}`, 'high'));
        break;
      case 'breaker.state_changed':
        markers.push(marker(event, 'breaker', `${p.breaker} breaker ${p.from} → ${p.to}: ${p.reason}`));
        break;
      case 'ladder.level_changed':
        markers.push(marker(event, 'ladder', `level ${p.from} → ${p.to} by ${p.changed_by}: ${p.reason}`));
        break;
      case 'control.issued':
        if (p.kind === 'emergency_stop' || p.kind === 'resume') markers.push(marker(event, 'control', `${p.kind}: ${p.message ?? ''}`, p.kind === 'emergency_stop' ? 'critical' : undefined));
        break;
      case 'gate.requested':
        markers.push(marker(event, 'gate', `gate ${p.gate_id} asks: ${p.summary}`));
        break;
      case 'action.ran_against_decision':
        markers.push(marker(event, 'incident', `${p.tool} ran against Warden's decision (${String(p.warden_decision).replace('_', ' ')}): ${p.reason ?? ''}`, p.warden_decision === 'never_proposed' ? 'medium' : 'critical'));
        break;
    }
  }

  const nodes: GraphNode[] = [];
  const rewrites = new Set([...records.values()].filter((r) => r.command_type === 'hitl_rewrite' && r.target_trace_id).map((r) => r.target_trace_id!));
  for (const decision of decisions) {
    const p = decision.payload;
    const action = byAction.get(String(p.action_id));
    const tool = String(action?.payload.tool ?? action?.payload.action?.tool ?? '?');
    const input = (p.updated_input ?? action?.payload.input ?? action?.payload.action?.input) as Record<string, unknown> | undefined;
    nodes.push({
      shape: 'rect',
      id: `decision-${decision.id}`,
      at: decision.at,
      action_id: String(p.action_id),
      trace_id: decision.trace_id,
      tool,
      summary: summarizeInput(tool, input),
      decision: p.decision,
      verdict: p.verdict,
      decided_by: p.decided_by,
      ...(p.operator_id ? { operator_id: p.operator_id } : {}),
      rewritten: rewrites.has(decision.trace_id) && !!p.updated_input,
      reason: String(p.reason ?? ''),
    });
  }
  nodes.push(...diamonds(windows, [...records.values()]));
  const first = events[0];
  if (started ?? first) nodes.push({ shape: 'circle', id: 'start', at: (started ?? first)!.at, terminal: 'start', label: started ? 'session started' : 'first event' });
  if (ended) nodes.push({ shape: 'circle', id: 'end', at: ended.at, terminal: 'end', label: `session ended: ${ended.payload.status}` });

  nodes.sort((a, b) => {
    if (a.shape === 'circle' && a.terminal === 'end') return 1;
    if (b.shape === 'circle' && b.terminal === 'end') return -1;
    if (a.at !== b.at) return a.at < b.at ? -1 : 1;
    // Same instant: the intervention precedes what it released.
    return SHAPE_ORDER[a.shape] - SHAPE_ORDER[b.shape];
  });
  const edges = nodes.slice(1).map((node, i) => [nodes[i]!.id, node.id] as [string, string]);
  markers.sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : 0));
  return { nodes, edges, markers };
}

/**
 * One diamond per pause window with the records issued in it: the pause command that opened it and the
 * unpause that closed it by their command ids, the rest (rewrites, injects) by `occurred_at` inside the
 * window. A record outside every window (an inject while the session ran) is a diamond of its own.
 */
function diamonds(windows: Map<string, Window>, records: InterventionRecord[]): GraphNode[] {
  const list = [...windows.values()].filter((w) => w.opened_at);
  const loose: InterventionRecord[] = [];
  for (const record of records) {
    const window =
      list.find((w) => record.command_id && (record.command_id === w.opened_by_command || record.command_id === w.closed_by_command)) ??
      list.find((w) => record.occurred_at >= w.opened_at && (!w.closed_at || record.occurred_at <= w.closed_at));
    if (window) window.records.push(record);
    else loose.push(record);
  }
  const nodes: GraphNode[] = list.map((w) => {
    const interventions = w.records.sort((a, b) => (a.occurred_at < b.occurred_at ? -1 : 1));
    const closing = (r: InterventionRecord) => r.command_type === 'hitl_unpause' && !!w.closed_by_command && r.command_id === w.closed_by_command;
    return {
      shape: 'diamond' as const,
      id: `window-${w.id}`,
      // Placed by the interventions' own timestamps; an open window without any yet, where it opened.
      at: interventions[0]?.occurred_at ?? w.opened_at,
      count: interventions.filter((r) => !closing(r)).length,
      interventions,
      window: {
        id: w.id,
        opened_at: w.opened_at,
        ...(w.closed_at ? { closed_at: w.closed_at } : {}),
        ...(w.trigger ? { trigger: w.trigger } : {}),
        ...(w.reason ? { reason: w.reason } : {}),
        ...(w.paused_by ? { paused_by: w.paused_by } : {}),
        ...(w.resolution ? { resolution: w.resolution } : {}),
        ...(w.closed_by ? { closed_by: w.closed_by } : {}),
      },
      open: !w.closed_at,
    };
  });
  for (const record of loose) {
    nodes.push({ shape: 'diamond', id: `intervention-${record.intervention_id}`, at: record.occurred_at, count: 1, interventions: [record], open: false });
  }
  return nodes;
}

function marker(event: ConsoleEvent, kind: TimelineMarker['kind'], text: string, severity?: string): TimelineMarker {
  return { id: event.id, at: event.at, kind, text: text.length > 300 ? `${text.slice(0, 299)}…` : text, ...(severity ? { severity } : {}) };
}
