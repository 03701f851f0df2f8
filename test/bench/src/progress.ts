import { performance } from 'node:perf_hooks';

export interface ProgressStatus {
  /** e.g. "1200/s decided, 34 in flight". */
  detail?: string;
  /** Fraction of the phase done, 0..1. */
  done?: number;
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)}s`;

/**
 * One status line on stderr: the phase, its elapsed time and what it is doing right now. On a terminal
 * the line is rewritten in place; otherwise (CI, nx) a line is written every few seconds.
 */
export class Progress {
  private readonly tty = process.stderr.isTTY === true;
  private readonly runStarted = performance.now();
  private phaseName = '';
  private phaseStarted = 0;
  private status: () => ProgressStatus = () => ({});
  private timer?: NodeJS.Timeout;
  private lastLine = 0;

  phase(name: string, status: () => ProgressStatus = () => ({})): void {
    this.clear();
    this.phaseName = name;
    this.phaseStarted = performance.now();
    this.status = status;
    this.lastLine = performance.now();
    if (!this.tty) process.stderr.write(`[${seconds(this.phaseStarted - this.runStarted)}] ${name}\n`);
    clearInterval(this.timer);
    this.timer = setInterval(() => this.render(), this.tty ? 250 : 1000);
    this.timer.unref();
    this.render();
  }

  /** A message between status updates, e.g. a phase's result. */
  note(message: string): void {
    this.clear();
    process.stderr.write(`${message}\n`);
    this.render();
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
    this.clear();
  }

  private line(): string {
    const now = performance.now();
    const { detail, done } = this.status();
    const pct = done === undefined ? '' : ` ${Math.min(100, Math.round(done * 100))}%`;
    return `[${seconds(now - this.runStarted)}] ${this.phaseName} ${seconds(now - this.phaseStarted)}${pct}${detail ? ` | ${detail}` : ''}`;
  }

  private render(): void {
    if (!this.timer) return;
    if (this.tty) {
      process.stderr.write(`\r\x1b[K${this.line().slice(0, (process.stderr.columns || 120) - 1)}`);
      return;
    }
    const now = performance.now();
    if (now - this.lastLine < 3000) return;
    this.lastLine = now;
    process.stderr.write(`${this.line()}\n`);
  }

  private clear(): void {
    if (this.tty) process.stderr.write('\r\x1b[K');
  }
}
