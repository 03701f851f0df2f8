/**
 * HTML built on the server from template literals: every interpolated value is escaped unless it is
 * already Html (or an array of Html), so data from agents and operators can never become markup.
 */
export class Html {
  constructor(readonly text: string) {}

  toString(): string {
    return this.text;
  }
}

const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function escapeHtml(value: unknown): string {
  return String(value).replace(/[&<>"']/g, (c) => ENTITIES[c]!);
}

function piece(value: unknown): string {
  if (value === null || value === undefined || value === false) return '';
  if (value instanceof Html) return value.text;
  if (Array.isArray(value)) return value.map(piece).join('');
  return escapeHtml(value);
}

export function html(strings: TemplateStringsArray, ...values: unknown[]): Html {
  let text = strings[0]!;
  for (let i = 0; i < values.length; i++) text += piece(values[i]) + strings[i + 1]!;
  return new Html(text);
}

/** Trusted markup (built by this module's callers from escaped parts only). */
export const raw = (text: string): Html => new Html(text);

/** A time as people read it here: `10:04:05` today, with the date on older ones; the full time in the title. */
export function time(iso: string | undefined, now = new Date()): Html {
  if (!iso) return html``;
  const date = new Date(iso);
  const sameDay = date.toISOString().slice(0, 10) === now.toISOString().slice(0, 10);
  const shown = sameDay ? date.toISOString().slice(11, 19) : `${date.toISOString().slice(0, 10)} ${date.toISOString().slice(11, 16)}`;
  return html`<time datetime="${iso}" title="${iso}">${shown}</time>`;
}
