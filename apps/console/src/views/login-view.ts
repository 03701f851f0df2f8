import { html } from './html.js';

/** The login form: no script needed. The failure message never says which of id and password was wrong. */
export function loginPage(options: { error?: string; next?: string; operator?: string }): string {
  return html`<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Log in · Warden</title><link rel="stylesheet" href="/assets/console.css"></head>
<body class="login-page" data-page="login">
<main class="login">
<h1>Warden</h1>
<p class="muted">Operator console: watch sessions, answer approvals, see what Warden did.</p>
<form method="post" action="/login" id="login-form">
  <input type="hidden" name="next" value="${options.next ?? '/'}">
  <label>Operator <input name="operator" id="operator-id" autocomplete="username" required value="${options.operator ?? ''}" autofocus></label>
  <label>Password <input name="password" id="password" type="password" autocomplete="current-password" required></label>
  ${options.error ? html`<p class="error" role="alert" id="login-error">${options.error}</p>` : ''}
  <button type="submit">Log in</button>
</form>
<p class="muted small">No account? An administrator creates one: <code>warden operator add &lt;id&gt; --role viewer|approver|admin</code>.</p>
</main>
</body>
</html>
`.text;
}
