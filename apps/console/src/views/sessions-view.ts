import type { SessionSummary } from '../domain/session-board.js';
import { html, time, type Html } from './html.js';

export const SESSION_STATUSES = ['running', 'paused', 'stopped', 'ended'] as const;

export function sessionHref(agentId: string, sessionId: string): string {
  return `/sessions/${encodeURIComponent(sessionId)}?agent=${encodeURIComponent(agentId)}`;
}

export function levelText(level: number | undefined): string {
  return level === undefined ? '—' : String(level);
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

/** One row of the sessions list; also what the live stream sends when the session changes. */
export function sessionRow(s: SessionSummary, filter: SessionFilter = {}): Html {
  const last = s.last_action;
  return html`<tr id="row-${s.key}" data-key="${s.key}" data-status="${s.status}" data-search="${searchText(s)}" data-last="${s.last_at}"${matchesFilter(s, filter) ? '' : html` hidden`}>
<td><a href="${sessionHref(s.agent_id, s.session_id)}">${s.session_id}</a></td>
<td>${s.agent_id}</td>
<td><span class="status status-${s.status}">${s.status}</span></td>
<td class="last">${last ? html`${last.summary}${last.decision ? html` <span class="decision decision-${last.decision}">${last.decision}</span>` : last.verdict ? html` <span class="decision decision-held">held</span>` : ''}` : '—'}</td>
<td>${s.breakers.length ? s.breakers.map((b) => html`<span class="pill breaker">${b}</span>`) : '—'}</td>
<td>${s.patterns.length ? s.patterns.map((p) => html`<span class="pill pattern">${p}</span>`) : '—'}</td>
<td class="num">${levelText(s.level)}</td>
<td>${time(s.last_at)}</td>
</tr>`;
}

export function sessionsBody(sessions: SessionSummary[], filter: SessionFilter): Html {
  const counts = Object.fromEntries(SESSION_STATUSES.map((status) => [status, sessions.filter((s) => s.status === status).length]));
  return html`<h1>Sessions <span class="muted" id="session-total">${sessions.length}</span></h1>
<form class="filters" role="search" id="session-filters">
  <label>Status <select name="status" id="status-filter">
    <option value="">all</option>
    ${SESSION_STATUSES.map((status) => html`<option value="${status}"${filter.status === status ? html` selected` : ''}>${status} (${counts[status]})</option>`)}
  </select></label>
  <label>Search <input type="search" name="q" id="session-search" value="${filter.q ?? ''}" placeholder="session, agent, action, pattern" autocomplete="off"></label>
  <span class="muted" id="shown-count" aria-live="polite"></span>
</form>
<table class="sessions" id="sessions">
<thead><tr><th>Session</th><th>Agent</th><th>Status</th><th>Last action</th><th>Open breakers</th><th>Patterns</th><th>Level</th><th>Last activity</th></tr></thead>
<tbody id="session-rows">
${sessions.map((s) => sessionRow(s, filter))}
</tbody>
</table>
${sessions.length ? '' : html`<p class="empty">No session yet: agents appear here as soon as they propose their first action.</p>`}`;
}
