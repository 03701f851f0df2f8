import { escapeHtml, html, raw, time } from './html.js';

describe('server-side HTML', () => {
  it('escapes every interpolated value unless it is already HTML', () => {
    const name = '<script>alert("x")</script>';
    expect(html`<td title="${name}">${name}</td>`.text).toBe('<td title="&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;">&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;</td>');
    expect(html`<ul>${['a', 'b'].map((x) => html`<li>${x}</li>`)}</ul>`.text).toBe('<ul><li>a</li><li>b</li></ul>');
    expect(html`${raw('<b>')}${null}${undefined}${false}${0}`.text).toBe('<b>0');
    expect(escapeHtml(`'&'`)).toBe('&#39;&amp;&#39;');
  });

  it('shows times of today without the date', () => {
    const now = new Date('2026-11-21T12:00:00Z');
    expect(time('2026-11-21T10:04:05.123Z', now).text).toBe('<time datetime="2026-11-21T10:04:05.123Z" title="2026-11-21T10:04:05.123Z">10:04:05</time>');
    expect(time('2026-11-20T10:04:05Z', now).text).toContain('>2026-11-20 10:04<');
  });
});
