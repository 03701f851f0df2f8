import type { SessionSummary, Spend } from '../domain/session-board.js';
import type { ServiceIncidents } from '../domain/suite-incidents.js';
import { html, time, type Html } from './html.js';

export const SESSION_STATUSES = ['running', 'paused', 'stopped', 'ended'] as const;

export function sessionHref(agentId: string, sessionId: string): string {
  return `/sessions/${encodeURIComponent(sessionId)}?agent=${encodeURIComponent(agentId)}`;
}

export function levelText(level: number | undefined): string {
  return level === undefined ? '—' : String(level);
}

export function usdText(usd: number): string {
  return `$${usd < 1 ? usd.toFixed(4) : usd.toFixed(2)}`;
}

const SOURCE_NAMES: Record<string, string> = { outcome: 'the agent\'s outcomes (SDK)', telemetry_event: 'telemetry events', telemetry_metric: 'telemetry metrics', transcript: 'the transcript' };
export const sourcesText = (spend: Spend) => spend.sources.map((s) => SOURCE_NAMES[s] ?? s).join(', ');

/** A session's spend in a cell: the amount, or that there is no spend data at all. */
export function spendCell(spend: Spend | undefined): Html {
  if (!spend) return html`<span class="muted no-spend" title="No cost recorded for this session: no telemetry from the agent and no usage read from its transcript">no data</span>`;
  return html`<span class="spend" title="${spend.records} cost record${spend.records === 1 ? '' : 's'} from ${sourcesText(spend)}">${usdText(spend.usd)}</span>`;
}

export interface SessionFilter {
  status?: string;
  q?: string;
}

function searchText(s: SessionSummary): string {
  return [s.session_id, s.agent_id, s.goal ?? '', s.last_action?.summary ?? '', s.patterns.join(' '), s.breakers.join(' ')].join(' ').toLowerCase();
}

/** The filter of the sessions page (the page's script applies the same rule as it changes). */
export function matchesFilter(s: SessionSummary, filter: SessionFilter): boolean {
  if (filter.status && s.status !== filter.status) return false;
  const words = (filter.q ?? '').toLowerCase().split(/\s+/).filter(Boolean);
  const text = searchText(s);
  return words.every((word) => text.includes(word));
}

/**
 * One row of the sessions list; also what the live stream sends when the session changes. Rows are
 * grid rows rather than table rows so that the browser can skip laying out the ones off screen
 * (content-visibility), which keeps the first render of a thousand sessions fast.
 */
export function sessionRow(s: SessionSummary, filter: SessionFilter = {}): Html {
  const last = s.last_action;
  return html`<div role="row" class="row" id="row-${s.key}" data-key="${s.key}" data-status="${s.status}" data-search="${searchText(s)}"${matchesFilter(s, filter) ? '' : html` hidden`}>
<span role="cell"><a href="${sessionHref(s.agent_id, s.session_id)}">${s.session_id}</a></span>
<span role="cell">${s.agent_id}</span>
<span role="cell"><span class="status status-${s.status}">${s.status}</span>${s.incidents.length ? html` <span class="pill incident" title="${s.incidents.length} action${s.incidents.length === 1 ? '' : 's'} ran against Warden's decision">incident</span>` : ''}</span>
<span role="cell" class="last">${last ? html`${last.summary}${last.ran ? html` <span class="ran">→ ran ${last.ran.slice(last.tool.length + 2)}</span>` : ''}${last.decision ? html` <span class="decision decision-${last.decision}">${last.decision}</span>` : last.verdict ? html` <span class="decision decision-held">held</span>` : ''}` : '—'}</span>
<span role="cell">${s.breakers.length ? s.breakers.map((b) => html`<span class="pill breaker">${b}</span>`) : '—'}</span>
<span role="cell">${s.patterns.length ? s.patterns.map((p) => html`<span class="pill pattern">${p}</span>`) : '—'}</span>
<span role="cell" class="num">${spendCell(s.spend)}</span>
<span role="cell" class="num">${levelText(s.level)}</span>
<span role="cell">${time(s.last_at)}</span>
</div>`;
}

/** What `warden up` did to keep the suite running (services that died and were started again), per service. */
export function incidentsPanel(services: readonly ServiceIncidents[]): Html {
  if (!services.length) return html``;
  return html`<section class="incidents" id="suite-incidents" role="status" aria-label="Service restarts">
<h2>Service restarts in the last day</h2>
<p class="muted">A Warden service stopped and <code>warden up</code> started it again. The full record is in <code>logs/supervisor.log</code> of its state directory.</p>
<ul>${services.map((s) => html`<li data-service="${s.service}"><strong>${s.service}</strong>: died ${s.deaths} time${s.deaths === 1 ? '' : 's'}; latest ${time(s.last.time)} ${s.last.msg}</li>`)}</ul>
</section>`;
}

export function sessionsBody(sessions: SessionSummary[], filter: SessionFilter, incidents: readonly ServiceIncidents[] = []): Html {
  const counts = Object.fromEntries(SESSION_STATUSES.map((status) => [status, sessions.filter((s) => s.status === status).length]));
  return html`${incidentsPanel(incidents)}<h1>Sessions <span class="muted" id="session-total">${sessions.length}</span></h1>
<form class="filters" role="search" id="session-filters">
  <label>Status <select name="status" id="status-filter">
    <option value="">all</option>
    ${SESSION_STATUSES.map((status) => html`<option value="${status}"${filter.status === status ? html` selected` : ''}>${status} (${counts[status]})</option>`)}
  </select></label>
  <label>Search <input type="search" name="q" id="session-search" value="${filter.q ?? ''}" placeholder="session, agent, action, pattern" autocomplete="off"></label>
  <span class="muted" id="shown-count" aria-live="polite"></span>
</form>
<div class="sessions" id="sessions" role="table" aria-label="Sessions">
<div role="rowgroup"><div role="row" class="row head"><span role="columnheader">Session</span><span role="columnheader">Agent</span><span role="columnheader">Status</span><span role="columnheader">Last action</span><span role="columnheader">Open breakers</span><span role="columnheader">Patterns</span><span role="columnheader">Spend</span><span role="columnheader">Level</span><span role="columnheader">Last activity</span></div></div>
<div role="rowgroup" id="session-rows">
${sessions.map((s) => sessionRow(s, filter))}
</div>
</div>
${sessions.length ? '' : html`<p class="empty">No session yet: agents appear here as soon as they propose their first action.</p>`}`;
}
