import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadCustomHandlers } from './custom-handler-loader.js';
import { redactUrl, WebhookNotifier, type IncidentNotice } from './notifier.js';

const notice = { agent_id: 'agent-1', session_id: 's1', incident: { incident_id: 'inc-1', summary: 'stop' } } as IncidentNotice;

/** A real HTTP server on loopback that answers each request with the next of `answers` (status, or 'hang'). */
async function server(answers: (number | 'hang')[]): Promise<{ url: string; bodies: unknown[]; close: () => Promise<void> }> {
  const bodies: unknown[] = [];
  const open: ServerResponse[] = [];
  const http: Server = createServer((request: IncomingMessage, response: ServerResponse) => {
    let data = '';
    request.on('data', (chunk: Buffer) => (data += chunk.toString()));
    request.on('end', () => {
      bodies.push(JSON.parse(data));
      const answer = answers.shift() ?? 500;
      if (answer === 'hang') open.push(response);
      else response.writeHead(answer).end();
    });
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(http.address() as { port: number }).port}/hook`,
    bodies,
    close: async () => {
      for (const r of open) r.destroy();
      await new Promise((resolve) => http.close(resolve));
    },
  };
}

describe('WebhookNotifier', () => {
  it('retries a failed delivery with backoff and succeeds', async () => {
    const hook = await server([503, 'hang', 200]);
    try {
      await new WebhookNotifier({ url: hook.url, timeoutMs: 300, retries: 3, backoffMs: 10 }).notify(notice);
      expect(hook.bodies).toHaveLength(3);
      expect(hook.bodies[0]).toMatchObject({ event: 'warden.emergency_stop', agent_id: 'agent-1', incident: { incident_id: 'inc-1' } });
    } finally {
      await hook.close();
    }
  });

  it('gives up after its retries, and does not retry a refusal', async () => {
    const failing = await server([500, 500, 500]);
    try {
      await expect(new WebhookNotifier({ url: failing.url, timeoutMs: 500, retries: 2, backoffMs: 1 }).notify(notice)).rejects.toThrow(/failed: HTTP 500/);
      expect(failing.bodies).toHaveLength(3);
    } finally {
      await failing.close();
    }
    const refusing = await server([400]);
    try {
      await expect(new WebhookNotifier({ url: refusing.url, timeoutMs: 500, retries: 3, backoffMs: 1 }).notify(notice)).rejects.toThrow(/HTTP 400/);
      expect(refusing.bodies).toHaveLength(1);
    } finally {
      await refusing.close();
    }
  });

  it('names the endpoint in errors without credentials or query', () => {
    expect(redactUrl('https://user:secret@hooks.example.com/warden?token=abc')).toBe('https://hooks.example.com/warden');
  });
});

describe('custom handler modules', () => {
  it('registers the handler a module exports, and refuses a module without one', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'warden-ic-handlers-'));
    try {
      writeFileSync(join(dir, 'good.mjs'), "export const handler = { name: 'mine', intervene: (issue) => (issue.type === 'my_custom_pattern' ? { intervention_type: 'soft_correction' } : null) };\n");
      writeFileSync(join(dir, 'bad.mjs'), 'export const nothing = 1;\n');
      const registry = await loadCustomHandlers([join(dir, 'good.mjs')]);
      expect(registry.names).toEqual(['mine']);
      await expect(loadCustomHandlers([join(dir, 'bad.mjs')])).rejects.toThrow('exports no handler');
      await expect(loadCustomHandlers([join(dir, 'absent.mjs')])).rejects.toThrow('cannot load');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
