import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { freePort, spawnTied, WORKSPACE_ROOT } from '@warden/local-runtime';
import type { NatsSettings } from '@warden/messaging';
import { eventually } from './eventually.js';

const WARDEN = join(WORKSPACE_ROOT, 'apps/cli/bin/warden.js');

/** Debian's Chromium, headless, with nothing that reaches out to the network on its own. */
export const CHROMIUM = process.env.CHROMIUM_BIN ?? '/usr/bin/chromium';
const CHROMIUM_FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

/** A phone's screen: 390×844 CSS pixels at 3×, touch, the viewport meta tag honoured. */
export const PHONE = { viewport: { width: 390, height: 844 }, deviceScaleFactor: 3, isMobile: true, hasTouch: true } as const;

/**
 * A browser with a fresh profile (its own cookies): one per person in a test. A desktop window by
 * default; `PHONE` (or another screen) for a small one.
 */
export async function browser(
  screen: { viewport: { width: number; height: number }; deviceScaleFactor?: number; isMobile?: boolean; hasTouch?: boolean } = { viewport: { width: 1360, height: 900 } },
): Promise<{ context: BrowserContext; close(): Promise<void> }> {
  // Loaded here, not at the top: most tests that import the harness never open a browser.
  const { chromium } = await import('playwright-core');
  const profile = mkdtempSync(join(tmpdir(), 'warden-chromium-'));
  const context = await chromium.launchPersistentContext(profile, { executablePath: CHROMIUM, headless: true, args: CHROMIUM_FLAGS, ...screen });
  return {
    context,
    async close() {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

/** What the browser measured loading the sessions page. */
export interface FirstRender {
  firstContentfulPaint: number;
  /** The first frame drawn after the document was parsed, with the rows the server rendered. */
  firstFrameWithRows: number;
  domContentLoaded: number;
  responseEnd: number;
  transferSize: number;
  rows: number;
}

/** Opens the console's sessions page in a new tab of a logged-in browser and reads the browser's own timings. */
export async function measureFirstRender(context: BrowserContext, consoleUrl: string): Promise<FirstRender> {
  const page = await context.newPage();
  try {
    await page.bringToFront();
    // The page's own CSP allows no inline script; the frame time comes from the browser's side. Written as
    // source text: it runs in the page, not in Node.
    await page.addInitScript({ content: "addEventListener('DOMContentLoaded', () => requestAnimationFrame(() => { window.wardenRendered = performance.now(); }));" });
    await page.goto(`${consoleUrl}/`, { waitUntil: 'load' });
    // Polled from here: waitForFunction evaluates its predicate with eval inside the page once it has to
    // wait, which the console's CSP refuses (the run failed whenever the first frame came after the first look).
    await eventually('the first frame with rows', () => page.evaluate<boolean>('window.wardenRendered !== undefined'), { timeoutMs: 30_000, intervalMs: 20 });
    return await page.evaluate<FirstRender>(`(() => {
      const navigation = performance.getEntriesByType('navigation')[0];
      return {
        firstContentfulPaint: performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? Number.NaN,
        firstFrameWithRows: window.wardenRendered,
        domContentLoaded: navigation.domContentLoadedEventEnd,
        responseEnd: navigation.responseEnd,
        transferSize: navigation.transferSize,
        rows: document.querySelectorAll('#session-rows > [role=row]').length,
      };
    })()`);
  } finally {
    await page.close();
  }
}

/** Logs in through the form and waits for the sessions page to be live. */
export async function logIn(page: Page, consoleUrl: string, operator: string, password: string): Promise<void> {
  await page.goto(consoleUrl);
  await page.waitForURL(/\/login/);
  await page.fill('#operator-id', operator);
  await page.fill('#password', password);
  await Promise.all([page.waitForURL(`${consoleUrl}/`), page.click('button[type="submit"]')]);
  await page.waitForSelector('#live-state[data-state="live"]');
}

/**
 * The suite as a person starts it: `warden up` in a temporary state directory, on free ports, with an
 * agent user for the test's SDK client. Reads where it runs and how to log in from what it prints.
 */
export class WardenUp {
  private output = '';
  consoleUrl = '';
  adminPassword = '';
  adminToken = '';

  private constructor(
    private readonly child: ChildProcess,
    readonly stateDir: string,
  ) {
    child.stdout!.on('data', (d: Buffer) => (this.output += d.toString()));
    child.stderr!.on('data', (d: Buffer) => (this.output += d.toString()));
  }

  /** `env`: more of warden up's environment, which its services inherit (REVIEWER_CONFIG, …). */
  static async start(agents: string[], env: Record<string, string> = {}): Promise<WardenUp> {
    const stateDir = mkdtempSync(join(tmpdir(), 'warden-up-'));
    const args = [WARDEN, 'up', '--state-dir', stateDir, '--nats-port', String(await freePort()), '--log-level', 'warn', ...agents.flatMap((a) => ['--agent', a])];
    const child = spawnTied(process.execPath, args, { cwd: WORKSPACE_ROOT, env: { ...process.env, NO_COLOR: '1', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    const up = new WardenUp(child, stateDir);
    try {
      const printed = await eventually('warden up to print how to log in', () => {
        if (child.exitCode !== null) throw new Error(`warden up exited with ${child.exitCode}:\n${up.output}`);
        return up.output;
      }, (text) => /API token of admin[^:]*: \S+/.test(text), { timeoutMs: 180_000, intervalMs: 200 });
      up.consoleUrl = /Operator console: (\S+)/.exec(printed)![1]!;
      up.adminPassword = /with the password (\S+)/.exec(printed)![1]!;
      up.adminToken = /API token of admin[^:]*: (\S+)/.exec(printed)![1]!;
    } catch (error) {
      await up.stop();
      throw error;
    }
    return up;
  }

  get printed(): string {
    return this.output;
  }

  private get credentials(): { service: { user: string; password: string }; agents: Record<string, string> } {
    return JSON.parse(readFileSync(join(this.stateDir, 'credentials.json'), 'utf8'));
  }

  get urls(): Record<string, string> {
    return JSON.parse(readFileSync(join(this.stateDir, 'suite.json'), 'utf8'));
  }

  get service(): NatsSettings {
    return { servers: this.urls.nats_url!, user: this.credentials.service.user, password: this.credentials.service.password, name: 'warden-up-client' };
  }

  /** Sessions the console follows, from its metrics. */
  async sessionsFollowed(): Promise<number> {
    const metrics = await (await fetch(`${this.consoleUrl}/metrics`)).text();
    return Number(/^warden_console_sessions\{[^}]*\} (\d+)$/m.exec(metrics)?.[1] ?? 0);
  }

  agentPassword(agentId: string): string {
    return this.credentials.agents[agentId]!;
  }

  /** Runs `warden …` next to the suite (`warden operator` finds the suite's NATS and service user in its state directory). */
  warden(args: string[], stdin = ''): Promise<{ code: number; stdout: string; stderr: string }> {
    const { NATS_URL: _u, NATS_USER: _n, NATS_PASSWORD: _p, ...env } = process.env;
    return new Promise((resolve) => {
      const local = args[0] === 'operator' ? ['--state-dir', this.stateDir] : [];
      const child = spawn(process.execPath, [WARDEN, ...args, ...local], { cwd: WORKSPACE_ROOT, env: { ...env, NO_COLOR: '1' } });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
      child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
      child.stdin.end(stdin);
      child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr }));
    });
  }

  /** Ctrl-C, as a person stops it: the suite stops its processes in order. */
  async stop(): Promise<void> {
    // A service that died while the test ran explains a strange result: its report, and where its log was, reach the test's output.
    const deaths = this.output.split('\n').filter((line) => / exited with | could not be started again /.test(line));
    for (const death of deaths) {
      const log = / \(its log: ([^)]+)\)/.exec(death)?.[1];
      const tail = log && existsSync(log) ? readFileSync(log, 'utf8').split('\n').slice(-60).join('\n') : '';
      process.stderr.write(`warden up reported while the test ran: ${death}\n${tail}\n`);
    }
    if (this.child.exitCode === null) {
      const exited = new Promise((resolve) => this.child.once('exit', resolve));
      this.child.kill('SIGINT');
      const timer = setTimeout(() => this.child.kill('SIGKILL'), 60_000);
      await exited;
      clearTimeout(timer);
    }
    rmSync(this.stateDir, { recursive: true, force: true });
  }
}
