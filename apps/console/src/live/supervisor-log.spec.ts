import { appendFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { incidentsPanel } from '../views/sessions-view.js';
import { SupervisorLog } from './supervisor-log.js';

const NOW = Date.parse('2026-11-29T12:00:00Z');
const line = (time: string, msg: string) => `${JSON.stringify({ time, msg })}\n`;

describe("warden up's supervisor log, as the console shows it", () => {
  let dir: string;
  let path: string;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'supervisor-log-'));
    path = join(dir, 'supervisor.log');
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('counts each service\'s deaths of the last day and gives its latest incident, the latest service first', () => {
    writeFileSync(
      path,
      line('2026-11-27T10:00:00Z', 'gate (pid 5) exited with code 1; starting it again in 1 s') +
        line('2026-11-29T10:00:00Z', 'reviewer (pid 10) exited with a signal; starting it again in 1 s') +
        line('2026-11-29T10:00:01Z', 'reviewer started again (pid 11) on http://127.0.0.1:3101') +
        'not json\n' +
        line('2026-11-29T11:00:00Z', 'gate (pid 20) exited with code 1; starting it again in 1 s') +
        line('2026-11-29T11:30:00Z', 'reviewer (pid 11) exited with a signal; starting it again in 2 s'),
    );
    appendFileSync(path, '{"time": "2026-11-29T11:59:00Z"');
    expect(new SupervisorLog(path).byService(NOW)).toEqual([
      { service: 'reviewer', deaths: 2, last: { time: '2026-11-29T11:30:00Z', msg: 'reviewer (pid 11) exited with a signal; starting it again in 2 s' } },
      { service: 'gate', deaths: 1, last: { time: '2026-11-29T11:00:00Z', msg: 'gate (pid 20) exited with code 1; starting it again in 1 s' } },
    ]);
  });

  it('shows nothing without a log, or with one that cannot be read', () => {
    expect(new SupervisorLog(undefined).byService(NOW)).toEqual([]);
    expect(new SupervisorLog(join(dir, 'missing.log')).byService(NOW)).toEqual([]);
    expect(new SupervisorLog(dir).byService(NOW)).toEqual([]);
    expect(String(incidentsPanel([]))).toBe('');
  });

  it('reads the end of a long log only, and renders each service once, escaped', () => {
    writeFileSync(path, line('2026-11-29T09:00:00Z', 'audit (pid 1) exited with a signal; starting it again in 1 s').repeat(5_000));
    appendFileSync(path, line('2026-11-29T11:00:00Z', 'audit started again (pid 2) <b>on</b> http://127.0.0.1:3107'));
    const [audit] = new SupervisorLog(path).byService(NOW);
    expect(audit!.deaths).toBeLessThan(5_000);
    const html = String(incidentsPanel([audit!]));
    expect(html).toContain('<strong>audit</strong>: died');
    expect(html).toContain('audit started again (pid 2) &lt;b&gt;on&lt;/b&gt;');
  });
});
