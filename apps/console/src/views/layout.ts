import type { Operator } from '@warden/operator-auth';
import { html, type Html } from './html.js';

export interface PageContext {
  operator: Operator;
  csrf: string;
  approvals: number;
}

export type PageName = 'sessions' | 'approvals' | 'approval' | 'agents' | 'session' | 'action';

const NAV: { page: PageName; href: string; label: string }[] = [
  { page: 'sessions', href: '/', label: 'Sessions' },
  { page: 'approvals', href: '/approvals', label: 'Approvals' },
  { page: 'agents', href: '/agents', label: 'Agents' },
];

/**
 * Every page of the console: the navigation, who is logged in, and the one script and stylesheet. The
 * CSRF token of the login sits in a meta tag for the script's requests; data-live names the page's
 * live stream (scoped to one session on a drill-down).
 */
export function layout(ctx: PageContext, page: { title: string; name: PageName; live: string; body: Html }): string {
  const { operator } = ctx;
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="csrf-token" content="${ctx.csrf}">
<title>${page.title} · Warden</title>
<link rel="stylesheet" href="/assets/console.css">
<script type="module" src="/assets/app.js"></script>
</head>
<body data-page="${page.name}" data-live="${page.live}" data-role="${operator.role}">
<header class="top">
  <a class="brand" href="/">Warden</a>
  <nav aria-label="Console">
    ${NAV.map(
      (item) =>
        html`<a href="${item.href}"${item.page === page.name ? html` aria-current="page"` : ''}>${item.label}${
          item.page === 'approvals' ? html` <span id="approvals-count" class="count${ctx.approvals ? ' waiting' : ''}">${ctx.approvals}</span>` : ''
        }</a>`,
    )}
  </nav>
  <span class="who" id="operator" data-operator="${operator.id}">${operator.id} <span class="role role-${operator.role}">${operator.role}</span></span>
  <form method="post" action="/logout" class="logout"><input type="hidden" name="_csrf" value="${ctx.csrf}"><button type="submit">Log out</button></form>
  <span id="live-state" class="live" role="status" aria-live="polite">${page.live ? 'connecting…' : ''}</span>
</header>
<main id="main">
${page.body}
</main>
</body>
</html>
`.text;
}
