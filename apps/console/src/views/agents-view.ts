import { AUTOMATION_LEVEL_DEFINITIONS } from '@warden/contracts';
import type { AgentSummary } from '../domain/session-board.js';
import { html, type Html } from './html.js';
import { usdText } from './sessions-view.js';

const levelName = (level: number | undefined) => (level === undefined ? 'not on the ladder yet' : `${level} · ${AUTOMATION_LEVEL_DEFINITIONS[level]?.name ?? '?'}`);
const rate = (value: number) => String(Number(value.toFixed(3)));

/** One agent: level, pin, track record; for admins the form that sets or pins the level. */
export function agentRow(a: AgentSummary, canAdminister: boolean): Html {
  const m = a.record?.metrics;
  return html`<tr id="agent-${a.agent_id}" data-agent="${a.agent_id}" data-level="${a.level ?? ''}">
<td>${a.agent_id}</td>
<td class="level">${levelName(a.level)}</td>
<td>${a.record?.pin ? html`pinned by ${a.record.pin.by}${a.record.pin.reason ? html` <span class="muted">(${a.record.pin.reason})</span>` : ''}` : '—'}</td>
<td class="num">${m ? `${m.totalRuns} (${m.successfulRuns} ok)` : '—'}</td>
<td class="num">${m ? m.falsePositives : '—'}</td>
<td class="num">${m ? m.missedCriticalBugs : '—'}</td>
<td class="num">${m ? rate(m.approvalRate) : '—'}</td>
<td class="num">${a.record?.emergencyStops ?? '—'}</td>
<td class="num">${a.active} / ${a.sessions}</td>
<td class="num spend">${a.sessions_with_spend ? usdText(a.spend_usd) : html`<span class="muted">no data</span>`}${a.sessions_with_spend && a.sessions_with_spend < a.sessions ? html` <span class="muted">(${a.sessions - a.sessions_with_spend} without data)</span>` : ''}</td>
${
  canAdminister
    ? html`<td><form class="level-form" data-agent="${a.agent_id}">
<label class="visually-hidden" for="level-${a.agent_id}">Level of ${a.agent_id}</label>
<select name="level" id="level-${a.agent_id}">${AUTOMATION_LEVEL_DEFINITIONS.map((d) => html`<option value="${d.level}"${d.level === a.level ? html` selected` : ''}>${d.level} ${d.name}</option>`)}</select>
<button type="button" data-action="level" data-command="set_level" data-agent="${a.agent_id}">Set</button>
<button type="button" data-action="level" data-command="pin" data-agent="${a.agent_id}">Pin</button>
${a.record?.pin ? html`<button type="button" data-action="level" data-command="unpin" data-agent="${a.agent_id}">Unpin</button>` : ''}
<span class="result" role="status" aria-live="polite"></span>
</form></td>`
    : ''
}
</tr>`;
}

export function agentsBody(agents: AgentSummary[], canAdminister: boolean): Html {
  return html`<h1>Agents <span class="muted">${agents.length}</span></h1>
<p class="muted">The automation ladder grants each agent its level from its track record (levels 0-4). ${
    canAdminister ? 'Set puts the agent at a level and lets the ladder go on from there; Pin holds it there until unpinned.' : 'Admins can set or pin a level.'
  }</p>
<table class="agents" id="agents">
<thead><tr><th>Agent</th><th>Level</th><th>Pin</th><th>Runs</th><th>False positives</th><th>Missed critical</th><th>Approval rate</th><th>Emergency stops</th><th>Sessions (active / all)</th><th>Spend</th>${canAdminister ? html`<th>Change</th>` : ''}</tr></thead>
<tbody id="agent-rows">${agents.map((a) => agentRow(a, canAdminister))}</tbody>
</table>`;
}
