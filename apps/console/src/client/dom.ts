/** Markup from the server (every value in it escaped there) as an element. */
export function fragment(markup: string): Element {
  const template = document.createElement('template');
  template.innerHTML = markup.trim();
  return template.content.firstElementChild!;
}

/** Whether an operator is working inside an element (an open rewrite editor, focus in a form). */
export function busy(element: Element): boolean {
  return !!element.querySelector('details.rewrite[open]') || element.contains(document.activeElement);
}

/** Replaces the element with the same id, unless the operator is working in it; returns what is there now. */
export function swap(id: string, markup: string, keepBusy = true): Element | null {
  const current = document.getElementById(id);
  if (current && keepBusy && busy(current)) return current;
  const next = fragment(markup);
  if (current) current.replaceWith(next);
  return current ? next : null;
}
