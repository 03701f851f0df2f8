import type { ExplainableAction } from '../domain/explain-request.js';
import { html, time, type Html } from './html.js';
import { sessionHref } from './sessions-view.js';

/** The parts of the reviewer's explanation the panel shows (apps/reviewer/README.md "Why this verdict"). */
interface Condition {
  condition: string;
  value?: unknown;
  error?: string;
  parts?: Condition[];
}

interface RuleShown {
  rule: string;
  origin: string;
  result: string;
  shadow: boolean;
  verdict?: string;
  score?: number;
  reason?: string;
  conditions?: Condition[];
  error?: string;
}

export interface Explanation {
  verdict: string;
  observed_verdict?: string;
  decided_by: string;
  decided_by_name?: string;
  why: string[];
  pipeline?: string;
  rules: RuleShown[];
  switched_off: string[];
  session: { goal: string; environment: string; phase: string; actions: number; failures: number; patterns: string[]; level?: number; spend_usd?: number };
}

/** The explain page's link for an action of a session. */
export function actionHref(agentId: string, sessionId: string, actionId: string): string {
  return `/sessions/${encodeURIComponent(sessionId)}/actions/${encodeURIComponent(actionId)}?agent=${encodeURIComponent(agentId)}`;
}

const MAX_VALUE = 200;
function valueText(value: unknown): string {
  const text = JSON.stringify(value) ?? 'null';
  return text.length > MAX_VALUE ? `${text.slice(0, MAX_VALUE - 1)}…` : text;
}

function conditionItem(c: Condition): Html {
  // A part that is no condition (a value compared) reads as `name = value`.
  if (c.parts === undefined && c.error === undefined && typeof c.value !== 'boolean') return html`<li class="operand"><code>${c.condition}</code> = <code class="value">${valueText(c.value)}</code></li>`;
  const result = c.error !== undefined ? html`<span class="value error">error: ${c.error}</span>` : html`<span class="value value-${String(c.value)}">${valueText(c.value)}</span>`;
  return html`<li class="condition" data-value="${c.error !== undefined ? 'error' : valueText(c.value)}"><code>${c.condition}</code> → ${result}${c.parts?.length ? html`<ul>${c.parts.map(conditionItem)}</ul>` : ''}</li>`;
}

function ruleItem(r: RuleShown): Html {
  const found = r.verdict ? html` <span class="verdict verdict-${r.verdict}">${r.verdict}</span> <span class="muted">${r.score?.toFixed(2)}</span>` : '';
  const notRun = r.result === 'not_needed' ? html`<p class="muted small">Not evaluated: the action runs none of the programs (or names none of the hosts) the rule needs.</p>` : '';
  return html`<li class="rule result-${r.result}" data-rule="${r.rule}" data-result="${r.result}"><span class="name">${r.rule}</span> <span class="muted small">${r.origin}${r.shadow ? ', shadow: never enforced' : ''}</span>${found}
${r.reason ? html`<p class="reason">${r.reason}</p>` : ''}${notRun}${r.error ? html`<p class="error">${r.error}</p>` : ''}${r.conditions?.length ? html`<ul class="conditions">${r.conditions.map(conditionItem)}</ul>` : ''}</li>`;
}

function sessionLine(s: Explanation['session']): string {
  return [
    s.goal ? `goal "${s.goal}"` : 'no goal declared',
    ...(s.environment ? [`environment ${s.environment}`] : []),
    ...(s.phase ? [`phase ${s.phase}`] : []),
    `${s.actions} action(s) before it, ${s.failures} failed`,
    ...(s.patterns.length ? [`patterns ${s.patterns.join(', ')}`] : []),
    ...(s.level !== undefined ? [`automation level ${s.level}`] : []),
    ...(s.spend_usd !== undefined ? [`spent $${s.spend_usd.toFixed(2)}`] : []),
  ].join(' · ');
}

/** The reviewer's explanation of the verdict: how it was decided, and every rule with what it gave. */
function explanationPanel(e: Explanation, explainable: ExplainableAction): Html {
  const recorded = explainable.recorded;
  const by = e.decided_by_name ? `${e.decided_by} ${e.decided_by_name}` : e.decided_by;
  const same = recorded ? recorded.verdict === e.verdict : undefined;
  const matched = e.rules.filter((r) => r.result === 'matched' || r.result === 'failed');
  const custom = e.rules.filter((r) => r.origin === 'custom' && (r.result === 'not_matched' || r.result === 'not_needed'));
  const builtIn = e.rules.filter((r) => r.origin === 'built-in' && (r.result === 'not_matched' || r.result === 'not_needed'));
  return html`<p class="explained" id="explained-verdict" data-verdict="${e.verdict}" data-decided-by="${by}">Now: <span class="verdict verdict-${e.verdict}">${e.verdict}</span>${e.observed_verdict ? html` (found ${e.observed_verdict}, advisory)` : ''}, decided by <strong>${by}</strong>${e.pipeline ? ` (pipeline ${e.pipeline})` : ''}.
${same === undefined ? '' : same ? html`<span class="same">The same verdict as recorded.</span>` : html`<span class="differs">Not the verdict recorded (${recorded!.verdict}): the policy changed since, or the session holds what the replay cannot (an open breaker, a secret the console never sees).</span>`}</p>
<p class="muted small">Session as replayed: ${sessionLine(e.session)}.${explainable.dropped ? ` The ${explainable.dropped} oldest message(s) the console no longer holds were not replayed.` : ''}</p>
<ol class="why" aria-label="How the decision engine decided">${e.why.map((w) => html`<li>${w}</li>`)}</ol>
<h3>Matched (${matched.length})</h3>
<ul class="rules matched" id="explain-matched">${matched.length ? matched.map(ruleItem) : html`<li class="muted">No rule matched.</li>`}</ul>
${custom.length ? html`<h3>Custom rules that did not match (${custom.length})</h3><ul class="rules" id="explain-custom">${custom.map(ruleItem)}</ul>` : ''}
<details class="built-in"><summary>Built-in rules that did not match or did not run (${builtIn.length})</summary><p class="names">${builtIn.map((r) => html`<span class="result-${r.result}" data-rule="${r.rule}">${r.rule}</span> `)}</p></details>
${e.switched_off.length ? html`<p class="muted small">Switched off: ${e.switched_off.join(', ')}.</p>` : ''}`;
}

/**
 * One action of a session: what the agent proposed, the verdict recorded at the time, and "Why this
 * verdict": the reviewer's explanation with the policy it runs now, over the session as the console holds it.
 */
export function actionBody(agentId: string, sessionId: string, actionId: string, explainable: ExplainableAction, answer: { status: number; body: Record<string, unknown> }): Html {
  const { action } = explainable.body;
  const recorded = explainable.recorded;
  const explained = answer.status === 200 ? explanationPanel(answer.body as unknown as Explanation, explainable) : html`<p class="error" id="explain-error">The reviewer could not explain it (${answer.status}: ${String(answer.body.reason ?? 'error')}).</p>`;
  return html`<p><a href="${sessionHref(agentId, sessionId)}">← ${sessionId}</a></p>
<h1><span class="tool">${String(action.tool)}</span> <span class="muted">${actionId}</span></h1>
<pre class="input" aria-label="Tool input">${JSON.stringify(action.input ?? {}, null, 2)}</pre>
<section class="recorded" id="recorded-verdict">
<h2>Verdict recorded</h2>
${
  recorded
    ? html`<p><span class="verdict verdict-${recorded.verdict}">${recorded.verdict}</span> ${time(recorded.at)}${recorded.decided_by ? html`, decided by ${recorded.decided_by}` : ''}${recorded.rule_hits.length ? html`; rules ${recorded.rule_hits.join(', ')}` : ''}</p><ul class="reasons">${recorded.reasons.map((r) => html`<li>${r}</li>`)}</ul>`
    : html`<p class="muted">The console has seen no verdict for this action.</p>`
}
</section>
<section class="why-verdict" id="why-verdict" aria-labelledby="why-verdict-title">
<h2 id="why-verdict-title">Why this verdict</h2>
<p class="muted small">The reviewer reviews the action again with the policy it runs now, after the session's messages before it as the console holds them (secrets redacted), recording every rule it evaluates and how it decides.</p>
${explained}
</section>`;
}
