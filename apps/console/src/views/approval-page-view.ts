import { html, time, type Html } from './html.js';
import { sessionHref } from './sessions-view.js';

/** A human gate's request as the gate's API gives it (GET /gateway/requests/<id>): what this page shows. */
export interface GateRequestView {
  request_id: string;
  gate_id: string;
  session_id: string;
  agent_id: string;
  prompt: string;
  summary: string;
  details: { action?: { tool?: string; input?: unknown } } & Record<string, unknown>;
  requested_at: string;
  expires_at: string;
  status: string;
  digest?: string;
  approver?: string;
  channel?: string;
  reason?: string;
}

const STATUS_TEXT: Record<string, string> = {
  approved: 'Approved',
  approved_with_conditions: 'Approved with conditions',
  rejected: 'Rejected',
  timed_out: 'Denied: nobody answered in time',
};

/**
 * The approval page of one request, made for a phone (the link of a Slack message or a webhook): the
 * tool, its input in full (wrapped, never scrolled sideways), why Warden held it, and two big buttons
 * that answer with the digest of exactly this content, so that an action rewritten since is refused
 * rather than approved.
 */
export function approvalPageBody(r: GateRequestView, canDecide: boolean): Html {
  const action = r.details.action ?? {};
  const input = JSON.stringify(action.input ?? null, null, 2);
  const pending = r.status === 'pending';
  return html`<article class="approval-page" id="approval-request" data-request="${r.request_id}" data-status="${r.status}">
<p class="gate">Gate <strong>${r.gate_id}</strong> <span class="status status-${r.status}">${r.status}</span></p>
<h1 class="tool" id="approval-tool">${action.tool ?? '?'}</h1>
<pre class="input" id="approval-input" aria-label="Tool input">${input}</pre>
<section class="why">
  <h2>Why Warden held it</h2>
  <p id="approval-reason">${r.summary}</p>
  ${r.prompt && r.prompt !== r.summary ? html`<p class="muted" id="approval-prompt">${r.prompt}</p>` : ''}
</section>
<dl class="facts">
  <dt>Agent</dt><dd id="approval-agent">${r.agent_id}</dd>
  <dt>Session</dt><dd><a href="${sessionHref(r.agent_id, r.session_id)}" id="approval-session">${r.session_id}</a></dd>
  <dt>Asked</dt><dd>${time(r.requested_at)}</dd>
  <dt>Deadline</dt><dd>${time(r.expires_at)} <span class="muted">(denied unless answered)</span></dd>
  <dt>Digest</dt><dd><code id="approval-digest" title="${r.digest ?? ''}">${(r.digest ?? '').slice(0, 16)}</code></dd>
</dl>
<footer class="answer">
${
  !pending
    ? html`<p class="answered" id="approval-answered">${STATUS_TEXT[r.status] ?? r.status}${r.approver && r.status !== 'timed_out' ? html` by ${r.approver}` : ''}${r.channel ? html` via ${r.channel}` : ''}${r.reason ? html`: ${r.reason}` : ''}</p>`
    : canDecide && r.digest
      ? html`<button type="button" class="approve big" data-action="answer" data-approved="true" data-request="${r.request_id}" data-digest="${r.digest}">Approve</button>
<button type="button" class="reject big" data-action="answer" data-approved="false" data-request="${r.request_id}" data-digest="${r.digest}">Reject</button>`
      : html`<p class="muted">Your role can see this request, not answer it (approvers can).</p>`
}
<p class="result" role="status" aria-live="polite"></p>
</footer>
</article>`;
}

/** What the page says when the gate has no such request or cannot be asked. */
export function approvalMissingBody(requestId: string, status: number, reason: string): Html {
  return html`<article class="approval-page" id="approval-request" data-status="missing">
<h1>${status === 404 ? 'No such request' : 'The gate could not be asked'}</h1>
<p>${status === 404 ? html`The gate holds no approval request ${requestId}.` : html`Reading request ${requestId} failed (${status} ${reason}). Try again shortly.`}</p>
<p><a href="/approvals">← Approvals</a></p>
</article>`;
}
