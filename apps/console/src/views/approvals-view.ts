import { createHash } from 'node:crypto';
import type { Approval, Step } from '../domain/session-board.js';
import { html, raw, time, type Html } from './html.js';
import { actionHref } from './action-view.js';
import { sessionHref } from './sessions-view.js';

const pretty = (value: unknown) => JSON.stringify(value ?? {}, null, 2);

function heldAction(a: Approval, step: Step, canDecide: boolean): Html {
  return html`<section class="held" data-trace="${step.trace_id ?? ''}" data-action-id="${step.action_id}">
<h3><span class="tool">${step.tool}</span> <span class="verdict verdict-${step.verdict ?? 'none'}">${step.verdict ?? 'held'}</span>${step.risk ? html` <span class="risk risk-${step.risk}">risk ${step.risk}</span>` : ''}${step.hitl_required ? html` <span class="pill">hitl_required</span>` : ''} <a class="why" href="${actionHref(a.agent_id, a.session_id, step.action_id)}">Why this verdict</a></h3>
<pre class="input" aria-label="Tool input">${pretty(step.input)}</pre>
${step.reasons?.length ? html`<ul class="reasons" aria-label="Warden's reasons">${step.reasons.map((r) => html`<li>${r}</li>`)}</ul>` : ''}
${
  canDecide && step.trace_id
    ? html`<details class="rewrite"><summary>Rewrite</summary>
<label>Tool input to run instead (JSON object)<textarea name="input" rows="6" spellcheck="false" data-trace="${step.trace_id}">${pretty(step.input)}</textarea></label>
<p class="invalid" role="alert"></p>
<button type="button" data-action="rewrite" data-session="${a.session_id}" data-agent="${a.agent_id}" data-trace="${step.trace_id}">Rewrite and approve</button>
</details>`
    : ''
}
</section>`;
}

/** The approval gate of one paused session (FR-11.9, FR-11.10): what it holds, why, and what to do. */
export function approvalCard(a: Approval, canDecide: boolean): Html {
  const body = html`<article class="approval${a.stopped ? ' stopped' : ''}" id="approval-${a.key}" data-key="${a.key}" data-session="${a.session_id}" data-agent="${a.agent_id}">
<header>
  <h2><a href="${sessionHref(a.agent_id, a.session_id)}">${a.session_id}</a> <span class="muted">${a.agent_id}</span> <span class="status status-${a.stopped ? 'stopped' : 'paused'}">${a.stopped ? 'stopped' : 'paused'}</span></h2>
  <p class="why">Paused ${time(a.window.since)} by ${a.window.by}: ${a.window.reason} <span class="muted">(${a.window.trigger})</span></p>
</header>
${a.requests.map(
  (r) => html`<section class="request" data-request="${r.request_id}"><h3>Gate ${r.gate_id}</h3><p>${r.prompt}</p><p class="muted">${r.summary}${r.expires_at ? html` · expires ${time(r.expires_at)}` : ''}${r.escalation ? html` · escalates to ${r.escalation}` : ''}</p></section>`,
)}
${a.held.length ? a.held.map((step) => heldAction(a, step, canDecide)) : html`<p class="muted">Nothing held yet: the session's next actions wait here.</p>`}
${a.recent.length ? html`<details class="recent"><summary>Recent steps (${a.recent.length})</summary><ol>${a.recent.map((s) => html`<li>${time(s.at)} ${s.summary} <span class="decision decision-${s.decision}">${s.decision}</span></li>`)}</ol></details>` : ''}
<footer class="actions">
${
  canDecide
    ? html`<button type="button" class="approve" data-action="approve" data-session="${a.session_id}" data-agent="${a.agent_id}">Approve</button>
<button type="button" class="reject" data-action="reject" data-session="${a.session_id}" data-agent="${a.agent_id}">Reject</button>
${
  a.stopped
    ? html`<button type="button" class="resume" data-action="resume" data-session="${a.session_id}" data-agent="${a.agent_id}">Resume</button>`
    : html`<button type="button" class="stop" data-action="stop" data-session="${a.session_id}" data-agent="${a.agent_id}">Emergency stop</button>`
}`
    : html`<p class="muted">Your role can watch this session, not decide on it (approvers can).</p>`
}
<p class="result" role="status" aria-live="polite"></p>
</footer>
</article>`;
  return versioned(body);
}

/** The card with a hash of its content, so that the page replaces only cards that changed. */
function versioned(card: Html): Html {
  const version = createHash('sha1').update(card.text).digest('hex').slice(0, 12);
  return raw(card.text.replace('<article ', `<article data-version="${version}" `));
}

export function approvalsBody(approvals: Approval[], canDecide: boolean): Html {
  return html`<h1>Approvals <span class="muted"><span id="approvals-waiting">${approvals.length}</span> waiting, oldest first</span></h1>
<div id="approvals" class="approvals">
${approvals.map((a) => approvalCard(a, canDecide))}
</div>
<p class="empty" id="approvals-empty"${approvals.length ? html` hidden` : ''}>Nothing waits for an operator.</p>`;
}
