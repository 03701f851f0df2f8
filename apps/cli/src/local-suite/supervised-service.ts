import { ServiceProcess, type ServiceProcessOptions } from '@warden/local-runtime';

/** The first wait before a restart, doubled at each failure in a row up to MAX_BACKOFF_MS. */
const FIRST_BACKOFF_MS = 1_000;
const MAX_BACKOFF_MS = 30_000;
/** A process that ran this long before it died starts again from the first wait. */
const STABLE_MS = 60_000;

/**
 * One of the suite's processes, started again when it dies (with a growing wait while it keeps dying),
 * each death and restart reported; until the suite stops it.
 */
export class SupervisedService {
  private stopping = false;
  private backoffMs = FIRST_BACKOFF_MS;
  private startedAt = Date.now();
  private timer?: NodeJS.Timeout;
  private restarting?: Promise<void>;

  constructor(
    private current: ServiceProcess,
    private readonly options: ServiceProcessOptions,
    private readonly report: (message: string) => void,
  ) {
    this.watch(current);
  }

  get process(): ServiceProcess {
    return this.current;
  }

  async stop(): Promise<void> {
    this.stopping = true;
    clearTimeout(this.timer);
    await this.restarting?.catch(() => undefined);
    await this.current.stop();
  }

  killNow(): void {
    this.stopping = true;
    clearTimeout(this.timer);
    this.current.killNow();
  }

  private watch(process: ServiceProcess): void {
    void process.whenExited().then((code) => {
      if (this.stopping || process !== this.current) return;
      if (Date.now() - this.startedAt >= STABLE_MS) this.backoffMs = FIRST_BACKOFF_MS;
      this.report(`${this.options.app} (pid ${process.pid}) exited with ${code ?? 'a signal'}; starting it again in ${this.backoffMs / 1000} s (its log: ${this.options.logFile ?? 'none'})`);
      this.schedule();
    });
  }

  private schedule(): void {
    const wait = this.backoffMs;
    this.backoffMs = Math.min(MAX_BACKOFF_MS, this.backoffMs * 2);
    this.timer = setTimeout(() => {
      this.restarting = this.restart();
    }, wait);
    this.timer.unref();
  }

  private async restart(): Promise<void> {
    if (this.stopping) return;
    try {
      const next = await ServiceProcess.start({ ...this.options, port: this.current.port });
      this.current = next;
      this.startedAt = Date.now();
      if (this.stopping) {
        await next.stop();
        return;
      }
      this.report(`${this.options.app} started again (pid ${next.pid}) on ${next.url}`);
      this.watch(next);
    } catch (error) {
      if (this.stopping) return;
      this.report(`${this.options.app} could not be started again (${(error as Error).message.split('\n')[0]}); trying again in ${this.backoffMs / 1000} s`);
      this.schedule();
    }
  }
}
