import type { CausalGraph, GraphNode } from '../domain/causal-graph.js';
import type { Approval, GateAnswer, SessionSummary } from '../domain/session-board.js';
import { approvalCard } from './approvals-view.js';
import { actionHref } from './action-view.js';
import { html, time, type Html } from './html.js';
import { levelText, sourcesText, usdText } from './sessions-view.js';

const DECISION_TEXT: Record<string, string> = { denied: 'Warden denied it', stopped: 'the session was stopped', held: 'Warden had not decided it', never_proposed: 'Warden never saw it proposed' };

function spendFact(s: SessionSummary): Html {
  if (!s.spend) return html`<span class="no-spend" id="session-spend">No spend data at all: no cost has been recorded for this session (no telemetry from the agent, no usage read from its transcript, no tokens in its outcomes).</span>`;
  const sp = s.spend;
  return html`<span id="session-spend" data-usd="${sp.usd}">${usdText(sp.usd)}</span> <span class="muted">(${sp.prompt_tokens.toLocaleString('en')} input and ${sp.completion_tokens.toLocaleString('en')} output tokens, ${sp.models.join(', ')}; from ${sourcesText(sp)}; last ${time(sp.last_at)})</span>`;
}

/** Actions that ran although Warden denied, held or never saw them. */
function incidents(s: SessionSummary): Html {
  if (!s.incidents.length) return html``;
  return html`<section class="incidents" id="session-incidents" aria-label="Actions that ran against Warden's decision">
<h2>Ran against Warden's decision</h2>
<ul>${s.incidents.map(
    (i) =>
      html`<li class="incident decision-${i.warden_decision}" data-action-id="${i.action_id}" data-decision="${i.warden_decision}">${time(i.at)} <code>${i.summary}</code> ran (${i.status}) although ${DECISION_TEXT[i.warden_decision] ?? i.warden_decision}${i.subagent ? html` <span class="pill">subagent ${i.subagent}</span>` : ''}${i.reason ? html`<span class="reason">${i.reason}</span>` : ''}</li>`,
  )}</ul>
</section>`;
}

const seconds = (ms: number) => (ms < 10_000 ? `${(ms / 1000).toFixed(1)} s` : ms < 120_000 ? `${Math.round(ms / 1000)} s` : `${Math.round(ms / 60_000)} min`);

/** A request nobody answered: denied by its final deadline, with the channels that were asked. */
function unanswered(a: GateAnswer): Html {
  return html`denied: no answer within ${seconds(a.response_ms)}${a.asked ? html` <span class="asked">(asked: ${a.asked.length ? a.asked.join(', ') : "the operators' queue only"})</span>` : ''}`;
}

/** The session's answered gate requests: who answered, through which channel, with which digest, after how long. */
function answers(s: SessionSummary): Html {
  if (!s.answers.length) return html``;
  return html`<section class="answers" id="session-answers" aria-label="Gate requests answered">
<h2>Approvals answered</h2>
<ul>${s.answers.map(
    (a) =>
      html`<li class="answer outcome-${a.outcome}" data-request="${a.request_id}">${time(a.at)} gate <strong>${a.gate_id}</strong>: ${
        a.outcome === 'timed_out'
          ? unanswered(a)
          : html`${a.outcome.replaceAll('_', ' ')} by ${a.approver}${a.channel ? html` via <span class="channel">${a.channel}</span>` : ''} after ${seconds(a.response_ms)}${a.digest ? html` · digest <code title="${a.digest}">${a.digest.slice(0, 16)}</code>` : ''}`
      }</li>`,
  )}</ul>
</section>`;
}

/** The parts of a drill-down the live stream replaces, by element id. */
export interface SessionFragments {
  'session-header': Html;
  'session-gate': Html;
  'session-graph': Html;
}

function header(s: SessionSummary, canDecide: boolean): Html {
  return html`<section id="session-header" class="session-header" data-status="${s.status}">
<h1>${s.session_id} <span class="muted">${s.agent_id}</span> <span class="status status-${s.status}" id="session-status">${s.status}</span></h1>
${s.goal ? html`<p class="goal">${s.goal}</p>` : ''}
<dl class="facts">
  <dt>Started</dt><dd>${time(s.started_at)}</dd>
  <dt>Last activity</dt><dd>${time(s.last_at)}</dd>
  <dt>Actions</dt><dd>${s.actions} (${s.denied} denied)</dd>
  <dt>Open breakers</dt><dd>${s.breakers.length ? s.breakers.join(', ') : 'none'}</dd>
  <dt>Patterns</dt><dd>${s.patterns.length ? s.patterns.join(', ') : 'none'}</dd>
  <dt>Level of the agent</dt><dd>${levelText(s.level)}</dd>
  <dt>Spend</dt><dd class="spend-fact">${spendFact(s)}</dd>
</dl>
${incidents(s)}
${answers(s)}
${
  canDecide && s.status !== 'ended'
    ? html`<p class="actions">${
        s.status === 'stopped'
          ? html`<button type="button" class="resume" data-action="resume" data-session="${s.session_id}" data-agent="${s.agent_id}">Resume</button>`
          : html`<button type="button" class="stop" data-action="stop" data-session="${s.session_id}" data-agent="${s.agent_id}">Emergency stop</button>`
      }${
        s.breakers.some((b) => b.startsWith('cost'))
          ? html`<button type="button" class="reset" data-action="reset-breaker" data-breaker="cost" data-session="${s.session_id}" data-agent="${s.agent_id}">Reset cost breaker</button>`
          : ''
      }<span class="result" role="status" aria-live="polite"></span></p>`
    : ''
}
</section>`;
}

function node(n: GraphNode, s: SessionSummary): Html {
  const at = html` data-at="${n.at}"`;
  switch (n.shape) {
    case 'rect':
      return html`<li class="node rect decision-${n.decision}${n.rewritten ? ' rewritten' : ''}" data-shape="rect" data-trace="${n.trace_id}" data-action-id="${n.action_id}"${at} tabindex="0">
<span class="label">${n.summary}</span><span class="outcome">${n.decision}${n.rewritten ? ' · rewritten' : ''}</span><a class="why" href="${actionHref(s.agent_id, s.session_id, n.action_id)}">why?</a>
<span class="tip" role="tooltip">${n.summary} — ${n.decision} (verdict ${n.verdict}, decided by ${n.decided_by}${n.operator_id ? ` ${n.operator_id}` : ''}) at ${n.at}. ${n.reason}</span></li>`;
    case 'diamond':
      return html`<li class="node diamond${n.open ? ' open' : ''}" data-shape="diamond" data-count="${n.count}"${at}${n.window ? html` data-window="${n.window.id}"` : ''} tabindex="0">
<span class="shape" aria-hidden="true"></span><span class="badge" aria-label="${n.count} command${n.count === 1 ? '' : 's'}">${n.count}</span>
<span class="tip" role="tooltip">${n.window ? html`<span class="window">Paused ${n.window.opened_at}${n.window.paused_by ? ` by ${n.window.paused_by}` : ''}${n.window.reason ? `: ${n.window.reason}` : ''}${n.window.closed_at ? `; ${n.window.resolution ?? 'resumed'} by ${n.window.closed_by ?? '?'} at ${n.window.closed_at}` : '; still paused'}</span>` : ''}${n.interventions.map(
        (r) =>
          html`<span class="intervention" data-operator="${r.operator_id}" data-command="${r.command_type}" data-occurred="${r.occurred_at}">operator_id: ${r.operator_id} · command_type: ${r.command_type} · ${r.occurred_at}${r.reversed_at ? ` (reversed ${r.reversed_at})` : ''}</span>`,
      )}</span></li>`;
    case 'circle':
      return html`<li class="node circle ${n.terminal}" data-shape="circle" data-terminal="${n.terminal}"${at} tabindex="0"><span class="shape" aria-hidden="true"></span><span class="tip" role="tooltip">${n.label} at ${n.at}</span></li>`;
  }
}

/** The causal graph (FR-11.11) and, on the same time line, what Warden saw and did. */
function graphSection(graph: CausalGraph, s: SessionSummary): Html {
  const markerItem = (m: CausalGraph['markers'][number]) =>
    html`<li class="marker kind-${m.kind}${m.severity ? ` severity-${m.severity}` : ''}" data-kind="${m.kind}" data-at="${m.at}" title="${m.text}">${m.kind}</li>`;
  // Markers go where their time puts them among the nodes; the nodes keep the graph's order.
  const ordered: Html[] = [];
  let next = 0;
  const markersBefore = (limit: string | null) => {
    while (next < graph.markers.length && (limit === null || graph.markers[next]!.at < limit)) ordered.push(markerItem(graph.markers[next++]!));
  };
  for (const n of graph.nodes) {
    if (n.shape === 'circle' && n.terminal === 'end') markersBefore(null);
    else if (!(n.shape === 'circle' && n.terminal === 'start')) markersBefore(n.at);
    ordered.push(node(n, s));
  }
  markersBefore(null);
  return html`<section id="session-graph" class="graph-section">
<h2>Causal graph</h2>
<p class="legend muted"><span class="key rect"></span> decision <span class="key diamond"></span> pause window (badge: commands issued) <span class="key circle"></span> start / end · markers: verdicts, patterns, interventions, breakers, ladder</p>
<ol class="graph" aria-label="Causal graph">${ordered}</ol>
<h2>Timeline</h2>
<ol class="timeline">${graph.markers.length ? graph.markers.map((m) => html`<li class="event kind-${m.kind}" data-kind="${m.kind}">${time(m.at)} <span class="pill">${m.kind}</span> ${m.text}</li>`) : html`<li class="muted">No verdict, pattern, intervention, breaker trip or level change yet.</li>`}</ol>
</section>`;
}

export function sessionFragments(s: SessionSummary, graph: CausalGraph, approval: Approval | undefined, canDecide: boolean): SessionFragments {
  return {
    'session-header': header(s, canDecide),
    'session-gate': html`<section id="session-gate" class="gate"${approval ? '' : html` hidden`}>${approval ? html`<h2>Approval gate</h2>${approvalCard(approval, canDecide)}` : ''}</section>`,
    'session-graph': graphSection(graph, s),
  };
}

export function sessionBody(fragments: SessionFragments): Html {
  return html`<p><a href="/">← Sessions</a></p>${fragments['session-header']}${fragments['session-gate']}${fragments['session-graph']}`;
}
