import { fragment } from './dom.js';

function matches(row: HTMLElement, status: string, words: string[]): boolean {
  if (status && row.dataset.status !== status) return false;
  const text = row.dataset.search ?? '';
  return words.every((word) => text.includes(word));
}

/** The sessions list: filter by status, search, and rows replaced or added as sessions change. */
export function sessionsPage(): Record<string, (data: unknown) => void> {
  const body = document.getElementById('session-rows')!;
  const rowsOf = () => body.children as HTMLCollectionOf<HTMLElement>;
  const status = document.getElementById('status-filter') as HTMLSelectElement;
  const search = document.getElementById('session-search') as HTMLInputElement;
  const shown = document.getElementById('shown-count')!;
  const total = document.getElementById('session-total')!;
  const words = () => search.value.toLowerCase().split(/\s+/).filter(Boolean);
  const apply = (rows: Iterable<HTMLElement>) => {
    const w = words();
    for (const row of rows) row.hidden = !matches(row, status.value, w);
  };
  const count = () => {
    const rows = rowsOf().length;
    const visible = [...rowsOf()].filter((r) => !r.hidden).length;
    shown.textContent = visible === rows ? '' : `${visible} of ${rows} shown`;
    total.textContent = String(rows);
  };
  const refilter = () => {
    apply(rowsOf());
    count();
    const params = new URLSearchParams();
    if (status.value) params.set('status', status.value);
    if (search.value) params.set('q', search.value);
    history.replaceState(null, '', params.size ? `?${params}` : location.pathname);
  };
  status.addEventListener('change', refilter);
  search.addEventListener('input', refilter);
  document.getElementById('session-filters')!.addEventListener('submit', (event) => event.preventDefault());
  count();
  return {
    rows(raw: unknown) {
      const data = raw as { rows: { id: string; html: string }[] };
      for (const row of data.rows) {
        const next = fragment(row.html) as HTMLElement;
        apply([next]);
        const current = document.getElementById(row.id);
        if (current) current.replaceWith(next);
        else body.prepend(next);
      }
      count();
    },
  };
}
