const csrf = () => document.querySelector<HTMLMetaElement>('meta[name="csrf-token"]')?.content ?? '';

interface Answer {
  status: number;
  body: { status?: string; reason?: string; detail?: string; calls?: { path: string; status: number }[] };
}

async function post(url: string, body: unknown): Promise<Answer> {
  const response = await fetch(url, {
    method: 'POST',
    credentials: 'same-origin',
    headers: { 'content-type': 'application/json', 'x-csrf-token': csrf() },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json().catch(() => ({}))) as Answer['body'] };
}

/** The edited tool input: a JSON object, or why not. */
export function parseInput(text: string): { ok: true; value: Record<string, unknown> } | { ok: false; reason: string } {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { ok: false, reason: `Not valid JSON: ${(error as Error).message}` };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return { ok: false, reason: 'The tool input must be a JSON object, e.g. {"command": "npm test"}.' };
  return { ok: true, value: value as Record<string, unknown> };
}

function report(button: HTMLElement, text: string, failed: boolean): void {
  const scope = button.closest('article, form, .actions, section') ?? document.body;
  const result = scope.querySelector<HTMLElement>('.result');
  if (!result) return;
  result.textContent = text;
  result.classList.toggle('failed', failed);
}

function describe(answer: Answer): string {
  const calls = (answer.body.calls ?? []).map((c) => `POST ${c.path} → ${c.status}`).join(', ');
  if (answer.status < 300) return `Done${calls ? `: ${calls}` : ''}`;
  return `Refused (${answer.status} ${answer.body.reason ?? 'error'})${answer.body.detail ? `: ${answer.body.detail}` : ''}${calls ? ` — ${calls}` : ''}`;
}

function answerText(button: HTMLButtonElement, answer: Answer): string {
  if (button.dataset.action !== 'answer') return describe(answer);
  if (answer.status < 300) return button.dataset.approved === 'true' ? 'Approved: the action runs.' : 'Rejected: the agent is told not to retry.';
  if (answer.status === 409 && answer.body.reason?.startsWith('digest_mismatch')) return 'The action changed since this page was loaded: nothing was approved. Reload to see what it is now.';
  return describe(answer);
}

async function act(button: HTMLButtonElement): Promise<void> {
  const { action, session, agent, trace } = button.dataset;
  let url: string;
  let body: Record<string, unknown>;
  if (action === 'reset-breaker') {
    url = `/api/sessions/${encodeURIComponent(session!)}/breakers/${encodeURIComponent(button.dataset.breaker!)}/reset`;
    body = { agent_id: agent };
  } else if (action === 'level') {
    const form = button.closest('form')!;
    url = `/api/agents/${encodeURIComponent(button.dataset.agent!)}/level`;
    body = { command: button.dataset.command, level: Number(form.querySelector('select')!.value) };
  } else if (action === 'answer') {
    // A request of a human gate, answered with the digest of what the page shows.
    url = `/api/requests/${encodeURIComponent(button.dataset.request!)}/respond`;
    body = { approved: button.dataset.approved === 'true', digest: button.dataset.digest };
  } else {
    url = `/api/sessions/${encodeURIComponent(session!)}/${action}`;
    body = { agent_id: agent };
    if (action === 'rewrite') {
      const textarea = button.closest('details')!.querySelector('textarea')!;
      const parsed = parseInput(textarea.value);
      if (!parsed.ok) return validate(textarea);
      body = { ...body, trace_id: trace, input: parsed.value };
    }
    if (action === 'stop') body.reason = 'Emergency stop from the console';
  }
  button.disabled = true;
  report(button, 'Working…', false);
  try {
    const answer = await post(url, body);
    report(button, answerText(button, answer), answer.status >= 300);
    if (action === 'answer' && answer.status < 300) {
      // Answered: the page's buttons are done (the finally below would enable this one again).
      for (const b of document.querySelectorAll<HTMLButtonElement>('button[data-action="answer"]')) b.hidden = true;
    }
  } catch (error) {
    report(button, `Failed: ${(error as Error).message}`, true);
  } finally {
    button.disabled = false;
  }
}

/** Shows whether the rewrite editor holds a JSON object, and only lets a valid one be sent. */
function validate(textarea: HTMLTextAreaElement): void {
  const parsed = parseInput(textarea.value);
  const details = textarea.closest('details')!;
  const message = details.querySelector<HTMLElement>('.invalid')!;
  message.textContent = parsed.ok ? '' : parsed.reason;
  textarea.setAttribute('aria-invalid', String(!parsed.ok));
  details.querySelector<HTMLButtonElement>('button[data-action="rewrite"]')!.disabled = !parsed.ok;
}

export function bindActions(): void {
  document.addEventListener('click', (event) => {
    const button = (event.target as Element).closest<HTMLButtonElement>('button[data-action]');
    if (button) void act(button);
  });
  document.addEventListener('input', (event) => {
    const target = event.target as Element;
    if (target instanceof HTMLTextAreaElement && target.closest('details.rewrite')) validate(target);
  });
}
