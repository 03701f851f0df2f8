type Handler = (data: unknown) => void;

/**
 * Follows the page's live stream (Server-Sent Events). EventSource reconnects by itself; when the login
 * has expired the stream is refused, and the page reloads into the login form.
 */
export function follow(url: string, handlers: Record<string, Handler>): void {
  const state = document.getElementById('live-state');
  const show = (text: string, value: string) => {
    if (!state) return;
    state.textContent = text;
    state.dataset.state = value;
  };
  const source = new EventSource(url);
  source.addEventListener('hello', () => show('live', 'live'));
  source.onerror = () => {
    // A refused stream (the login expired: 401) is closed for good; a dropped one reconnects by itself.
    if (source.readyState === EventSource.CLOSED) location.reload();
    else show('reconnecting…', 'reconnecting');
  };
  for (const [event, handle] of Object.entries(handlers)) {
    source.addEventListener(event, (message) => handle(JSON.parse((message as MessageEvent<string>).data)));
  }
}
