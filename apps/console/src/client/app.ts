import { bindActions } from './actions.js';
import { fragment, swap } from './dom.js';
import { follow } from './live.js';
import { sessionsPage } from './sessions.js';

/**
 * The console's only script: it follows the page's live stream and swaps in the HTML the server
 * rendered, filters the sessions list, and sends the operator's actions.
 */
function approvalsPage(): Record<string, (data: unknown) => void> {
  const list = document.getElementById('approvals')!;
  const empty = document.getElementById('approvals-empty')!;
  return {
    approvals(raw: unknown) {
      const data = raw as { cards: { id: string; html: string }[] };
      const wanted = new Set(data.cards.map((c) => c.id));
      for (const card of [...list.children]) if (!wanted.has(card.id)) card.remove();
      for (const card of data.cards) {
        const current = document.getElementById(card.id);
        const next = fragment(card.html);
        if (!current) list.append(next);
        else if (current.getAttribute('data-version') !== next.getAttribute('data-version')) swap(card.id, card.html);
        list.append(document.getElementById(card.id)!);
      }
      empty.hidden = data.cards.length > 0;
      document.getElementById('approvals-waiting')!.textContent = String(data.cards.length);
    },
  };
}

function sessionPage(): Record<string, (data: unknown) => void> {
  return {
    session(raw: unknown) {
      const data = raw as { fragments: { id: string; html: string }[] };
      for (const part of data.fragments) {
        // A gate that closed goes away even from under an open rewrite editor.
        swap(part.id, part.html, !fragment(part.html).hasAttribute('hidden'));
      }
    },
  };
}

function agentsPage(): Record<string, (data: unknown) => void> {
  const rows = document.getElementById('agent-rows')!;
  return {
    agents(raw: unknown) {
      const data = raw as { rows: { id: string; html: string }[] };
      for (const row of data.rows) if (!swap(row.id, row.html)) rows.append(fragment(row.html));
    },
  };
}

const PAGES: Record<string, () => Record<string, (data: unknown) => void>> = { sessions: sessionsPage, approvals: approvalsPage, session: sessionPage, agents: agentsPage };

function start(): void {
  const { page = '', live } = document.body.dataset;
  bindActions();
  const handlers = PAGES[page]?.() ?? {};
  handlers.count = (raw: unknown) => {
    const data = raw as { approvals: number };
    const count = document.getElementById('approvals-count');
    if (!count) return;
    count.textContent = String(data.approvals);
    count.classList.toggle('waiting', data.approvals > 0);
  };
  if (live) follow(live, handlers);
}

start();
